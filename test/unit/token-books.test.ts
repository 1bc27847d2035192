import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Hash, LockingScript, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { NetworkProvider } from '../../main/chain/network/network-provider.js';
import type { ChainProvider } from '../../main/chain/types.js';
import { MAX_ADDRESS_TXS, tokenOutputsAt } from '../../main/engine/tokens/address-tokens.js';
import { KST20 } from '../../main/engine/token-templates/kst.js';
import { TemplateRegistry } from '../../main/engine/token-templates/registry.js';
import type { HistoryEntry } from '../../shared/operations.js';
import { historyCsv } from '../../renderer/views/history-csv.js';

const pkh = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));
const holder = PrivateKey.fromRandom();
const stranger = PrivateKey.fromRandom();
const issuer = PrivateKey.fromRandom();
const kst = (owner: PrivateKey) => KST20.lock({ owner: pkh(owner), redemption: pkh(issuer), symbol: 'GEM', data: [], splittable: true });

/** A transaction with the given outputs, spending `spends` (its inputs are never checked here). */
function txOf(outputs: string[], spends: { txid: string; vout: number }[] = []): Transaction {
  const inputs = (spends.length ? spends : [{ txid: Utils.toHex(Hash.sha256(Utils.toArray(String(Math.random()), 'utf8'))), vout: 0 }]).map(
    (s) => ({ sourceTXID: s.txid, sourceOutputIndex: s.vout, sequence: 0xffffffff, unlockingScript: LockingScript.fromHex('00') }),
  );
  return new Transaction(
    1,
    inputs,
    outputs.map((script) => ({ lockingScript: LockingScript.fromHex(script), satoshis: 5 })),
    0,
  );
}

/** A provider that answers from a fixed set of transactions (and counts what it was asked). */
function fakeChain(txs: Transaction[], extra: Partial<ChainProvider> = {}, history = txs.map((t) => t.id('hex'))) {
  const byId = new Map(txs.map((t) => [t.id('hex'), t.toHex()]));
  const asked = { hex: 0 };
  const chain = {
    network: 'test',
    describe: 'fake',
    getHistory: async () => history.map((txid) => ({ txid, height: 1 })),
    getUtxos: async () => [],
    getTransactionHex: async (txid: string) => {
      asked.hex++;
      return byId.get(txid) ?? null;
    },
    ...extra,
  } as unknown as ChainProvider;
  return { chain, asked };
}

const templates = new TemplateRegistry(() => []);

describe('token outputs at an address, read from the chain (lookup of any key)', () => {
  it("lists the address's unspent token outputs only: not another owner's, not one a later transaction spent", async () => {
    const first = txOf([kst(holder), kst(stranger), kst(holder)]);
    const later = txOf([kst(stranger)], [{ txid: first.id('hex'), vout: 2 }]);
    const { chain } = fakeChain([first, later]);
    const found = await tokenOutputsAt(chain, templates, holder.toAddress());
    assert.deepEqual(
      found.map((o) => [o.txid, o.vout, o.protocol, o.token.symbol]),
      [[first.id('hex'), 0, 'KST-20', 'GEM']],
    );
  });

  it("leaves out an output the provider's spent-by answer says is spent, and survives garbage answers", async () => {
    const first = txOf([kst(holder), kst(holder)]);
    const { chain } = fakeChain(
      [first],
      {
        getSpentBy: async (_txid: string, vout: number) => (vout === 1 ? 'ab'.repeat(32) : null),
        getTransactionHex: async (txid: string) => (txid === first.id('hex') ? first.toHex() : 'zz-not-a-transaction'),
      },
      [first.id('hex'), 'cd'.repeat(32), 'not a txid'],
    );
    const found = await tokenOutputsAt(chain, templates, holder.toAddress());
    assert.deepEqual(
      found.map((o) => o.vout),
      [0],
    );
  });

  it('reads a bounded number of transactions however long the history a provider answers', async () => {
    const history = Array.from({ length: 10_000 }, (_, i) => Utils.toHex(Hash.sha256(Utils.toArray(`tx${i}`, 'utf8'))));
    const { chain, asked } = fakeChain([], {}, history);
    assert.deepEqual(await tokenOutputsAt(chain, templates, holder.toAddress()), []);
    assert.ok(asked.hex <= MAX_ADDRESS_TXS + 50, `asked for ${asked.hex} transactions`);
  });
});

describe("the network provider's spent-by answer is checked", () => {
  let server: Server;
  let provider: NetworkProvider;
  const spender = 'ef'.repeat(32);
  before(async () => {
    server = createServer((req, res) => {
      const m = /\/tx\/([0-9a-z]+)\/(\d+)\/spent$/.exec(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      if (!m) return res.writeHead(500).end('{}');
      if (m[2] === '0') return res.writeHead(200).end(JSON.stringify({ txid: spender, vin: 0, status: 'confirmed' }));
      if (m[2] === '1') return res.writeHead(404).end(JSON.stringify({ error: 'not spent' }));
      return res.writeHead(200).end(JSON.stringify({ txid: '<script>', vin: 0 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    provider = new NetworkProvider({
      network: 'testnet',
      arcUrl: 'http://127.0.0.1:1',
      wocUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/bsv/test`,
    });
  });
  after(() => server.close());

  it('a txid when spent, null when WhatsOnChain says 404, an error for an answer that is not a txid', async () => {
    const txid = 'ab'.repeat(32);
    assert.equal(await provider.getSpentBy(txid, 0), spender);
    assert.equal(await provider.getSpentBy(txid, 1), null);
    await assert.rejects(provider.getSpentBy(txid, 2), /without a transaction id/);
  });
});

describe('History CSV: token transfers', () => {
  const row = (tokens: HistoryEntry['tokens']): HistoryEntry => ({
    txid: 'a'.repeat(64),
    state: 'confirmed',
    seenByChain: true,
    failureReason: null,
    peerTxid: null,
    direction: 'out',
    amount: -15,
    fee: 15,
    feePaidBy: 'wallet',
    counterparty: 'bob@b.test',
    memo: null,
    time: '2026-11-26T10:00:00.000Z',
    height: 5,
    confirmations: 1,
    tokens,
  });

  it('adds the token id, symbol and signed amount to a token row; a plain row leaves them empty', () => {
    const lines = historyCsv([
      row([{ id: 'ab-KST', protocol: 'KST-20', symbol: 'KST', amount: 5, direction: 'out', proven: true }]),
      row([]),
    ]).split('\r\n');
    assert.match(lines[0], /,token_id,token_symbol,token_amount$/);
    assert.match(lines[1], /,ab-KST,KST,-5$/);
    assert.match(lines[2], /,,,$/);
  });
});

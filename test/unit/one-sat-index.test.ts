import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LockingScript, OP, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { isDomainError, type DomainError } from '../../shared/errors.js';
import { OneSatIndex } from '../../main/engine/ordinals/one-sat-index.js';
import { openChain } from '../../main/host/chain-setup.js';
import { parseHostArgs } from '../../main/host/config.js';
import { silentLogger } from '../../main/log/logger.js';

/**
 * The network's OrdinalsIndex against a fake 1Sat API on a loopback port and a fake chain provider answering
 * transactions built here with real `ord` inscriptions: honest answers are believed, lies and junk are refused.
 */

// ---- transactions with real inscriptions --------------------------------------------------------------------

const alice = PrivateKey.fromRandom().toAddress();
const bob = PrivateKey.fromRandom().toAddress();

/** `OP_FALSE OP_IF "ord" OP_1 <type> OP_0 <content> OP_ENDIF` before a P2PKH, as 1Sat Ordinals write it. */
function inscribed(owner: string, contentType: string, content: string | number[]): LockingScript {
  const s = new LockingScript();
  s.writeOpCode(OP.OP_FALSE).writeOpCode(OP.OP_IF);
  s.writeBin(Utils.toArray('ord', 'utf8'));
  s.writeOpCode(OP.OP_1).writeBin(Utils.toArray(contentType, 'utf8'));
  s.writeOpCode(OP.OP_0).writeBin(typeof content === 'string' ? Utils.toArray(content, 'utf8') : content);
  s.writeOpCode(OP.OP_ENDIF);
  const p2pkh = new P2PKH().lock(owner);
  return new LockingScript([...s.chunks, ...p2pkh.chunks]);
}
const bsv20 = (owner: string, fields: Record<string, string>) =>
  inscribed(owner, 'application/bsv-20', JSON.stringify({ p: 'bsv-20', ...fields }));

const txs = new Map<string, string>();
function tx(inputs: [string, number][], outputs: { script: LockingScript; sats: number }[]): string {
  const t = new Transaction();
  for (const [sourceTXID, sourceOutputIndex] of inputs)
    t.addInput({ sourceTXID, sourceOutputIndex, unlockingScript: new UnlockingScript(), sequence: 0xffffffff });
  for (const o of outputs) t.addOutput({ lockingScript: o.script, satoshis: o.sats });
  const txid = t.id('hex');
  txs.set(txid, t.toHex());
  return txid;
}

const coins = tx(
  [['11'.repeat(32), 0]],
  [
    { script: new P2PKH().lock(alice), sats: 10_000 },
    { script: new P2PKH().lock(alice), sats: 10_000 },
  ],
);
const deploy = tx([[coins, 0]], [{ script: bsv20(alice, { op: 'deploy+mint', sym: 'KEY', amt: '1000', dec: '2' }), sats: 1 }]);
const KEY = `${deploy}_0`;
const transfer = tx(
  [[deploy, 0]],
  [
    { script: bsv20(bob, { op: 'transfer', id: KEY, amt: '600' }), sats: 1 },
    { script: bsv20(alice, { op: 'transfer', id: KEY, amt: '400' }), sats: 1 },
  ],
);
const other = tx([['22'.repeat(32), 0]], [{ script: bsv20(alice, { op: 'deploy+mint', sym: 'OTH', amt: '50' }), sats: 1 }]);
const OTH = `${other}_0`;
const otherTransfer = tx([[other, 0]], [{ script: bsv20(alice, { op: 'transfer', id: OTH, amt: '50' }), sats: 1 }]);
/** A "transfer" of KEY whose inputs carry none: minted from nothing. */
const forged = tx([[coins, 1]], [{ script: bsv20(alice, { op: 'transfer', id: KEY, amt: '5000' }), sats: 1 }]);
const art = tx(
  [['44'.repeat(32), 0]],
  [
    { script: inscribed(alice, 'image/png', [0x89, 0x50, 0x4e, 0x47]), sats: 1 },
    { script: new P2PKH().lock(alice), sats: 1 },
    { script: new P2PKH().lock(bob), sats: 1 },
    { script: new P2PKH().lock(alice), sats: 5_000 },
  ],
);

const chain = { getTransactionHex: async (txid: string) => txs.get(txid) ?? null };

// ---- the fake 1Sat API ------------------------------------------------------------------------------------

type Answer = { status?: number; json?: unknown; raw?: string; hang?: boolean };
let routes = new Map<string, Answer>();
let server: Server;
let base: string;

function answer(req: IncomingMessage, res: ServerResponse): void {
  const a = routes.get(req.url ?? '');
  if (a?.hang) return; // never answers: the client's time cap must end it
  if (!a) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    return;
  }
  res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(a.raw ?? JSON.stringify(a.json));
}

before(async () => {
  server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  routes = new Map();
});

const index = (extra: Partial<ConstructorParameters<typeof OneSatIndex>[0]> = {}) =>
  new OneSatIndex({ baseUrl: base, chain, logger: silentLogger(), http: { retries: 0, timeoutMs: 5_000, maxBytes: 64 * 1024 }, ...extra });

const outputRoute = (txid: string, vout: number, json: unknown) => routes.set(`/api/bsv20/outpoint/${txid}_${vout}`, { json });
const tokenRoute = (id: string, json: unknown) => routes.set(`/api/bsv20/id/${id}`, { json });

async function refusedWith(p: Promise<unknown>, refusedClaim: boolean): Promise<DomainError> {
  const err = await p.then(
    () => assert.fail('the answer was believed'),
    (e: unknown) => e,
  );
  assert.ok(isDomainError(err), `a domain error, got ${String(err)}`);
  assert.equal(err.code, 'CHAIN_UNAVAILABLE');
  assert.equal(err.details.refused === true, refusedClaim, err.message);
  return err;
}

// ---- honest answers ----------------------------------------------------------------------------------------

describe('the 1Sat indexer: honest answers are believed', () => {
  it('a deploy+mint output, its id its own outpoint', async () => {
    outputRoute(deploy, 0, { txid: deploy, vout: 0, op: 'deploy+mint', id: KEY, amt: '1000', status: 1, sym: 'KEY', owner: alice });
    assert.deepEqual(await index().bsv21Output(deploy, 0), { id: KEY, op: 'deploy+mint', amt: 1000n, valid: true });
  });

  it('a valid transfer whose inputs carry the token', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 1 });
    assert.deepEqual(await index().bsv21Output(transfer, 0), { id: KEY, op: 'transfer', amt: 600n, valid: true });
  });

  it('pending and invalid verdicts as the indexer gives them', async () => {
    outputRoute(transfer, 1, { txid: transfer, vout: 1, op: 'transfer', id: KEY, amt: '400', status: 0 });
    assert.equal((await index().bsv21Output(transfer, 1))?.valid, null);
    outputRoute(forged, 0, { txid: forged, vout: 0, op: 'transfer', id: KEY, amt: '5000', status: -1 });
    assert.equal((await index().bsv21Output(forged, 0))?.valid, false);
  });

  it('a valid verdict it cannot check within its fetch budget stays pending, never valid', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 1 });
    assert.equal((await index({ maxParents: 0 }).bsv21Output(transfer, 0))?.valid, null);
  });

  it('silence: no token output, or a script operation not judged yet', async () => {
    assert.equal(await index().bsv21Output(art, 1), null);
    assert.deepEqual(await index().bsv21Output(transfer, 0), { id: KEY, op: 'transfer', amt: 600n, valid: null });
  });

  it("a token's deploy facts", async () => {
    tokenRoute(KEY, { txid: deploy, vout: 0, id: KEY, sym: 'KEY', dec: 2, amt: '1000', status: 1, fundTotal: 0 });
    assert.deepEqual(await index().bsv21Token(KEY), { id: KEY, sym: 'KEY', dec: 2, amt: 1000n, icon: null });
    assert.equal(await index().bsv21Token(`${art}_1`), null, 'not a deploy+mint, and the indexer knows none');
  });

  it("an address's ordinal outputs, over pages, each checked to be held there", async () => {
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=false`, {
      json: [
        { txid: art, vout: 0, satoshis: 1 },
        { txid: art, vout: 1, satoshis: 1 },
      ],
    });
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=true`, { json: [{ txid: transfer, vout: 1 }] });
    assert.deepEqual(await index().ordinalOutputsOf(alice), [
      { txid: art, vout: 0 },
      { txid: art, vout: 1 },
      { txid: transfer, vout: 1 },
    ]);
  });
});

// ---- lies ----------------------------------------------------------------------------------------------------

describe('the 1Sat indexer: lies are refused', () => {
  it('a wrong amount', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '700', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
  });

  it('a wrong token id', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: OTH, amt: '600', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
  });

  it('"valid" for an output whose script carries another token, or none', async () => {
    outputRoute(otherTransfer, 0, { txid: otherTransfer, vout: 0, op: 'transfer', id: KEY, amt: '50', status: 1 });
    await refusedWith(index().bsv21Output(otherTransfer, 0), true);
    outputRoute(art, 1, { txid: art, vout: 1, op: 'transfer', id: KEY, amt: '1', status: 1 });
    await refusedWith(index().bsv21Output(art, 1), true);
  });

  it('a deploy+mint whose id is not its own outpoint', async () => {
    outputRoute(deploy, 0, { txid: deploy, vout: 0, op: 'deploy+mint', id: OTH, amt: '1000', status: 1 });
    await refusedWith(index().bsv21Output(deploy, 0), true);
  });

  it('another operation than the script carries', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'burn', id: KEY, amt: '600', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
  });

  it('"valid" for a transfer minted from nothing (its inputs carry none of the token)', async () => {
    outputRoute(forged, 0, { txid: forged, vout: 0, op: 'transfer', id: KEY, amt: '5000', status: 1 });
    const err = await refusedWith(index().bsv21Output(forged, 0), true);
    assert.match(err.message, /inputs carry only 0/);
  });

  it('an answer about another outpoint, or an output the transaction does not have', async () => {
    outputRoute(transfer, 0, { txid: deploy, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    outputRoute(transfer, 7, { txid: transfer, vout: 7, op: 'transfer', id: KEY, amt: '600', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 7), true);
  });

  it('a deploy whose symbol, decimals or supply differ from its inscription', async () => {
    tokenRoute(KEY, { id: KEY, sym: 'FAKE', dec: 2, amt: '1000', status: 1 });
    await refusedWith(index().bsv21Token(KEY), true);
    tokenRoute(KEY, { id: KEY, sym: 'KEY', dec: 0, amt: '1000', status: 1 });
    await refusedWith(index().bsv21Token(KEY), true);
    tokenRoute(KEY, { id: KEY, sym: 'KEY', dec: 2, amt: '1000000', status: 1 });
    await refusedWith(index().bsv21Token(KEY), true);
  });

  it('a token at an output that carries no deploy+mint', async () => {
    tokenRoute(`${transfer}_0`, { id: `${transfer}_0`, sym: 'KEY', dec: 2, amt: '600', status: 1 });
    await refusedWith(index().bsv21Token(`${transfer}_0`), true);
  });

  it('an id that is not an outpoint, an amount that is not a decimal string', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: `${deploy}:0`, amt: '600', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: 600, status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '18446744073709551616', status: 1 });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 'valid' });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=false`, { json: [{ txid: 'zz', vout: 0 }] });
    await refusedWith(index().ordinalOutputsOf(alice), true);
  });

  it('malformed JSON', async () => {
    routes.set(`/api/bsv20/outpoint/${transfer}_0`, { raw: '{"op":"transfer","id":' });
    await refusedWith(index().bsv21Output(transfer, 0), true);
    routes.set(`/api/bsv20/id/${KEY}`, { raw: '<html>hello</html>' });
    await refusedWith(index().bsv21Token(KEY), true);
  });

  it('an oversized answer is cut off, not read', async () => {
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 1, reason: 'x'.repeat(200_000) });
    const err = await refusedWith(index().bsv21Output(transfer, 0), false);
    assert.match(err.message, /did not answer/);
  });

  it('a slow answer is given up on', async () => {
    routes.set(`/api/bsv20/outpoint/${transfer}_0`, { hang: true });
    const err = await refusedWith(index({ http: { retries: 0, timeoutMs: 200 } }).bsv21Output(transfer, 0), false);
    assert.match(err.message, /did not answer/);
  });

  it('an error status is no answer', async () => {
    routes.set(`/api/bsv20/outpoint/${transfer}_0`, { status: 403, json: { message: 'no' } });
    await refusedWith(index().bsv21Output(transfer, 0), false);
  });

  it('outputs listed at an address that are not held there are left out', async () => {
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=false`, {
      json: [
        { txid: art, vout: 2 }, // pays bob
        { txid: art, vout: 3 }, // alice's, but 5,000 satoshis and no inscription: coins, not an ordinal
        { txid: art, vout: 0 },
      ],
    });
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=true`, { json: [{ txid: transfer, vout: 0 }] }); // bob's
    assert.deepEqual(await index().ordinalOutputsOf(alice), [{ txid: art, vout: 0 }]);
  });

  it('a list longer than the cap is refused, not cut short silently', async () => {
    const page = Array.from({ length: 100 }, (_, i) => ({ txid: art, vout: i }));
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=0&bsv20=false`, { json: page });
    routes.set(`/api/txos/address/${alice}/unspent?limit=100&offset=100&bsv20=false`, { json: page.map((o) => ({ ...o, txid: coins })) });
    await refusedWith(index({ maxOutputs: 150 }).ordinalOutputsOf(alice), false);
  });

  it('a transaction the chain provider answers with other bytes is refused', async () => {
    const lying = { getTransactionHex: async () => txs.get(deploy)! };
    outputRoute(transfer, 0, { txid: transfer, vout: 0, op: 'transfer', id: KEY, amt: '600', status: 1 });
    await refusedWith(index({ chain: lying }).bsv21Output(transfer, 0), false);
  });

  it('arguments that are not an outpoint or an address never reach the indexer', async () => {
    await assert.rejects(index().bsv21Token('../../admin'), (e: unknown) => isDomainError(e) && e.code === 'VALIDATION_FAILED');
    await assert.rejects(index().bsv21Output('ab', 0), (e: unknown) => isDomainError(e) && e.code === 'VALIDATION_FAILED');
    await assert.rejects(index().ordinalOutputsOf('alice/../x'), (e: unknown) => isDomainError(e) && e.code === 'VALIDATION_FAILED');
  });
});

describe('the indexer setting', () => {
  it('defaults to the public 1Sat API per network, follows --ordinals-indexer-url, and is never used on a remote local chain unless given', async () => {
    const setup = async (argv: string[]) => (await openChain(parseHostArgs(argv, {})!.chain, '/nonexistent', 'unused')).ordinalsIndexerUrl;
    assert.equal(await setup(['--network', 'mainnet']), 'https://ordinals.gorillapool.io/api');
    assert.equal(await setup(['--network', 'testnet']), 'https://testnet.ordinals.gorillapool.io/api');
    assert.equal(
      await setup(['--network', 'mainnet', '--ordinals-indexer-url', 'https://indexer.example/api/']),
      'https://indexer.example/api',
    );
    assert.equal(await setup(['--network', 'remote', '--remote-url', 'http://127.0.0.1:1']), null);
    assert.throws(() => parseHostArgs(['--ordinals-indexer-url', 'ftp://x'], {}), /must be an http\(s\) URL/);
  });
});

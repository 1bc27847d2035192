import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { HD, LockingScript, Mnemonic, P2PKH, PrivateKey, Spend, Transaction } from '@bsv/sdk';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import { createEngine, type Engine } from '../../main/engine/engine.js';
import type { Credentials } from '../../main/engine/context.js';
import { signInputs, type SignTask } from '../../main/engine/wallets/key-worker.js';
import { KeyWorkers } from '../../main/engine/wallets/key-workers.js';
import { newMnemonic, seedOf } from '../../main/engine/wallets/keys.js';
import { openStore, type Store } from '../../main/store/database.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { tempDir } from '../helpers/tmp.js';

const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const DIES_SIGNING = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'key-workers', 'dies-signing.ts');
const TO = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();

/** An engine over a fresh data dir whose key ring signs on `keyWorkers`. */
async function engineWith(keyWorkers: KeyWorkers): Promise<{ engine: Engine; node: LocalNode; store: Store; admin: Credentials }> {
  const dataDir = tempDir();
  const store = openStore({ dataDir, password: 'test-password' });
  const node = LocalNode.open({ dataDir, password: 'test-password' });
  const engine = createEngine({
    store,
    chain: new LocalProvider(node, () => null),
    config: { version: 'test', network: 'local', sessionTtlMs: 3600_000, paymailDomain: 'acme.test', broadcastWindowMs: 30_000 },
    keyWorkers,
  });
  const s = (await engine.execute('setup', ADMIN, {}, meta)).output;
  return { engine, node, store, admin: { authToken: s.authToken, serviceId: s.serviceId } };
}

/** The private key of `m/44'/236'/0'/chain/idx` that locks `script`, derived by @bsv/sdk alone. */
function keyFor(script: string): PrivateKey {
  const account = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'");
  for (const chain of [0, 1]) {
    for (let idx = 0; idx < 50; idx++) {
      const key = account.deriveChild(chain).deriveChild(idx).privKey;
      if (new P2PKH().lock(key.toAddress()).toHex() === script) return key;
    }
  }
  throw new Error(`no key of the phrase locks ${script}`);
}

/** The transaction `txid` as @bsv/sdk signs it on this thread from the same inputs and outputs, and a check of every input. */
async function signedHereAndVerified(node: LocalNode, txid: string): Promise<{ ours: string; here: string }> {
  const ours = Transaction.fromHex(node.txHex(txid)!);
  const here = new Transaction(ours.version, [], [], ours.lockTime);
  for (const input of ours.inputs) {
    const spent = Transaction.fromHex(node.txHex(input.sourceTXID!)!).outputs[input.sourceOutputIndex];
    const script = spent.lockingScript.toHex();
    here.addInput({
      sourceTXID: input.sourceTXID,
      sourceOutputIndex: input.sourceOutputIndex,
      sequence: input.sequence,
      unlockingScriptTemplate: new P2PKH().unlock(keyFor(script), 'all', false, spent.satoshis, LockingScript.fromHex(script)),
    });
  }
  for (const o of ours.outputs) here.addOutput({ lockingScript: o.lockingScript, satoshis: o.satoshis });
  await here.sign();
  ours.inputs.forEach((input, i) => {
    const spent = Transaction.fromHex(node.txHex(input.sourceTXID!)!).outputs[input.sourceOutputIndex];
    const valid = new Spend({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: spent.satoshis!,
      lockingScript: spent.lockingScript,
      transactionVersion: ours.version,
      otherInputs: ours.inputs.filter((_, j) => j !== i),
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence!,
      inputIndex: i,
      outputs: ours.outputs,
      lockTime: ours.lockTime,
    }).validate();
    assert.ok(valid, `input ${i} of ${txid} verifies`);
  });
  return { ours: ours.toHex(), here: here.toHex() };
}

describe('signing on the key workers', () => {
  const pools: KeyWorkers[] = [];
  const workers = (...args: ConstructorParameters<typeof KeyWorkers>) => {
    const w = new KeyWorkers(...args);
    pools.push(w);
    return w;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('gives the transaction @bsv/sdk signs on the main thread, and every input verifies', async () => {
    const { engine, node, admin } = await engineWith(workers(undefined, 1, 'always'));
    try {
      const w = (await engine.execute('createWallet', { walletTitle: 'Known', mnemonicPhrase: PHRASE }, admin, meta)).output.walletID;
      // Three coins on three receive addresses: the first payment spends them all (keys the worker derives
      // the public side of), the second its change (a key whose public key the address book derived ahead).
      for (let i = 0; i < 3; i++) await engine.execute('faucet', { walletId: w, satoshis: 20_000 }, admin, meta);
      const first = (await engine.execute('pay', { outputs: [{ script: TO, satoshis: 50_000 }], walletId: w }, admin, meta)).output;
      const second = (await engine.execute('pay', { outputs: [{ script: TO, satoshis: 5_000 }], walletId: w }, admin, meta)).output;
      assert.equal(Transaction.fromHex(node.txHex(first.txid)!).inputs.length, 3);
      for (const txid of [first.txid, second.txid]) {
        const { ours, here } = await signedHereAndVerified(node, txid);
        assert.equal(ours, here, `${txid}: the same bytes as @bsv/sdk's own signing`);
      }
    } finally {
      engine.close();
      node.close();
    }
  });

  it('opens an account to the chain keys @bsv/sdk derives, from the seed node:crypto computes', async () => {
    for (const phrase of [PHRASE, newMnemonic(), newMnemonic()]) {
      assert.equal(seedOf(phrase).toString('hex'), Buffer.from(Mnemonic.fromString(phrase).toSeed()).toString('hex'));
    }
    const account = HD.fromSeed(Mnemonic.fromString(PHRASE).toSeed()).derive("m/44'/236'/0'");
    const opened = await workers(undefined, 1, 'always').openAccount(PHRASE, "m/44'/236'/0'", [0, 1, 2]);
    opened.forEach(({ secret, node }, chain) => {
      const sdk = account.deriveChild(chain);
      assert.equal(Buffer.from(secret).toString('hex'), sdk.privKey.toHex().padStart(64, '0'), `chain ${chain}'s private key`);
      assert.equal(Buffer.from(node.chainCode).toString('hex'), Buffer.from(sdk.chainCode).toString('hex'));
      assert.equal(Buffer.from(node.pub).toString('hex'), sdk.pubKey.toString());
    });
  });

  it('signs the same on the calling thread and on a worker; the keys sent are detached here and zeroed there', async () => {
    const keys = [PrivateKey.fromRandom(), PrivateKey.fromRandom()];
    const txids = keys.map(() => randomBytes(32).toString('hex'));
    const taskFor = (): SignTask => {
      const secrets = new Uint8Array(64);
      keys.forEach((k, i) => secrets.set(k.toArray('be', 32), 32 * i));
      return {
        version: 1,
        lockTime: 0,
        inputs: keys.map((k, i) => ({
          txid: txids[i],
          vout: i,
          sequence: 0xffffffff,
          satoshis: 10_000 + i,
          script: new P2PKH().lock(k.toAddress()).toHex(),
          key: i,
        })),
        outputs: [{ script: TO, satoshis: 19_000 }],
        secrets: secrets.buffer,
        publics: keys.map((k) => ({ pub: Uint8Array.from(k.toPublicKey().encode(true) as number[]) })),
      };
    };
    const here = taskFor();
    const signedHere = await signInputs(here);
    assert.ok(
      new Uint8Array(here.secrets).every((b) => b === 0),
      'zeroed once used',
    );
    const there = taskFor();
    const signedThere = await workers(undefined, 1, 'always').sign(there);
    assert.equal(there.secrets.byteLength, 0, 'moved to the worker, not copied');
    assert.deepEqual(signedThere.unlockingScripts, signedHere.unlockingScripts);
  });

  it('a worker that dies while signing fails the payment with BUSY, and gives back its coins and change address', async () => {
    const { engine, node, store, admin } = await engineWith(workers(DIES_SIGNING, 1, 'always'));
    try {
      const w = (await engine.execute('createWallet', { walletTitle: 'Ops' }, admin, meta)).output.walletID;
      await engine.execute('faucet', { walletId: w, satoshis: 20_000 }, admin, meta);
      const mempool = node.mempoolSize();
      await rejectsWith(
        engine.execute('pay', { outputs: [{ script: TO, satoshis: 5_000 }], walletId: w }, admin, meta),
        'BUSY',
        /could not be signed.*try again/,
      );
      const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
      assert.equal(count("SELECT count(*) AS n FROM utxos WHERE status = 'reserved'"), 0, 'no coin stays reserved');
      assert.equal(count("SELECT count(*) AS n FROM utxos WHERE status = 'available'"), 1);
      assert.equal(count('SELECT count(*) AS n FROM addresses WHERE chain = 1 AND used = 1'), 0, 'the change address is free again');
      assert.equal(node.mempoolSize(), mempool, 'nothing was sent');
      const wallets = (await engine.execute('listWallets', {}, admin, meta)).output.wallets;
      assert.equal(
        wallets.find((x) => x.walletID === w)!.balance.unconfirmed + wallets.find((x) => x.walletID === w)!.balance.confirmed,
        20_000,
      );
    } finally {
      engine.close();
      node.close();
    }
  });
});

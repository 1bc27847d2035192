/**
 * Solidity → sCrypt → our compiler → the local chain. The token ledger of the transpiler's corpus (a
 * mapping of balances, an issuer set from msg.sender) is transpiled, compiled, deployed in a transaction
 * the local node accepts, and called: mint and transfer in transactions that carry the contract's next
 * state, each checked by the node with @bsv/sdk's `Spend` on every input. Calls with a forged signature,
 * a false balance, a key hidden behind a wrong index, or a next state the contract did not compute are
 * refused by the node.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Hash,
  LockingScript,
  P2PKH,
  PrivateKey,
  SatoshisPerKilobyte,
  Transaction,
  TransactionSignature,
  UnlockingScript,
  Utils,
} from '@bsv/sdk';
import { buildContractClass, HashedMap, Int, PubKey, PubKeyHash, Sig, SigHashPreimage } from 'scryptlib';
import { LocalNode } from '../../main/chain/local/local-node.js';
import { compileScrypt } from '../../main/contracts/scrypt/compile.js';
import { transpileSolidity } from '../../main/contracts/solidity/transpile.js';
import { sortedIndex } from '../helpers/hashed-map-index.js';
import { ROOT } from '../helpers/headless.js';
import { tempDir } from '../helpers/tmp.js';

const SIGHASH = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;
const CONTRACT_SATS = 10_000;
const pkh = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));

const issuer = PrivateKey.fromRandom();
const bob = PrivateKey.fromRandom();
const carol = PrivateKey.fromRandom();

type Balances = Map<string, bigint>;
interface State {
  supply: bigint;
  balances: Balances;
}

describe('a transpiled Solidity token ledger on the local chain', () => {
  const dataDir = tempDir('keystead-sol-ledger-');
  let node: LocalNode;
  let Ledger: ReturnType<typeof buildContractClass>;
  let scrypt: string;
  /** The contract's current output, and what its state is. */
  let current: { txid: string; tx: Transaction; state: State };
  /** Small outputs of the issuer that pay the fee of each call (the contract's own value is carried over whole). */
  const feeCoins: { tx: Transaction; vout: number }[] = [];

  const instance = (state: State) => {
    const c = new Ledger(PubKeyHash(pkh(issuer))) as Record<string, any>;
    c.issuer = PubKeyHash(pkh(issuer));
    c.supply = Int(state.supply);
    c.balances = HashedMap(new Map(state.balances));
    return c;
  };

  before(async () => {
    const source = readFileSync(path.join(ROOT, 'test', 'fixtures', 'solidity', 'pass', 'token-ledger.sol'), 'utf8');
    const t = transpileSolidity(source, { file: 'token-ledger.sol' });
    assert.deepEqual(t.logs, []);
    scrypt = t.scrypt;
    const compiled = compileScrypt(scrypt, { file: 'TokenLedger.scrypt' });
    assert.deepEqual(compiled.diagnostics, []);
    Ledger = buildContractClass(compiled.artifact as never);

    node = LocalNode.open({ dataDir, password: 'chain-pw' });
    const funded = await node.faucet(issuer.toAddress(), 1_000_000);
    assert.equal(funded.status, 'accepted');
    const faucetTx = Transaction.fromHex(node.txHex(funded.txid)!);
    const vout = faucetTx.outputs.findIndex((o) => o.lockingScript.toHex() === new P2PKH().lock(issuer.toAddress()).toHex());

    // The deployment: the contract with an empty ledger, ten fee coins, the change.
    const state: State = { supply: 0n, balances: new Map() };
    const deploy = new Transaction();
    deploy.addInput({ sourceTransaction: faucetTx, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(issuer) });
    deploy.addOutput({ lockingScript: LockingScript.fromHex(instance(state).lockingScript.toHex()), satoshis: CONTRACT_SATS });
    for (let i = 0; i < 10; i++) deploy.addOutput({ lockingScript: new P2PKH().lock(issuer.toAddress()), satoshis: 5_000 });
    deploy.addOutput({ lockingScript: new P2PKH().lock(issuer.toAddress()), change: true });
    await deploy.fee(new SatoshisPerKilobyte(1));
    await deploy.sign();
    const r = node.submit(deploy.toHex());
    assert.equal(r.status, 'accepted', JSON.stringify(r));
    current = { txid: deploy.id('hex'), tx: deploy, state };
    for (let i = 1; i <= 10; i++) feeCoins.push({ tx: deploy, vout: i });
  });
  after(() => node?.close());

  /**
   * A call: input 0 spends the contract, input 1 a fee coin (no change, so the outputs are exactly the
   * next state the contract requires). `args` builds scryptlib's arguments from the preimage and a signer.
   */
  async function call(method: string, next: State, args: (preimage: string, sign: (k: PrivateKey) => string) => unknown[]) {
    const fee = feeCoins.shift()!;
    const tx = new Transaction();
    tx.addInput({
      sourceTransaction: current.tx,
      sourceTXID: current.txid,
      sourceOutputIndex: 0,
      sequence: 0xffffffff,
      unlockingScript: new UnlockingScript(),
    });
    tx.addInput({
      sourceTransaction: fee.tx,
      sourceTXID: fee.tx.id('hex'),
      sourceOutputIndex: fee.vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(issuer),
    });
    tx.addOutput({ lockingScript: LockingScript.fromHex(instance(next).lockingScript.toHex()), satoshis: CONTRACT_SATS });
    const lockingScript = current.tx.outputs[0].lockingScript;
    const preimageBytes = TransactionSignature.format({
      sourceTXID: current.txid,
      sourceOutputIndex: 0,
      sourceSatoshis: CONTRACT_SATS,
      transactionVersion: tx.version,
      otherInputs: [tx.inputs[1]],
      outputs: tx.outputs,
      inputIndex: 0,
      subscript: lockingScript,
      inputSequence: 0xffffffff,
      lockTime: tx.lockTime,
      scope: SIGHASH,
    });
    const sign = (k: PrivateKey) => {
      const raw = k.sign(Hash.sha256(preimageBytes));
      return Utils.toHex(new TransactionSignature(raw.r, raw.s, SIGHASH).toChecksigFormat());
    };
    const c = instance(current.state);
    const unlocking = c[method](...args(Utils.toHex(preimageBytes), sign)).unlockingScript.toHex();
    tx.inputs[0].unlockingScript = UnlockingScript.fromHex(unlocking);
    await tx.sign();
    const r = node.submit(tx.toHex());
    if (r.status === 'accepted') current = { txid: tx.id('hex'), tx, state: next };
    else feeCoins.unshift(fee);
    return r;
  }

  /** Refused by the contract's script itself (input 0), not for any other reason. */
  const refusedByContract = (r: Awaited<ReturnType<typeof call>>) =>
    r.status === 'rejected' && r.reason === 'bad-signature' && /^Input 0 /.test(r.message ?? '');

  const keysOf = (b: Balances) => [...b.keys()].map((k) => Buffer.from(k, 'hex'));
  const indexOf = (b: Balances, who: PrivateKey) => sortedIndex(keysOf(b), Buffer.from(pkh(who), 'hex'));
  const withBalance = (b: Balances, who: PrivateKey, v: bigint) => new Map(b).set(pkh(who), v);

  it('the transpiled ledger is stateful and keeps its balances in a HashedMap', () => {
    assert.match(scrypt, /@state\n {2}HashedMap<PubKeyHash, int> balances;/);
    assert.match(
      scrypt,
      /public function transfer\(PubKeyHash to, int amount, Sig sig, PubKey pubKey, int balances_msgSender, int i0, int balances_to, int i1, SigHashPreimage txPreimage\)/,
    );
  });

  it('the issuer mints to bob; someone else cannot', async () => {
    const b = current.state.balances;
    const next: State = { supply: 100n, balances: withBalance(b, bob, 100n) };
    const forged = await call('mint', next, (pre, sign) => [
      PubKeyHash(pkh(bob)),
      Int(100),
      Sig(sign(bob)),
      PubKey(bob.toPublicKey().toString()),
      Int(0),
      Int(indexOf(b, bob)),
      SigHashPreimage(pre),
    ]);
    assert.ok(refusedByContract(forged), `bob cannot mint: ${JSON.stringify(forged)}`);
    const r = await call('mint', next, (pre, sign) => [
      PubKeyHash(pkh(bob)),
      Int(100),
      Sig(sign(issuer)),
      PubKey(issuer.toPublicKey().toString()),
      Int(0),
      Int(indexOf(b, bob)),
      SigHashPreimage(pre),
    ]);
    assert.equal(r.status, 'accepted', JSON.stringify(r));
    assert.equal(node.txStatus(current.txid).state, 'mempool');
  });

  it('bob transfers 30 to carol; a false balance, a wrong next state and a hidden key are refused', async () => {
    const b = current.state.balances;
    const after = withBalance(withBalance(b, bob, 70n), carol, 30n);
    const args = (claimed: bigint, carolIdx: bigint) => (pre: string, sign: (k: PrivateKey) => string) => [
      PubKeyHash(pkh(carol)),
      Int(30),
      Sig(sign(bob)),
      PubKey(bob.toPublicKey().toString()),
      Int(claimed),
      Int(indexOf(b, bob)),
      Int(0),
      Int(carolIdx),
      SigHashPreimage(pre),
    ];
    assert.ok(
      refusedByContract(
        await call(
          'transfer',
          { supply: 100n, balances: withBalance(withBalance(b, bob, 970n), carol, 30n) },
          args(1000n, indexOf(b, carol)),
        ),
      ),
      'bob does not hold 1000',
    );
    assert.ok(
      refusedByContract(
        await call(
          'transfer',
          { supply: 100n, balances: withBalance(withBalance(b, bob, 70n), carol, 31n) },
          args(100n, indexOf(b, carol)),
        ),
      ),
      'the next state must be what the contract computed',
    );
    const r = await call('transfer', { supply: 100n, balances: after }, args(100n, indexOf(b, carol)));
    assert.equal(r.status, 'accepted', JSON.stringify(r));

    // carol now holds 30: she cannot be passed off as absent (balance 0) behind another index.
    const now = current.state.balances;
    const wrong = (indexOf(now, carol) + 1n) % BigInt(now.size + 1);
    const hide = await call('transfer', { supply: 100n, balances: withBalance(withBalance(now, bob, 60n), carol, 10n) }, (pre, sign) => [
      PubKeyHash(pkh(carol)),
      Int(10),
      Sig(sign(bob)),
      PubKey(bob.toPublicKey().toString()),
      Int(70),
      Int(indexOf(now, bob)),
      Int(0),
      Int(wrong),
      SigHashPreimage(pre),
    ]);
    assert.ok(refusedByContract(hide), JSON.stringify(hide));
  });

  it('a transfer to oneself is refused: the two entries would overwrite each other and mint', async () => {
    // balances[msg.sender] and balances[to] are one entry when bob pays bob; stored one after the other, the
    // second (70 + 10) would overwrite the first (70 - 10): bob would hold 80. Nor is the state Solidity would
    // keep (70) reachable: the transpiled contract refuses the call.
    const b = current.state.balances;
    const held = b.get(pkh(bob))!;
    const selfPay = (next: bigint) =>
      call('transfer', { supply: 100n, balances: withBalance(b, bob, next) }, (pre, sign) => [
        PubKeyHash(pkh(bob)),
        Int(10),
        Sig(sign(bob)),
        PubKey(bob.toPublicKey().toString()),
        Int(held),
        Int(indexOf(b, bob)),
        Int(held),
        Int(indexOf(b, bob)),
        SigHashPreimage(pre),
      ]);
    const minted = await selfPay(held + 10n);
    assert.ok(refusedByContract(minted), `bob cannot mint by paying himself: ${JSON.stringify(minted)}`);
    assert.ok(refusedByContract(await selfPay(held)));
  });

  it('the calls chain: each spends the last state, and a block confirms them', () => {
    const mined = node.mine();
    assert.ok(mined.txids.includes(current.txid));
    assert.equal(node.txStatus(current.txid).state, 'mined');
    assert.deepEqual(
      [...current.state.balances.entries()].sort(),
      [
        [pkh(bob), 70n],
        [pkh(carol), 30n],
      ].sort(),
    );
  });
});

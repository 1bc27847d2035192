import { Hash, LockingScript, P2PKH, PrivateKey, Spend, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_FEE_POLICY } from '../main/chain/policy.js';
import { startRuntime, type Runtime } from '../main/host/runtime.js';
import { buildTokenSpend } from '../main/engine/tokens/build.js';
import { KST20, KST789 } from '../main/engine/token-templates/kst.js';
import { interleaved, report, wanted } from './lib.js';

const json = (url: string, method: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ data: any }>);

const pkh = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));

async function setup(): Promise<{ runtime: Runtime; dataDir: string; auth: Record<string, string> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'keystead-bench-'));
  const runtime = await startRuntime({ dataDir, password: 'bench', port: 0, network: 'local', version: 'bench', sessionTtlSeconds: 3600 });
  const s = await json(`${runtime.url}/api/v1/setup`, 'POST', {
    organisation: 'Bench',
    email: 'bench@example.com',
    password: 'bench-pass-1',
  });
  return { runtime, dataDir, auth: { authToken: s.data.authToken, serviceid: s.data.serviceId } };
}

/** Spend-verifies every input of a transaction against the given source outputs. */
function verify(tx: Transaction, sources: { script: string; satoshis: number }[]): void {
  tx.inputs.forEach((input, i) => {
    const ok = new Spend({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: sources[i].satoshis,
      lockingScript: LockingScript.fromHex(sources[i].script),
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, j) => j !== i),
      unlockingScript: input.unlockingScript!,
      inputSequence: 0xffffffff,
      inputIndex: i,
      outputs: tx.outputs,
      lockTime: tx.lockTime,
    }).validate();
    if (!ok) throw new Error(`input ${i} does not verify`);
  });
}

/**
 * Token transfers per second through POST /v1/send (reserve, gather, build, sign, record, broadcast, book)
 * against the floor of building, signing and Spend-verifying the same KST-20 transfer with the builder alone.
 */
async function transferBench(): Promise<void> {
  const N = 40;
  const { runtime, dataDir, auth } = await setup();
  try {
    const w = (await json(`${runtime.url}/v1/createWallet`, 'POST', { walletTitle: 'Tokens' }, auth)).data.walletID;
    for (let i = 0; i < N + 12; i++) await json(`${runtime.url}/chain/faucet`, 'POST', { walletId: w, satoshis: 50_000 }, auth);
    await runtime.node!.mine();
    const issued = (
      await json(
        `${runtime.url}/api/v1/issue`,
        'POST',
        { name: 'Bench', protocolId: 'KST-20', symbol: 'BEN', tokenSupply: 1_000_000, satsPerToken: 1 },
        { ...auth, walletID: w },
      )
    ).data;
    if (!issued.tokenId) throw new Error(`issue failed: ${JSON.stringify(issued)}`);
    const to = PrivateKey.fromRandom().toAddress();

    const owner = PrivateKey.fromRandom();
    const script = KST20.lock({ owner: pkh(owner), redemption: pkh(owner), symbol: 'BEN', data: [], splittable: true });
    const fundKey = PrivateKey.fromRandom();
    const fundScript = new P2PKH().lock(fundKey.toAddress()).toHex();
    const bare = async () => {
      const { tx } = await buildTokenSpend({
        template: KST20,
        kind: 'transfer',
        inputs: [{ txid: 'aa'.repeat(32), vout: 0, satoshis: 1_000_000, script, key: owner, parentHex: null }],
        tokenOutputs: [
          { owner: pkh(fundKey), satoshis: 1 },
          { owner: pkh(owner), satoshis: 999_999 },
        ],
        redeem: null,
        funding: { txid: 'bb'.repeat(32), vout: 0, satoshis: 50_000, script: fundScript, key: fundKey, changeOwner: pkh(fundKey) },
        policy: DEFAULT_FEE_POLICY,
      });
      verify(tx, [
        { script, satoshis: 1_000_000 },
        { script: fundScript, satoshis: 50_000 },
      ]);
    };
    const viaApi = async () => {
      const r = await json(
        `${runtime.url}/v1/send`,
        'POST',
        { dataArray: [{ to, amount: 1, tokenId: issued.tokenId }] },
        { ...auth, walletID: w },
      );
      if (!r.data.txIds?.length) throw new Error(`send failed: ${JSON.stringify(r.data)}`);
    };
    const { floor, measured } = await interleaved(
      ['bare KST-20 transfer: build + sign + Spend verify', bare],
      ['POST /v1/send of a token (reserve, build, sign, broadcast, book)', viaApi],
      N,
      3,
    );
    report({ name: 'token-transfer', bench: 'token transfers', floor, measured, goal: 3.0 });
    console.log(
      `  throughput ${(1000 / measured.perOpMs).toFixed(1)} transfers/s through the API, ${(1000 / floor.perOpMs).toFixed(1)} bare`,
    );
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Issues per second through POST /api/v1/issue (contract + issue transactions) against building, signing and verifying both bare. */
async function issueBench(): Promise<void> {
  const N = 20;
  const { runtime, dataDir, auth } = await setup();
  try {
    const w = (await json(`${runtime.url}/v1/createWallet`, 'POST', { walletTitle: 'Issuer' }, auth)).data.walletID;
    for (let i = 0; i < N + 5; i++) await json(`${runtime.url}/chain/faucet`, 'POST', { walletId: w, satoshis: 100_000 }, auth);
    await runtime.node!.mine();
    const key = PrivateKey.fromRandom();
    const p2pkh = new P2PKH().lock(key.toAddress()).toHex();
    const bare = async () => {
      const contractScript = `${p2pkh}6a${'4c'}${(60).toString(16)}${'7b'.repeat(60)}`;
      const contract = new Transaction(1, [], [], 0);
      contract.addInput({
        sourceTXID: 'cc'.repeat(32),
        sourceOutputIndex: 0,
        unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, 100_000, LockingScript.fromHex(p2pkh)),
        sequence: 0xffffffff,
      });
      contract.addOutput({ lockingScript: LockingScript.fromHex(contractScript), satoshis: 1000 });
      contract.addOutput({ lockingScript: LockingScript.fromHex(p2pkh), satoshis: 98_990 });
      await contract.sign();
      verify(contract, [{ script: p2pkh, satoshis: 100_000 }]);
      const issue = new Transaction(1, [], [], 0);
      issue.addInput({
        sourceTXID: contract.id('hex'),
        sourceOutputIndex: 0,
        unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, 1000, LockingScript.fromHex(contractScript)),
        sequence: 0xffffffff,
      });
      issue.addInput({
        sourceTXID: contract.id('hex'),
        sourceOutputIndex: 1,
        unlockingScriptTemplate: new P2PKH().unlock(key, 'all', false, 98_990, LockingScript.fromHex(p2pkh)),
        sequence: 0xffffffff,
      });
      issue.addOutput({
        lockingScript: LockingScript.fromHex(
          KST20.lock({ owner: pkh(key), redemption: pkh(key), symbol: 'ISS', data: [], splittable: true }),
        ),
        satoshis: 1000,
      });
      issue.addOutput({ lockingScript: LockingScript.fromHex(p2pkh), satoshis: 98_980 });
      await issue.sign();
      verify(issue, [
        { script: contractScript, satoshis: 1000 },
        { script: p2pkh, satoshis: 98_990 },
      ]);
    };
    let n = 0;
    const viaApi = async () => {
      const r = await json(
        `${runtime.url}/api/v1/issue`,
        'POST',
        { name: 'Bench', protocolId: 'KST-20', symbol: `B${n++}`, tokenSupply: 1000, satsPerToken: 1 },
        { ...auth, walletID: w },
      );
      if (!r.data.issueTxid) throw new Error(`issue failed: ${JSON.stringify(r.data)}`);
    };
    const { floor, measured } = await interleaved(
      ['bare contract + issue transactions: build + sign + verify', bare],
      ['POST /api/v1/issue (both transactions, broadcast, booked)', viaApi],
      N,
      1,
    );
    report({ name: 'token-issue', bench: 'token issues', floor, measured, goal: 3.0 });
    console.log(`  throughput ${(1000 / measured.perOpMs).toFixed(1)} issues/s through the API`);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Script sizes of the open template next to the STAS family's (reference §4.2, §4.5). */
async function sizes(): Promise<void> {
  const owner = PrivateKey.fromRandom();
  const lockOf = (t: typeof KST20) =>
    t.lock({ owner: pkh(owner), redemption: pkh(owner), symbol: 'TEST', data: [], splittable: t.fungible }).length / 2;
  const script = KST20.lock({ owner: pkh(owner), redemption: pkh(owner), symbol: 'TEST', data: [], splittable: true });
  const fundKey = PrivateKey.fromRandom();
  const { tx } = await buildTokenSpend({
    template: KST20,
    kind: 'transfer',
    inputs: [{ txid: 'aa'.repeat(32), vout: 0, satoshis: 1000, script, key: owner, parentHex: null }],
    tokenOutputs: [{ owner: pkh(fundKey), satoshis: 1000 }],
    redeem: null,
    funding: {
      txid: 'bb'.repeat(32),
      vout: 0,
      satoshis: 50_000,
      script: new P2PKH().lock(fundKey.toAddress()).toHex(),
      key: fundKey,
      changeOwner: pkh(fundKey),
    },
    policy: DEFAULT_FEE_POLICY,
  });
  const unlocking = (tx.inputs[0].unlockingScript as UnlockingScript).toBinary().length;
  console.log('\n[token script sizes, bytes]');
  console.log('  template            locking (with "TEST")   fixed part   transfer unlocking   whole transfer tx');
  console.log(
    `  KST-20 (ours)       ${String(lockOf(KST20)).padEnd(23)} ${String(KST20.codeBytes + 46).padEnd(12)} ${String(unlocking).padEnd(20)} ${tx.toBinary().length}`,
  );
  console.log(
    `  KST-789 (ours)      ${String(lockOf(KST789)).padEnd(23)} ${String(KST789.codeBytes + 46).padEnd(12)} ${'(as KST-20)'.padEnd(20)} —`,
  );
  console.log(`  STAS (legacy)       ${'1,438'.padEnd(23)} ${'1,431'.padEnd(12)} ${'—'.padEnd(20)} —`);
  console.log(`  STAS-20             ${'1,340'.padEnd(23)} ${'1,335'.padEnd(12)} ${'1,690–1,736'.padEnd(20)} about 3,300`);
  console.log(`  STAS-789            ${'1,224 (+ "SN:1")'.padEnd(23)} ${'1,214'.padEnd(12)} ${'—'.padEnd(20)} —`);
  console.log(
    `  ratio KST-20 / STAS-20 locking: ${(lockOf(KST20) / 1340).toFixed(2)}×; the open template checks conservation and merges in script without a licence.`,
  );
}

export const MEASURES = ['token-transfer', 'token-issue'];

export async function run(): Promise<void> {
  if (wanted('token-sizes')) await sizes();
  if (wanted('token-transfer')) await transferBench();
  if (wanted('token-issue')) await issueBench();
}

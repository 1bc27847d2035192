import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { P2PKH, PrivateKey, Transaction, UnlockingScript, LockingScript } from '@bsv/sdk';
import { LocalProvider } from '../../main/chain/local/local-provider.js';
import type { ChainProvider } from '../../main/chain/types.js';
import type { Credentials } from '../../main/engine/context.js';
import type { ValueMoveIntent } from '../../main/engine/value-move.js';
import type { SigningAccount } from '../../main/engine/payments/keyring.js';
import { changeAddressesOf, planAndReserve } from '../../main/engine/payments/plan.js';
import type { PaymentServices } from '../../main/engine/payments/services.js';
import { groupedCommits } from '../../main/store/grouped-commits.js';
import { moveValue, type PlannedReservation, type ValueMove } from '../../main/engine/payments/value-flow.js';
import { WalletSync } from '../../main/engine/sync/wallet-sync.js';
import { TemplateRegistry } from '../../main/engine/token-templates/registry.js';
import { TokenLedger } from '../../main/engine/tokens/ledger.js';
import { AddressBook } from '../../main/engine/wallets/address-book.js';
import { silentLogger } from '../../main/log/logger.js';
import { createRepos, type Repos } from '../../main/store/repos/index.js';
import type { TokenUtxo } from '../../main/store/repos/tokens.js';
import type { WalletRow } from '../../main/store/repos/wallets.js';
import { DomainError } from '../../shared/errors.js';
import { rejectsWith } from '../helpers/assert-domain-error.js';
import { meta, testEngine, withBroadcast, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

const ADDR = PrivateKey.fromRandom().toAddress();
const TO_ADDR = new P2PKH().lock(ADDR).toHex();
const POLICY = { satoshis: 1, bytes: 1000, dustLimit: 1 };

/** An engine with a signed-in admin, and `exec` to call its operations. */
async function adminEngine(t: TestEngine) {
  const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
  const admin: Credentials = { authToken: s.authToken, serviceId: s.serviceId };
  const exec = (op: string, input: object) => t.engine.execute(op as never, input, admin, meta).then((r) => r.output) as Promise<any>;
  const fundedWallet = async (title: string, amounts: number[]) => {
    const w = await exec('createWallet', { walletTitle: title });
    for (const a of amounts) await exec('faucet', { walletId: w.walletID, satoshis: a });
    return w.walletID as string;
  };
  return { exec, fundedWallet };
}

describe('value flow: every value move is authorised before it is signed', () => {
  let t: TestEngine;
  let moves: ValueMoveIntent[];
  let refuse: (m: ValueMoveIntent) => boolean;

  beforeEach(() => {
    moves = [];
    refuse = () => false;
    t = testEngine({
      authoriseValueMove: (m) => {
        moves.push(m);
        if (refuse(m)) throw new DomainError('FORBIDDEN', `the organisation's policy refuses this ${m.kind}`);
      },
    });
  });
  afterEach(() => t.engine.close());

  /** Every transaction recorded on the books passed the hook: as many stored attempts as authorised moves. */
  const storedAttempts = () => (t.store.db.prepare('SELECT count(*) AS n FROM payment_attempts').get() as { n: number }).n;

  it('pay, send (BSV, tokens), token issue (contract and issue: new, NFT, reminted), merge and redeem all pass through it', async () => {
    const { exec, fundedWallet } = await adminEngine(t);
    const issuerW = await fundedWallet('Treasury', [200_000, 100_000]);
    const otherW = await fundedWallet('Ops', [100_000]);

    // A payment, and BSV sent as a batch item (pay under the item's key).
    await exec('pay', { walletId: otherW, outputs: [{ script: TO_ADDR, satoshis: 3_000 }] });
    await exec('send', { walletId: otherW, dataArray: [{ to: ADDR, satoshis: 2_000 }] });
    assert.deepEqual(
      moves.map((m) => [m.kind, m.wallet.walletId, m.outputs, m.tokenId]),
      [
        ['payment', otherW, [{ script: TO_ADDR, satoshis: 3_000 }], null],
        ['payment', otherW, [{ script: TO_ADDR, satoshis: 2_000 }], null],
      ],
    );

    // A fungible issue: the contract transaction, then the issue transaction.
    moves.length = 0;
    const issued = await exec('issueToken', {
      walletId: issuerW,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 1000,
      satsPerToken: 2,
    });
    assert.deepEqual(
      moves.map((m) => [m.kind, m.wallet.walletId, m.tokenId]),
      [
        ['token-contract', issuerW, issued.tokenId],
        ['token-issue', issuerW, issued.tokenId],
      ],
    );
    assert.deepEqual(
      moves.map((m) => m.outputs.map((o) => o.satoshis)),
      [[2_000], [2_000]],
      'the contract holds the supply, the issue moves it into the token',
    );

    // A transfer, a send that merges two outputs, a redemption.
    moves.length = 0;
    const other = (await exec('walletAddress', { walletId: otherW })).address;
    await exec('send', { walletId: issuerW, dataArray: [{ to: other, amount: 300, tokenId: issued.tokenId }] });
    const { redeemAddr } = await exec('tokenDetails', { id: issued.tokenId });
    await exec('send', { walletId: otherW, dataArray: [{ to: redeemAddr, amount: 100, tokenId: issued.tokenId }] });
    await exec('send', { walletId: issuerW, dataArray: [{ to: other, amount: 750, tokenId: issued.tokenId }] });
    const redeemed = await exec('redeemToken', { walletId: issuerW, dataArray: [{ tokenId: issued.tokenId, amount: 50 }] });
    assert.deepEqual(redeemed.errors, []);
    assert.deepEqual(
      moves.map((m) => [m.kind, m.wallet.walletId, m.tokenId, m.outputs.map((o) => o.satoshis)]),
      [
        ['token-transfer', issuerW, issued.tokenId, [600, 1_400]],
        ['token-transfer', otherW, issued.tokenId, [200, 400]],
        ['token-merge', issuerW, issued.tokenId, [1_500, 100]],
        ['token-redeem', issuerW, issued.tokenId, [100]],
      ],
    );
    assert.equal(moves[3].outputs[0].script, new P2PKH().lock(redeemAddr).toHex(), 'a redemption pays the redemption address');

    // Reminting what was redeemed, and an NFT issue and send: each a contract and an issue, then a transfer.
    moves.length = 0;
    await exec('issueToken', {
      walletId: issuerW,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 50,
      satsPerToken: 2,
      reminting: true,
    });
    const nft = await exec('issueToken', {
      walletId: issuerW,
      name: 'Pictures',
      protocolId: 'KST-789',
      symbol: 'PIC',
      tokenSupply: 2,
      satsPerToken: 1,
    });
    await exec('send', { walletId: issuerW, dataArray: [{ to: other, sn: 1, tokenId: nft.tokenId }] });
    assert.deepEqual(
      moves.map((m) => [m.kind, m.tokenId, m.outputs.length]),
      [
        ['token-contract', issued.tokenId, 1],
        ['token-issue', issued.tokenId, 1],
        ['token-contract', nft.tokenId, 1],
        ['token-issue', nft.tokenId, 2],
        ['token-transfer', nft.tokenId, 1],
      ],
    );
    assert.equal(storedAttempts(), 2 + 2 + 4 + 5, 'no transaction was recorded without being authorised');
  });

  it('a refused move holds nothing afterwards: what it reserved is given back, and it moves once the policy allows it', async () => {
    const { exec, fundedWallet } = await adminEngine(t);
    const w = await fundedWallet('Ops', [100_000, 50_000]);
    const repos = createRepos(t.store.db);
    const row = repos.wallets.all().find((x) => x.walletId === w)!;
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 100,
      satsPerToken: 1,
    });
    const { redeemAddr } = await exec('tokenDetails', { id: issued.tokenId });
    await exec('send', { walletId: w, dataArray: [{ to: redeemAddr, amount: 30, tokenId: issued.tokenId }] });
    const calls: [ValueMoveIntent['kind'], () => Promise<unknown>][] = [
      ['payment', () => exec('pay', { walletId: w, outputs: [{ script: TO_ADDR, satoshis: 60_000 }], idempotencyKey: 'big-1' })],
      ['payment', () => exec('send', { walletId: w, dataArray: [{ to: ADDR, satoshis: 7_000 }] })],
      ['token-transfer', () => exec('send', { walletId: w, dataArray: [{ to: ADDR, amount: 10, tokenId: issued.tokenId }] })],
      ['token-merge', () => exec('send', { walletId: w, dataArray: [{ to: ADDR, amount: 75, tokenId: issued.tokenId }] })],
      ['token-redeem', () => exec('redeemToken', { walletId: w, dataArray: [{ tokenId: issued.tokenId, amount: 5 }] })],
      [
        'token-contract',
        () => exec('issueToken', { walletId: w, name: 'Silver', protocolId: 'KST-20', symbol: 'SLV', tokenSupply: 10, satsPerToken: 1 }),
      ],
      [
        'token-issue',
        () => exec('issueToken', { walletId: w, name: 'Copper', protocolId: 'KST-20', symbol: 'CU', tokenSupply: 10, satsPerToken: 1 }),
      ],
    ];
    for (const [kind, call] of calls) {
      const attempts = storedAttempts();
      const changeUsedUpTo = repos.addresses.highestUsed(row.id, 1);
      refuse = (m) => m.kind === kind;
      await rejectsWith(call(), 'FORBIDDEN', new RegExp(`refuses this ${kind}`));
      assert.equal(repos.walletUtxos.reservedTotal(row.id), 0, `${kind}: no coin is held`);
      assert.deepEqual(repos.tokens.reserved(), [], `${kind}: no token output is held`);
      // An issue's contract went out before its issue transaction was refused: only the contract is stored (and its change kept).
      const contractSent = kind === 'token-issue' ? 1 : 0;
      assert.equal(repos.addresses.highestUsed(row.id, 1), changeUsedUpTo + contractSent, `${kind}: its change address is free again`);
      assert.equal(storedAttempts(), attempts + contractSent, `${kind}: nothing was recorded`);
      refuse = () => false;
      await call(); // the same coins and tokens move once the policy allows it (and the refused call left its key free)
    }
  });
});

describe('value flow: what a failing step leaves behind', () => {
  let t: TestEngine;
  let repos: Repos;
  let wallet: WalletRow;
  let token: TokenUtxo;
  let broadcast: ChainProvider['broadcast'];
  let services: PaymentServices;
  let sync: WalletSync;

  beforeEach(async () => {
    t = testEngine({ broadcastWindowMs: 600_000 });
    const { exec, fundedWallet } = await adminEngine(t);
    const w = await fundedWallet('Ops', [40_000, 30_000]);
    const issued = await exec('issueToken', {
      walletId: w,
      name: 'Gold',
      protocolId: 'KST-20',
      symbol: 'GOLD',
      tokenSupply: 100,
      satsPerToken: 1,
    });
    await t.engine.reconcile();
    // The flow over the engine's own books, with a chain whose broadcast each test decides.
    repos = createRepos(t.store.db);
    wallet = repos.wallets.all().find((x) => x.walletId === w)!;
    token = repos.tokens.spendable(wallet.id, issued.tokenId)[0];
    broadcast = async () => ({ status: 'unknown', txid: null, message: 'no answer' });
    const now = () => t.clock.now;
    const chain = withBroadcast((hex) => broadcast(hex))(new LocalProvider(t.node, () => null));
    const addressBook = new AddressBook({ repos, now });
    const ledger = new TokenLedger({ repos, now } as never, new TemplateRegistry(() => repos.tokenTemplates.all()));
    sync = new WalletSync({ db: t.store.db, repos, now, logger: silentLogger(), addressBook }, chain, { sideBooks: [ledger] });
    services = {
      db: t.store.db,
      repos,
      now,
      logger: silentLogger(),
      addressBook,
      sync,
      chain,
      commits: groupedCommits(t.store.db),
      inFlight: new Set(),
      authoriseValueMove: () => {},
    } as unknown as PaymentServices;
  });
  afterEach(() => t.engine.close());

  /** A payment of 5,000 satoshis that also holds the token output, as a token spend does; `steps` replaces any step. */
  function move(steps: Partial<ValueMove<PlannedReservation>> = {}, holdsToken = true): ValueMove<PlannedReservation> {
    const outputs = [{ script: TO_ADDR, satoshis: 5_000 }];
    return {
      intent: { kind: 'payment', wallet, outputs, tokenId: null },
      account: {} as SigningAccount, // signs P2P metadata only: these moves are broadcast
      memo: 'test',
      counterparty: null,
      delivery: null,
      policy: POLICY,
      reserve: () => {
        const plan = planAndReserve(services, wallet, outputs, POLICY);
        if (holdsToken) assert.ok(repos.tokens.reserve([token], plan.attempt, t.clock.now));
        return { attempt: plan.attempt, changeAddresses: changeAddressesOf(plan, wallet), plan };
      },
      alsoGiveBack: ({ attempt }) => repos.tokens.release(attempt),
      build: async ({ plan }) => ({ tx: unsignedSpend(plan.coins, outputs), fee: plan.fee, feePaidBy: 'wallet', cancel: null }),
      ...steps,
    };
  }

  /** The move with its reservation kept for the test to look at. */
  function watched(m: ValueMove<PlannedReservation>): { move: ValueMove<PlannedReservation>; reserved: () => PlannedReservation } {
    let reserved: PlannedReservation | null = null;
    const reserve = m.reserve;
    return { move: { ...m, reserve: () => (reserved = reserve()) }, reserved: () => reserved! };
  }

  /** What the move holds: reserved coins and token outputs, change addresses in use, and whether an attempt was stored. */
  function held(reserved: PlannedReservation) {
    const change = reserved.changeAddresses[0];
    return {
      coins: repos.walletUtxos.reserved().filter((u) => u.reservedBy === reserved.attempt).length,
      tokens: repos.tokens.reserved().filter((u) => u.reservedBy === reserved.attempt).length,
      changeUsed: repos.addresses.at(wallet.id, 1, repos.addresses.owner(change.address)!.idx)!.used,
      recorded: repos.payments.attemptExists(reserved.attempt),
    };
  }

  /** Runs a move whose `build` or `alsoRecord` fails, and returns what it had reserved (checked as held while it built). */
  async function failing(steps: Partial<ValueMove<PlannedReservation>>, code: string): Promise<PlannedReservation> {
    const base = move(steps);
    const { move: m, reserved } = watched({
      ...base,
      build: async (r) => {
        assert.deepEqual(held(r), { coins: 1, tokens: 1, changeUsed: true, recorded: false }, 'held while it builds');
        return base.build(r);
      },
    });
    await rejectsWith(moveValue(services, m), code);
    return reserved();
  }

  it('build throws: its coins, token outputs and change address are given back', async () => {
    const reserved = await failing(
      { build: async () => Promise.reject(new DomainError('WALLET_LOCKED', 'the fee manager could not be opened')) },
      'WALLET_LOCKED',
    );
    assert.deepEqual(held(reserved), { coins: 0, tokens: 0, changeUsed: false, recorded: false });
  });

  it('recording throws: nothing of it is stored (not even its history row), and everything is given back', async () => {
    let txid = '';
    const reserved = await failing(
      {
        alsoRecord: (s) => {
          txid = s.result.txid;
          throw new DomainError('CONFLICT', 'the token was registered meanwhile');
        },
      },
      'CONFLICT',
    );
    assert.deepEqual(held(reserved), { coins: 0, tokens: 0, changeUsed: false, recorded: false });
    assert.match(txid, /^[0-9a-f]{64}$/);
    assert.deepEqual(repos.walletTxs.statesOf(txid), [], 'no history row');
  });

  it('the send fails after recording: everything stays reserved until the chain settles it', async () => {
    const first = watched(move());
    await rejectsWith(moveValue(services, first.move), 'CHAIN_UNAVAILABLE', /outcome is not known yet/);
    assert.deepEqual(held(first.reserved()), { coins: 1, tokens: 1, changeUsed: true, recorded: true });

    broadcast = async () => {
      throw new Error('connection reset');
    };
    const second = watched(move({}, false));
    await assert.rejects(moveValue(services, second.move), /connection reset/);
    assert.deepEqual(held(second.reserved()), { coins: 1, tokens: 0, changeUsed: true, recorded: true });
    assert.notDeepEqual(second.reserved().plan.coins, first.reserved().plan.coins, 'no coin is reserved twice');
    assert.deepEqual(held(first.reserved()), { coins: 1, tokens: 1, changeUsed: true, recorded: true });

    // Only settlement frees them: here the chain's refusal of the recorded transaction.
    sync.revertTransaction(repos.payments.attempt(first.reserved().attempt)!.txid, 'refused for the test');
    assert.deepEqual(held(first.reserved()), { coins: 0, tokens: 0, changeUsed: false, recorded: true });
  });

  it('a refused move reserves nothing and is never built (the check runs before the reservation, in its transaction)', async () => {
    const m = watched(move({ build: () => assert.fail('built after the policy refused') }));
    services.authoriseValueMove = () => {
      throw new DomainError('FORBIDDEN', 'over the limit');
    };
    await rejectsWith(moveValue(services, m.move), 'FORBIDDEN', /over the limit/);
    assert.equal(m.reserved(), null, 'never reserved');
    assert.deepEqual(repos.walletUtxos.reserved(), []);
    assert.deepEqual(repos.tokens.reserved(), []);
  });

  it('a check that holds something is given back with the reservation when the move fails before it is recorded', async () => {
    let released = 0;
    services.authoriseValueMove = () => ({ release: () => void released++ });
    await failing({ build: () => Promise.reject(new DomainError('BUSY', 'signing failed')) }, 'BUSY');
    assert.equal(released, 1);
  });
});

describe('value flow: the only path to recording and sending', () => {
  it('no engine module but value-flow.ts records or sends a signed transaction, or reserves coins for one', () => {
    const root = fileURLToPath(new URL('../../main/engine/', import.meta.url));
    const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !/(^|\/)payments\/(value-flow|submit|plan)\.ts$/.test(f))
      .filter((f) =>
        /\b(recordSubmission|sendSubmission|planAndReserve|buildTransaction)\(/.test(readFileSync(path.join(root, f), 'utf8')),
      );
    assert.deepEqual(offenders, []);
  });
});

/** A transaction spending `coins` to `outputs`, unsigned: the flow records and sends it without checking scripts. */
function unsignedSpend(
  coins: readonly { txid: string; vout: number }[],
  outputs: readonly { script: string; satoshis: number }[],
): Transaction {
  const tx = new Transaction();
  for (const c of coins)
    tx.addInput({ sourceTXID: c.txid, sourceOutputIndex: c.vout, sequence: 0xffffffff, unlockingScript: new UnlockingScript() });
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  return tx;
}

import { randomBytes } from 'node:crypto';
import type { Beef } from '@bsv/sdk';
import { requiredFee } from '../../../chain/policy.js';
import { p2pkhAddressOf } from '../../../chain/script.js';
import type { FeePolicy } from '../../../chain/types.js';
import { outputBytes, P2PKH_INPUT_BYTES, P2PKH_OUTPUT_BYTES, TX_OVERHEAD_BYTES } from '../../payments/coin-select.js';
import { currentFeePolicy } from '../../payments/plan.js';
import { recordValueMove, type Reservation, type ValueMove } from '../../payments/value-flow.js';
import type { AppCall, SpendRequest } from '../call.js';
import type { Brc100Services } from '../services.js';
import { tokenIdOf } from '../../token-templates/template.js';
import { invalidOperation, invalidParameter } from '../werr.js';
import { createArgs, type CreateArgs } from './action-args.js';
import { assemble, signFunding, verifyAppInputs, type Draft } from './assemble.js';
import { atomicBeef, attachSources, verifiedInputBeef } from './beef.js';
import { chooseFunding, fundAction, inputBytes, type AppInputSource, type Funding, type FundingCoin } from './funding.js';
import { keepHold } from './holds.js';
import { resolveInputs } from './inputs.js';
import { insertAction, recordSigned } from './record.js';
import { asWalletErr, inAllowingUserScope } from './scope.js';
import { releaseUnsigned } from './release.js';
import { endChangeClaims, finish, noSendChangeCoins, noSendSources, reserveNoSendChange, sendWith } from './send.js';

/** A reference names an action to signAction/abortAction: random, base64 as the reference wallet's. */
export const newReference = () => randomBytes(12).toString('base64');

/** What the call scope keeps of the call (a request awaiting approval shows it): no scripts or BEEF, which may be large. */
const scopeInput = (a: CreateArgs) => ({
  description: a.description,
  memo: a.description,
  outputs: a.outputs.length,
  inputs: a.inputs.length,
});

/**
 * The assets other than satoshis an action takes from the wallet's baskets: a token output (one the token
 * templates recognise) as `token:<id>` in its satoshis, any other 1-satoshi output as an `ordinal`.
 */
export function assetsOf(services: Pick<Brc100Services, 'tokenTemplates'>, sources: readonly AppInputSource[]): SpendRequest['assets'] {
  const byAsset = new Map<string, number>();
  for (const i of sources) {
    if (!i.basket) continue;
    const token = services.tokenTemplates.recognise(i.script);
    const asset = token ? `token:${tokenIdOf(token.token)}` : i.satoshis === 1 ? 'ordinal' : null;
    if (asset) byAsset.set(asset, (byAsset.get(asset) ?? 0) + (token ? i.satoshis : 1));
  }
  return [...byAsset].map(([asset, amount]) => ({ asset, amount }));
}

/**
 * Whether an output's satoshis stay with the wallet: an output outside any basket paying one of this wallet's
 * own addresses, which the books take as the wallet's coin. (A basket output at an address of the organisation
 * is refused: basketOutputsAtWalletAddresses.)
 */
function staysInWallet(call: AppCall, o: { lockingScript: string; basket?: string }): boolean {
  if (o.basket) return false;
  const address = p2pkhAddressOf(o.lockingScript);
  return address !== null && call.services.repos.addresses.owner(address)?.walletRow === call.wallet.id;
}

/**
 * Refuses a basket output paying an address of one of the organisation's wallets. The books never take a
 * basket output as a coin, and the app cannot sign for a wallet's address: the satoshis would be frozen, and
 * taken from the wallet's coins as if they had stayed (the same rule as internalizeAction's basket insertion).
 */
function refuseBasketOutputsAtWalletAddresses(call: AppCall, a: CreateArgs): void {
  a.outputs.forEach((o, k) => {
    const address = o.basket ? p2pkhAddressOf(o.lockingScript) : null;
    if (address && call.services.repos.addresses.owner(address))
      throw invalidParameter(
        'outputs',
        `basket outputs at the app's own scripts: output ${k} pays an address of a Keystead wallet, which is a wallet coin, not an app's`,
      );
  });
}

/**
 * What leaves the wallet, asked of the app's spending authorisation before anything is reserved: the net
 * satoshis (what is paid out of the wallet plus an estimate of the fee, less what others' inputs bring), and
 * by asset (assetsOf), counted even when no satoshi leaves.
 */
function spendRequest(call: AppCall, a: CreateArgs, sources: readonly AppInputSource[], policy: FeePolicy): SpendRequest {
  const out = a.outputs.filter((o) => !staysInWallet(call, o)).reduce((s, o) => s + o.satoshis, 0);
  const external = sources.filter((i) => !i.basket).reduce((s, i) => s + i.satoshis, 0);
  const bytes =
    TX_OVERHEAD_BYTES +
    6 +
    a.outputs.reduce((s, o) => s + outputBytes(o.lockingScript), 0) +
    sources.reduce((s, i) => s + inputBytes(i.unlockingScriptLength), 0) +
    P2PKH_INPUT_BYTES +
    P2PKH_OUTPUT_BYTES;
  return {
    satoshis: Math.max(0, out - external) + requiredFee(bytes, policy),
    assets: assetsOf(call.services, sources),
    description: a.description,
  };
}

/** Everything one createAction works with once its arguments and inputs are checked. */
interface Prepared {
  a: CreateArgs;
  sources: AppInputSource[];
  beef: Beef | undefined;
  preset: FundingCoin[];
  policy: FeePolicy;
  reference: string;
}

export async function createAction(call: AppCall): Promise<unknown> {
  const a = createArgs(call.args);
  const { services } = call;
  if (!a.inputs.length && !a.outputs.length) {
    if (a.options.sendWith.length) return { sendWithResults: await sendWith(call, a.options.sendWith) };
    throw invalidParameter('outputs', 'at least one output or input (remixing change alone is not supported)');
  }
  refuseBasketOutputsAtWalletAddresses(call, a);
  const beef = a.inputBEEF ? await verifiedInputBeef(services.chain, a.inputBEEF) : undefined;
  const sources = resolveInputs(call, a.inputs, beef);
  const preset = noSendChangeCoins(call, a.options.noSendChange);
  for (const b of new Set(a.outputs.flatMap((o) => (o.basket ? [o.basket] : [])))) await call.permit.basket(b, 'insert');
  for (const b of new Set(sources.flatMap((i) => (i.basket ? [i.basket] : [])))) await call.permit.basket(b, 'spend');
  let policy: FeePolicy;
  try {
    policy = await currentFeePolicy(services);
  } catch (err) {
    throw asWalletErr(err);
  }
  const p: Prepared = { a, sources, beef, preset, policy, reference: newReference() };
  const hold = await call.permit.spend(spendRequest(call, a, sources, policy));
  if (a.isSignAction) {
    try {
      const answer = await startSignable(call, p);
      keepHold(services, call.wallet.id, p.reference, hold);
      return answer;
    } catch (err) {
      hold.release();
      throw asWalletErr(err);
    }
  }
  return createSigned(call, p, () => hold.release());
}

/** Reserves the app's basket inputs (under the action's reference) and the wallet's funding coins. Inside a database transaction. */
function reserveAll(call: AppCall, p: Prepared): Reservation & { funding: Funding } {
  const { repos } = call.services;
  const basketed = p.sources.filter((i) => i.basket);
  if (basketed.length && !repos.appOutputs.reserve(call.wallet.id, basketed, p.reference))
    throw invalidOperation('A basket output this action spends was taken by another action at the same moment. Try again.');
  const funding = fundAction(call.services, call.wallet, p.sources, p.a.outputs, p.policy, p.preset);
  // Last: nothing after it in this function throws, so a refusal above never leaves a claim behind.
  reserveNoSendChange(call, p.preset, p.reference);
  return {
    attempt: funding.attempt,
    changeAddresses: funding.change ? [{ walletRow: call.wallet.id, address: funding.change.address }] : [],
    funding,
  };
}

/** The outputs going into baskets, with the vouts they got. */
const basketOutputs = (a: CreateArgs, draft: Draft) =>
  a.outputs.map((o, k) => ({
    basket: o.basket ?? null,
    tags: o.tags,
    description: o.outputDescription,
    customInstructions: o.customInstructions ?? null,
    vout: draft.vouts[k],
  }));

/**
 * Every input's script is known: the action is one value move (value-flow.ts) — the policy's check and the
 * reservation together, then assembled, the app's scripts checked, the wallet's inputs signed, recorded with
 * its basket outputs, and sent (or kept, with noSend).
 */
async function createSigned(call: AppCall, p: Prepared, releaseHold: () => void): Promise<unknown> {
  const { services } = call;
  const { a } = p;
  const account = await services.keyring.open(call.wallet);
  let draft: Draft | null = null;
  let funding: Funding | null = null;
  let actionId = 0;
  const move: ValueMove<Reservation & { funding: Funding }> = {
    intent: {
      kind: 'app-action',
      wallet: call.wallet,
      outputs: a.outputs.map((o) => ({ script: o.lockingScript, satoshis: o.satoshis })),
      tokenId: null,
    },
    account,
    memo: a.description,
    counterparty: null,
    delivery: null,
    policy: p.policy,
    // The policy counts the action's fee with its outputs (an app's data write can cost far more than it pays).
    estimateFee: () => chooseFunding(services, call.wallet, p.sources, a.outputs, p.policy, p.preset).fee,
    reserve: () => reserveAll(call, p),
    alsoGiveBack: () => void services.repos.appOutputs.release(p.reference),
    build: async (r) => {
      funding = r.funding;
      draft = assemble({ ...a, randomizeOutputs: a.options.randomizeOutputs }, p.sources, a.outputs, r.funding);
      await attachSources(services.chain, draft.tx, p.beef, noSendSources(call));
      verifyAppInputs(draft.tx, p.sources, 'inputs');
      await signFunding(draft.tx, p.sources.length, r.funding, account);
      return { tx: draft.tx, fee: r.funding.fee, feePaidBy: 'wallet', cancel: null };
    },
    alsoRecord: (s) => {
      actionId = insertAction(call, {
        a,
        sources: p.sources,
        draft: draft!,
        funding: funding!,
        reference: p.reference,
        status: a.options.noSend ? 'nosend' : 'unprocessed',
        signed: s.tx,
      });
      recordSigned(call, actionId, p.reference, s.tx, basketOutputs(a, draft!));
    },
  };
  let recorded;
  try {
    recorded = await inAllowingUserScope(
      call,
      'brc100.createAction',
      scopeInput(a),
      () => recordValueMove(services, move),
      move.intent.outputs,
    );
  } catch (err) {
    endChangeClaims(call, p.reference);
    releaseHold();
    call.audit('createAction', (asWalletErr(err) as { name?: string }).name ?? 'ERROR', a.description);
    throw asWalletErr(err);
  }
  // Recorded: its transaction on the books now shows the noSendChange it spends.
  endChangeClaims(call, p.reference);
  return finish(call, a.options, actionId, recorded, (draft as Draft | null)?.changeVout ?? null);
}

/**
 * An input's script is to come (or signAndProcess is false): the coins and basket inputs are reserved and
 * the action recorded `unsigned` with its transaction, in one database transaction; the app gets it as
 * Atomic BEEF with the reference signAction and abortAction name. Nothing is signed until signAction, where
 * the organisation's policy judges it.
 */
async function startSignable(call: AppCall, p: Prepared): Promise<unknown> {
  const { services } = call;
  const { db, repos } = services;
  // Recorded with its reservation (the draft shows the noSendChange it spends), so its claims end either way.
  let draft: Draft;
  try {
    draft = db.transaction(() => {
      const r = reserveAll(call, p);
      const d = assemble({ ...p.a, randomizeOutputs: p.a.options.randomizeOutputs }, p.sources, p.a.outputs, r.funding);
      insertAction(call, {
        a: p.a,
        sources: p.sources,
        draft: d,
        funding: r.funding,
        reference: p.reference,
        status: 'unsigned',
        signed: null,
      });
      return d;
    })();
  } finally {
    endChangeClaims(call, p.reference);
  }
  try {
    await attachSources(services.chain, draft.tx, p.beef, noSendSources(call));
    // Scripts the app did give must already unlock (they commit to the final outputs).
    verifyAppInputs(
      draft.tx,
      p.sources.filter((i) => i.unlockingScript !== undefined),
      'inputs',
    );
    const tx = atomicBeef(draft.tx);
    call.audit('createAction', null, `unsigned, reference ${p.reference}`);
    return { signableTransaction: { tx, reference: p.reference } };
  } catch (err) {
    const action = repos.appActions.byReference(call.wallet.id, p.reference);
    if (action) releaseUnsigned(call, action.id, action.attempt!, p.reference, draft.tx);
    throw err;
  }
}

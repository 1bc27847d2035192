import {
  Beef,
  MerklePath,
  Transaction,
  type ActionStatus,
  type WalletAction,
  type WalletActionInput,
  type WalletActionOutput,
  type WalletOutput,
} from '@bsv/sdk';
import type { AppActionIo, AppActionRow } from '../../../store/repos/app-output-queries.js';
import { beefOf } from '../../paymail/beef.js';
import type { AppCall } from '../call.js';
import { invalidParameter, WalletErr } from '../werr.js';
import { appBasket } from './baskets.js';
import { listActionsArgs, listOutputsArgs, relinquishOutputArgs } from './list-args.js';

/** The SDK's ActionStatus of a stored one ('aborted' is the reference's failed: it never reached the chain). */
const statusOf = (s: AppActionRow['status']): ActionStatus => (s === 'aborted' ? 'failed' : s);

const tagsOf = (json: string | null): string[] => {
  if (!json) return [];
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * listActions: the actions of the wallet that answers the app, oldest first, paged (the reference lists
 * the wallet's actions, whichever app made them; Keystead does the same and records each one's originator,
 * so an app sharing a wallet with others sees theirs too: give an app its own wallet to keep them apart).
 */
export async function listActions(call: AppCall): Promise<{ totalActions: number; actions: WalletAction[] }> {
  const a = listActionsArgs(call.args);
  const q = call.services.repos.appOutputQueries;
  const { total, actions } = q.listActions(call.wallet.id, { values: a.labels, mode: a.labelQueryMode }, a.limit, a.offset);
  await settleUnproven(call, actions);
  const ids = actions.map((x) => x.id);
  const labels = a.includeLabels ? q.labelsOf(ids) : null;
  const io = a.includeInputs || a.includeOutputs ? q.ioOf(ids) : [];
  const byAction = new Map<number, AppActionIo[]>();
  for (const r of io) byAction.set(r.actionId, [...(byAction.get(r.actionId) ?? []), r]);
  return {
    totalActions: total,
    actions: actions.map((x) => {
      const rows = byAction.get(x.id) ?? [];
      const action: WalletAction = {
        txid: x.txid ?? '',
        satoshis: x.satoshis,
        status: statusOf(x.status),
        isOutgoing: x.isOutgoing,
        description: x.description,
        version: x.version,
        lockTime: x.lockTime,
      };
      if (labels) action.labels = labels.get(x.id) ?? [];
      if (a.includeInputs) action.inputs = rows.filter((r) => r.kind === 'input').map((r) => inputOf(r, a));
      if (a.includeOutputs)
        action.outputs = rows.filter((r) => r.kind === 'output').map((r) => outputOf(call, x, r, a.includeOutputLockingScripts));
      return action;
    }),
  };
}

/** Unproven actions asked of the chain at most per listActions call (the rest are asked on a later call). */
const SETTLE_PER_CALL = 25;

/** An unproven action whose transaction the chain has mined since is completed (recorded, so it is asked once). */
async function settleUnproven(call: AppCall, actions: AppActionRow[]): Promise<void> {
  const open = actions.filter((x) => x.status === 'unproven' && x.txid).slice(0, SETTLE_PER_CALL);
  await Promise.all(
    open.map(async (x) => {
      const status = await call.services.chain.getTxStatus(x.txid!).catch(() => null);
      if (status?.state !== 'mined' || status.blockHeight === null) return;
      // Completed only with a merkle path to that block (proven-height.ts): ARC's "mined" alone proves nothing.
      const proved = await call.services.sync.proveHeight(x.txid!, status.blockHeight, status.merklePath).catch(() => null);
      if (proved === null) return;
      call.services.repos.appOutputQueries.markCompleted(x.id, call.services.now());
      x.status = 'completed';
    }),
  );
}

function inputOf(
  r: AppActionIo,
  a: { includeInputSourceLockingScripts: boolean; includeInputUnlockingScripts: boolean },
): WalletActionInput {
  const input: WalletActionInput = {
    sourceOutpoint: r.outpoint ?? '',
    sourceSatoshis: r.satoshis,
    inputDescription: r.description ?? '',
    sequenceNumber: r.sequence ?? 0xffffffff,
  };
  if (a.includeInputSourceLockingScripts && r.script !== null) input.sourceLockingScript = r.script;
  if (a.includeInputUnlockingScripts && r.unlockingScript !== null) input.unlockingScript = r.unlockingScript;
  return input;
}

/** An output of an action: spendable while it is still the wallet's or the basket's, unspent. */
function outputOf(call: AppCall, x: AppActionRow, r: AppActionIo, withScript: boolean): WalletActionOutput {
  const { repos } = call.services;
  let spendable = false;
  if (x.txid) {
    if (r.basket) spendable = repos.appOutputQueries.outputAt(call.wallet.id, x.txid, r.idx)?.status === 'available';
    else {
      const coin = repos.walletUtxos.get(x.txid, r.idx);
      spendable = coin?.walletRow === call.wallet.id && coin.status === 'available';
    }
  }
  const out: WalletActionOutput = {
    satoshis: r.satoshis,
    spendable,
    tags: tagsOf(r.tags),
    outputIndex: r.idx,
    outputDescription: r.description ?? '',
    // Not in a basket: the wallet's own coin (the reference's "default" basket).
    basket: r.basket ?? 'default',
  };
  if (withScript && r.script !== null) out.lockingScript = r.script;
  if (r.customInstructions !== null) out.customInstructions = r.customInstructions;
  return out;
}

/**
 * listOutputs: the outputs of one of the app's baskets that are still there (not spent, not relinquished),
 * oldest first (a negative offset counts from the newest), with the `include` options. The wallet's own
 * coins (the reference's "default" basket) are never listed to apps (baskets.ts).
 */
export async function listOutputs(call: AppCall): Promise<{ totalOutputs: number; BEEF?: number[]; outputs: WalletOutput[] }> {
  const a = listOutputsArgs(call.args);
  await call.permit.basket(appBasket(a.basket), 'list');
  const q = call.services.repos.appOutputQueries;
  const { total, outputs } = q.listOutputs(call.wallet.id, a.basket, { values: a.tags, mode: a.tagQueryMode }, a.limit, a.offset);
  const tags = a.includeTags ? q.tagsOf(outputs.map((o) => o.id)) : null;
  const actionIds = [...new Set(outputs.flatMap((o) => (o.actionId === null ? [] : [o.actionId])))];
  const labels = a.includeLabels ? q.labelsOf(actionIds) : null;
  const result: { totalOutputs: number; BEEF?: number[]; outputs: WalletOutput[] } = {
    totalOutputs: total,
    outputs: outputs.map((o) => {
      const w: WalletOutput = { satoshis: o.satoshis, spendable: o.status === 'available', outpoint: `${o.txid}.${o.vout}` };
      if (a.includeLockingScripts) w.lockingScript = o.script;
      if (a.includeCustomInstructions && o.customInstructions !== null) w.customInstructions = o.customInstructions;
      if (tags) w.tags = tags.get(o.id) ?? [];
      if (labels) w.labels = o.actionId === null ? [] : (labels.get(o.actionId) ?? []);
      return w;
    }),
  };
  if (a.includeTransactions) result.BEEF = await beefOfAll(call, [...new Set(outputs.map((o) => o.txid))]);
  return result;
}

/** One BEEF holding the transactions (each with its merkle path once mined, else with its ancestors back to proven ones). */
async function beefOfAll(call: AppCall, txids: readonly string[]): Promise<number[]> {
  const { chain } = call.services;
  const beef = new Beef();
  for (const txid of txids) {
    const [hex, status] = await Promise.all([chain.getTransactionHex(txid), chain.getTxStatus(txid)]).catch((err: Error) => {
      throw new WalletErr('WERR_INTERNAL', 1, `The chain did not answer: ${err.message}`);
    });
    if (!hex) throw new WalletErr('WERR_INTERNAL', 1, `The chain does not have ${txid}, an output's transaction.`);
    const tx = Transaction.fromHex(hex);
    if (status.merklePath) {
      tx.merklePath = MerklePath.fromHex(status.merklePath);
      beef.mergeTransaction(tx);
      continue;
    }
    const withAncestors = await beefOf(chain, tx);
    if (!withAncestors) throw new WalletErr('WERR_INTERNAL', 1, `The ancestors of ${txid} could not be had from the chain.`);
    beef.mergeBeef(Beef.fromString(withAncestors, 'hex'));
  }
  return beef.toBinary();
}

/** relinquishOutput: the output leaves its basket (status relinquished); nothing is spent, the app no longer sees it. */
export async function relinquishOutput(call: AppCall): Promise<{ relinquished: true }> {
  const a = relinquishOutputArgs(call.args);
  await call.permit.basket(appBasket(a.basket), 'relinquish');
  if (!call.services.repos.appOutputQueries.relinquish(call.wallet.id, a.basket, a.txid, a.vout))
    throw invalidParameter(
      'output',
      `an output of the basket ${a.basket}; ${a.txid}.${a.vout} is not one (or an action in progress holds it)`,
    );
  return { relinquished: true };
}

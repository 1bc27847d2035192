import type { Transaction } from '@bsv/sdk';
import type { AppActionIo, AppActionStatus } from '../../../store/repos/app-actions.js';
import type { AppCall } from '../call.js';
import type { CreateArgs } from './action-args.js';
import type { Draft } from './assemble.js';
import type { AppInputSource, Funding } from './funding.js';

/**
 * The action on the books: app_actions with its labels and its inputs and outputs as the app described them,
 * and the outputs it puts in baskets (app_outputs, never utxos). Every function here runs inside the
 * database transaction that reserves or records the action.
 */

/** Net change of the wallet's balance: what comes back to it (change, basket outputs) less what it spends. */
export function netSatoshis(a: CreateArgs, sources: readonly AppInputSource[], funding: Funding): number {
  const back = (funding.change?.satoshis ?? 0) + a.outputs.filter((o) => o.basket).reduce((s, o) => s + o.satoshis, 0);
  const spent = funding.coins.reduce((s, c) => s + c.satoshis, 0) + sources.filter((i) => i.basket).reduce((s, i) => s + i.satoshis, 0);
  return back - spent;
}

function ioOf(a: CreateArgs, sources: readonly AppInputSource[], draft: Draft): AppActionIo[] {
  const inputs: AppActionIo[] = sources.map((i) => ({
    kind: 'input',
    idx: i.vin,
    outpoint: `${i.txid}.${i.vout}`,
    satoshis: i.satoshis,
    script: i.script,
    unlockingScript: i.unlockingScript ?? null,
    description: i.description,
    basket: i.basket,
    tags: null,
    customInstructions: null,
    sequence: i.sequence,
  }));
  const outputs: AppActionIo[] = a.outputs.map((o, k) => ({
    kind: 'output',
    idx: draft.vouts[k],
    outpoint: null,
    satoshis: o.satoshis,
    script: o.lockingScript,
    unlockingScript: null,
    description: o.outputDescription,
    basket: o.basket ?? null,
    tags: o.tags,
    customInstructions: o.customInstructions ?? null,
    sequence: null,
  }));
  return [...inputs, ...outputs];
}

export interface NewAction {
  a: CreateArgs;
  sources: readonly AppInputSource[];
  draft: Draft;
  funding: Funding;
  reference: string;
  status: AppActionStatus;
  /** The signed transaction, or null while it awaits signAction. */
  signed: Transaction | null;
}

export function insertAction(call: AppCall, n: NewAction): number {
  const { repos, now } = call.services;
  const tx = n.signed ?? n.draft.tx;
  return repos.appActions.insert(
    {
      walletRow: call.wallet.id,
      originator: call.app.originator,
      reference: n.reference,
      txid: n.signed ? n.signed.id('hex') : null,
      status: n.status,
      isOutgoing: true,
      satoshis: netSatoshis(n.a, n.sources, n.funding),
      description: n.a.description,
      version: n.a.version,
      lockTime: n.a.lockTime,
      rawTx: Buffer.from(tx.toBinary()),
      inputBeef: n.a.inputBEEF ? Buffer.from(n.a.inputBEEF) : null,
      attempt: n.funding.attempt,
      at: now(),
    },
    n.a.labels,
    ioOf(n.a, n.sources, n.draft),
  );
}

/**
 * What signing settles on the books: the basket inputs are spent by the transaction, and the outputs for
 * baskets are recorded (with tags, the action and the app), before it is sent.
 */
export function recordSigned(
  call: AppCall,
  actionId: number,
  reference: string,
  tx: Transaction,
  outputs: readonly {
    basket: string | null;
    tags: readonly string[] | null;
    description: string | null;
    customInstructions: string | null;
    vout: number;
  }[],
): void {
  const { repos, now } = call.services;
  const txid = tx.id('hex');
  repos.appOutputs.spend(reference, txid);
  for (const o of outputs) {
    if (!o.basket) continue;
    const out = tx.outputs[o.vout];
    repos.appOutputs.insert(
      {
        walletRow: call.wallet.id,
        basket: o.basket,
        txid,
        vout: o.vout,
        satoshis: out.satoshis ?? 0,
        script: out.lockingScript.toHex(),
        description: o.description,
        customInstructions: o.customInstructions,
        actionId,
        originator: call.app.originator,
        at: now(),
      },
      o.tags ?? [],
    );
  }
}

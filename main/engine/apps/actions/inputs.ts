import type { Beef } from '@bsv/sdk';
import type { AppCall } from '../call.js';
import { invalidParameter } from '../werr.js';
import type { ActionInput } from './action-args.js';
import type { AppInputSource } from './funding.js';

/**
 * Where each input the app names comes from: one of this wallet's basket outputs (the app's own, which only an
 * action spends), or an output of a transaction in its SPV-checked inputBEEF. The wallet's own coins, and the
 * token and 1Sat outputs the books hold, are never an app's input: coins fund actions, signed by the wallet
 * alone, and the others move only through Keystead's operations.
 */
export function resolveInputs(call: AppCall, inputs: readonly ActionInput[], beef: Beef | undefined): AppInputSource[] {
  const { repos } = call.services;
  return inputs.map((i, vin) => {
    const at = `${i.txid}.${i.vout}`;
    const base = {
      vin,
      txid: i.txid,
      vout: i.vout,
      unlockingScript: i.unlockingScript,
      unlockingScriptLength: i.unlockingScriptLength,
      sequence: i.sequenceNumber,
      description: i.inputDescription,
    };
    if (repos.walletUtxos.get(i.txid, i.vout))
      throw invalidParameter('inputs', `outputs the app may spend: ${at} is one of the wallet's own coins, which only the wallet spends`);
    // A token or 1Sat output in the organisation's books (a token offer's output among them: anyone may complete
    // an offer's signature) is the organisation's, moved only by its own operations and policy.
    if (repos.tokens.utxo(i.txid, i.vout) || repos.ordinals.get(i.txid, i.vout))
      throw invalidParameter(
        'inputs',
        `outputs the app may spend: ${at} is a token or 1Sat output in the organisation's books, which only Keystead's own operations move`,
      );
    const basketed = repos.appOutputs.get(call.wallet.id, i.txid, i.vout);
    if (basketed) {
      if (basketed.status !== 'available')
        throw invalidParameter('inputs', `spendable outputs: ${at} in basket ${basketed.basket} is ${basketed.status}`);
      return { ...base, satoshis: basketed.satoshis, script: basketed.script, basket: basketed.basket };
    }
    const source = beef?.findTxid(i.txid)?.tx;
    const out = source?.outputs[i.vout];
    if (!out)
      throw invalidParameter(
        'inputBEEF',
        `a BEEF carrying the transaction of every input that is not in one of the wallet's baskets (${at})`,
      );
    return { ...base, satoshis: out.satoshis ?? 0, script: out.lockingScript.toHex(), basket: null };
  });
}

import { Hash, Utils } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { PayOutput } from '../../../shared/operations.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { SigningAccount } from '../payments/keyring.js';
import { recordSubmission, sendSubmission, type Submission } from '../payments/submit.js';
import { buildTokenSpend, type SpentToken } from './build.js';
import { estimateTokenTxBytes, reserveFunding, type FundingChoice } from './funding.js';
import type { TokenServices } from './services.js';
import type { TokenTemplate } from './templates/template.js';

export interface TokenSpendRequest {
  wallet: WalletRow;
  account: SigningAccount;
  template: TokenTemplate;
  kind: 'transfer' | 'merge' | 'redeem';
  inputs: TokenUtxo[];
  tokenOutputs: { owner: string; satoshis: number }[];
  redeem: { owner: string; satoshis: number } | null;
  delivery: Submission['delivery'];
  memo: string | null;
  counterparty: string | null;
  policy: FeePolicy;
  /** An idempotency key already claimed for this spend (a batch item's): linked to it when it is stored. */
  key?: { uid: string; key: string } | null;
}

export const pkhOfPubKey = (account: SigningAccount, chain: number, idx: number) => Utils.toHex(Hash.hash160(account.key(chain, idx).toPublicKey().encode(true) as number[]));

/**
 * Spends token outputs of a wallet: reserves them and one funding coin (the fee manager's when it can pay),
 * builds and signs the token transaction, keeps it, then sends it on the payments' money path (P2P to a
 * paymail host, or broadcast) and follows it until the chain decides. Nothing is booked before the chain
 * has it; a refusal gives the token outputs and the coin back.
 */
export async function submitTokenSpend(services: TokenServices, r: TokenSpendRequest): Promise<PayOutput> {
  const { db, repos } = services;
  // The outputs are moved with the release of the template that wrote them (an earlier one keeps its code).
  const template = services.tokenTemplates.forOutputs(r.template.protocol, r.inputs.map((u) => u.script));
  if (!template) throw new DomainError('CONFLICT', 'These token outputs were written by different releases of the token template, which cannot be spent together; send them in separate transfers.');
  const attempt = randomUUID();
  const scriptBytes = r.inputs[0].script.length / 2;
  const parents = r.kind === 'merge' ? await Promise.all(r.inputs.map((u) => parentOf(services, u))) : r.inputs.map(() => null);
  const estimate = estimateTokenTxBytes(scriptBytes, r.inputs.length, r.tokenOutputs.length + (r.redeem ? 1 : 0), parents.reduce((n, p) => n + (p?.length ?? 0) / 2, 0));
  const funding = db.transaction((): FundingChoice => {
    if (!repos.tokens.reserve(r.inputs, attempt, services.now())) throw new DomainError('CONFLICT', 'These tokens are held by another transfer in progress (or not yet proven). Try again once it completes.');
    return reserveFunding(services, r.wallet, requiredFee(estimate, r.policy), attempt, r.policy);
  })();
  const giveBack = () =>
    db.transaction(() => {
      repos.tokens.release(attempt);
      repos.walletUtxos.release(attempt);
      if (!repos.walletUtxos.usedOnAddress(funding.changeAddress)) repos.addresses.markUnused(funding.wallet.id, funding.changeAddress);
    })();
  let submission: Submission;
  try {
    const fundingAccount = funding.wallet.id === r.wallet.id ? r.account : await services.keyring.open(funding.wallet);
    const inputs: SpentToken[] = r.inputs.map((u, i) => ({ txid: u.txid, vout: u.vout, satoshis: u.satoshis, script: u.script, key: r.account.key(u.chain ?? 0, u.idx ?? 0), parentHex: parents[i] }));
    const owner = repos.addresses.owner(funding.changeAddress)!;
    const { tx, fee } = await buildTokenSpend({
      template,
      kind: r.kind,
      inputs,
      tokenOutputs: r.tokenOutputs,
      redeem: r.redeem,
      funding: {
        txid: funding.coin.txid,
        vout: funding.coin.vout,
        satoshis: funding.coin.satoshis,
        script: funding.coin.script,
        key: fundingAccount.key(funding.coin.chain ?? 0, funding.coin.idx ?? 0),
        changeOwner: pkhOfPubKey(fundingAccount, owner.chain, owner.idx),
      },
      policy: r.policy,
    });
    const result: PayOutput = {
      txid: tx.id('hex'),
      fee,
      feePaidBy: funding.paidBy,
      delivered: r.delivery ? 'p2p' : 'broadcast',
      walletID: r.wallet.walletId,
      state: 'pending',
      seenByChain: false,
      peerTxid: null,
    };
    submission = {
      attempt,
      wallet: r.wallet,
      account: r.account,
      tx,
      result,
      memo: r.memo,
      counterparty: r.counterparty,
      changeAddresses: [{ walletRow: funding.wallet.id, address: funding.changeAddress }],
      delivery: r.delivery,
      cancel: { wallet: funding.wallet, account: fundingAccount, coins: [funding.coin] },
      policy: r.policy,
    };
    recordSubmission(services, submission, () => {
      if (r.key) repos.payments.linkKey(r.key.uid, r.key.key, attempt);
    });
  } catch (err) {
    giveBack();
    throw err;
  }
  return sendSubmission(services, submission);
}

/** The raw transaction that created a token output (a merge proves the other input's value with it). */
async function parentOf(services: TokenServices, u: TokenUtxo): Promise<string> {
  const hex = await services.chain.getTransactionHex(u.txid).catch(() => null);
  if (!hex) throw new DomainError('CHAIN_UNAVAILABLE', `The transaction ${u.txid} that holds these tokens could not be fetched from the chain; try again.`);
  return hex;
}

/**
 * The token outputs that cover `satoshis`: the smallest single one, or the two largest when they do
 * (a merge); null when more are needed (they are merged first, two at a time).
 */
export function chooseTokenInputs(utxos: TokenUtxo[], satoshis: number, canMerge: boolean): TokenUtxo[] | null {
  const single = [...utxos].sort((a, b) => a.satoshis - b.satoshis).find((u) => u.satoshis >= satoshis);
  if (single) return [single];
  if (!canMerge || utxos.length < 2) return null;
  const [a, b] = [...utxos].sort((x, y) => y.satoshis - x.satoshis);
  return a.satoshis + b.satoshis >= satoshis ? [a, b] : null;
}

import { Hash, Utils } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { PayOutput } from '../../../shared/operations.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { SigningAccount } from '../payments/keyring.js';
import type { Submission } from '../payments/submit.js';
import { moveValue } from '../payments/value-flow.js';
import { buildTokenSpend, type SpentToken } from './build.js';
import { estimateTokenTxBytes, reserveFunding } from './funding.js';
import type { TokenServices } from './services.js';
import { p2pkhScript, withOwner } from '../token-templates/script-bytes.js';
import type { TokenTemplate } from '../token-templates/template.js';

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

export const pkhOfPubKey = (account: SigningAccount, chain: number, idx: number) =>
  Utils.toHex(Hash.hash160(account.key(chain, idx).toPublicKey().encode(true) as number[]));

/**
 * Spends token outputs of a wallet as a value move (payments/value-flow.ts): reserves them and one funding
 * coin (the fee manager's when it can pay), builds and signs the token transaction, keeps it, then sends it
 * like a payment (P2P to a paymail host, or broadcast) and follows it until the chain decides. Nothing is
 * booked before the chain has it; a refusal gives the token outputs and the coin back.
 */
export async function submitTokenSpend(services: TokenServices, r: TokenSpendRequest): Promise<PayOutput> {
  const { repos } = services;
  // The outputs are moved with the release of the template that wrote them (an earlier one keeps its code).
  const template = services.tokenTemplates.forOutputs(
    r.template.protocol,
    r.inputs.map((u) => u.script),
  );
  if (!template)
    throw new DomainError(
      'CONFLICT',
      'These token outputs were written by different releases of the token template, which cannot be spent together; send them in separate transfers.',
    );
  const scriptBytes = r.inputs[0].script.length / 2;
  const parents = r.kind === 'merge' ? await Promise.all(r.inputs.map((u) => parentOf(services, u))) : r.inputs.map(() => null);
  const estimate = estimateTokenTxBytes(
    scriptBytes,
    r.inputs.length,
    r.tokenOutputs.length + (r.redeem ? 1 : 0),
    parents.reduce((n, p) => n + (p?.length ?? 0) / 2, 0),
  );
  return moveValue(services, {
    intent: { kind: `token-${r.kind}`, wallet: r.wallet, outputs: paidOutputs(r), tokenId: r.inputs[0].tokenId },
    account: r.account,
    memo: r.memo,
    counterparty: r.counterparty,
    delivery: r.delivery,
    policy: r.policy,
    estimateFee: () => requiredFee(estimate, r.policy),
    reserve: () => {
      const attempt = randomUUID();
      if (!repos.tokens.reserve(r.inputs, attempt, services.now())) {
        throw new DomainError(
          'CONFLICT',
          'These tokens are held by another transfer in progress (or not yet proven). Try again once it completes.',
        );
      }
      const funding = reserveFunding(services, r.wallet, requiredFee(estimate, r.policy), attempt, r.policy);
      return { attempt, changeAddresses: [{ walletRow: funding.wallet.id, address: funding.changeAddress }], funding };
    },
    alsoGiveBack: ({ attempt }) => repos.tokens.release(attempt),
    build: async ({ funding }) => {
      const fundingAccount = funding.wallet.id === r.wallet.id ? r.account : await services.keyring.open(funding.wallet);
      const inputs: SpentToken[] = r.inputs.map((u, i) => ({
        txid: u.txid,
        vout: u.vout,
        satoshis: u.satoshis,
        script: u.script,
        key: r.account.key(u.chain ?? 0, u.idx ?? 0),
        parentHex: parents[i],
      }));
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
          key: fundingAccount.keyFor(funding.coin),
          changeOwner: pkhOfPubKey(fundingAccount, owner.chain, owner.idx),
        },
        policy: r.policy,
      });
      return { tx, fee, feePaidBy: funding.paidBy, cancel: { wallet: funding.wallet, account: fundingAccount, coins: [funding.coin] } };
    },
    alsoRecord: (s) => {
      if (r.key) repos.payments.linkKey(r.key.uid, r.key.key, s.attempt);
    },
  });
}

/** What a token spend pays, as its transaction lays it out (build.ts): the redemption, then the token outputs. */
function paidOutputs(r: TokenSpendRequest): { script: string; satoshis: number }[] {
  const redeem = r.redeem ? [{ script: p2pkhScript(r.redeem.owner), satoshis: r.redeem.satoshis }] : [];
  return [...redeem, ...r.tokenOutputs.map((o) => ({ script: withOwner(r.inputs[0].script, o.owner), satoshis: o.satoshis }))];
}

/** The raw transaction that created a token output (a merge proves the other input's value with it). */
async function parentOf(services: TokenServices, u: TokenUtxo): Promise<string> {
  const hex = await services.chain.getTransactionHex(u.txid).catch(() => null);
  if (!hex)
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `The transaction ${u.txid} that holds these tokens could not be fetched from the chain; try again.`,
    );
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

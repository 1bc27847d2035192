import { LockingScript, Transaction, UnlockingScript } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { PayOutput } from '../../../shared/operations.js';
import { requiredFee } from '../../chain/policy.js';
import { hash160OfAddress } from '../../chain/script.js';
import type { FeePolicy } from '../../chain/types.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import { plainCoins } from '../payments/coin-select.js';
import type { SigningAccount } from '../payments/keyring.js';
import { claimChangeAddress } from '../payments/plan.js';
import { moveValue, type Reservation } from '../payments/value-flow.js';
import type { ValueMoveIntent } from '../value-move.js';
import { p2pkhScript, withOwner } from '../token-templates/script-bytes.js';
import type { ResolvedWallet } from '../wallets/resolve.js';
import { addSwapInputs } from './inputs.js';
import type { ReadOffer } from './read.js';
import type { SwapServices } from './services.js';
import { settleSwapFee } from './settle-fee.js';

/**
 * Taking an offer of STAS-family tokens. Their templates fix the whole transaction (stas-swap.ts):
 *   inputs   0 the offered tokens, 1 what the taker pays with (one coin, or one output of the asked token),
 *            2 the funding coin;
 *   outputs  0 the asked output, 1 all the offered tokens to the taker, 2…n-2 the taker's change of input 1
 *            (its own script), n-1 the funding's change.
 * So the taker pays from one coin (or token output) holding at least what is asked, and the fee from
 * another; each token input's unlocking carries the other swap input's whole parent transaction.
 */

const TX_VERSION = 1;
const COIN_INPUT_BYTES = 148;
/** A P2PKH output's script, as hex (its bytes are all the fee cares about). */
const P2PKH_SCRIPT_HEX = '76a914' + '00'.repeat(20) + '88ac';

interface StasReservation extends Reservation {
  payWith: TokenUtxo | null;
  payCoin: WalletUtxo | null;
  funding: WalletUtxo;
  receiveOwner: string;
  changeAddress: string;
}

/** The inputs chosen before anything is reserved (reading the books only), with the parents the unlockings carry. */
interface StasPlan {
  payWith: TokenUtxo | null;
  payCoin: WalletUtxo | null;
  funding: WalletUtxo;
  payParent: string;
  offeredParent: string;
}

/** The fee a STAS swap would pay: each token input's unlocking holds its preimage (its script) and the other input's parent. */
function stasSwapFee(
  o: ReadOffer,
  pay: { script: string; token: boolean; parentBytes: number },
  offeredParentBytes: number,
  policy: FeePolicy,
) {
  const offeredBytes = o.source.script.length / 2;
  const payBytes = pay.script.length / 2;
  const unlock0 = offeredBytes + pay.parentBytes + 600;
  const unlock1 = pay.token ? payBytes + offeredParentBytes + 600 : COIN_INPUT_BYTES;
  const outputs = offeredBytes + 2 * payBytes + 34 + 40;
  return requiredFee(unlock0 + unlock1 + COIN_INPUT_BYTES + outputs + 20, policy);
}

/**
 * What a taker would pay to take a STAS offer that asks for BSV (the only kind given out as hex), before any
 * taker's coin is known: the offered tokens' parent is the one given (`offeredParentBytes`, fetched by the
 * caller); the paying coin's parent, carried whole in the token input's unlocking, is taken to be as large. A
 * wallet that works with tokens mostly pays from the change of token transactions, which carry a template as
 * the offered parent does; a coin from a plain payment makes the take cheaper than this, never dearer unless
 * its parent is a larger transaction.
 */
export function stasOfferFeeEstimate(o: ReadOffer, offeredParentBytes: number, policy: FeePolicy): number {
  return stasSwapFee(o, { script: P2PKH_SCRIPT_HEX, token: false, parentBytes: offeredParentBytes }, offeredParentBytes, policy);
}

async function parentHex(services: SwapServices, txid: string): Promise<string> {
  const hex = await services.chain.getTransactionHex(txid);
  if (!hex)
    throw new DomainError('CHAIN_UNAVAILABLE', `The chain did not give transaction ${txid}, which a STAS swap carries in full. Try again.`);
  return hex;
}

/** Chooses what pays (the asked token's output, or the smallest coin holding the asked BSV) and a separate funding coin. */
async function planStas(
  services: SwapServices,
  wallet: ResolvedWallet,
  o: ReadOffer,
  payable: (u: TokenUtxo) => boolean,
  policy: FeePolicy,
): Promise<StasPlan> {
  const { repos } = services;
  const offeredParent = await parentHex(services, o.source.txid);
  // Never a 1-satoshi output: it may carry an ordinal (payments/coin-select.ts, plainCoins).
  const coins = plainCoins(repos.walletUtxos.available(wallet.id)).sort((a, b) => a.satoshis - b.satoshis);
  const fundingFor = async (payScript: string, payTxid: string, token: boolean, exclude: WalletUtxo | null) => {
    const payParent = await parentHex(services, payTxid);
    const need = stasSwapFee(o, { script: payScript, token, parentBytes: payParent.length / 2 }, offeredParent.length / 2, policy);
    const funding = coins.find((c) => c !== exclude && c.satoshis >= need + Math.max(1, policy.dustLimit));
    return funding ? { funding, payParent, need } : null;
  };
  if (o.askedToken) {
    const payWith =
      repos.tokens
        .spendable(wallet.id, `${o.askedToken.token.redemption}-${o.askedToken.token.symbol}`)
        .filter(payable)
        .sort((a, b) => a.satoshis - b.satoshis)[0] ?? null;
    if (!payWith)
      throw new DomainError(
        'INSUFFICIENT_FUNDS',
        `This wallet holds no single spendable output of ${o.wanted.tokenAmount} ${o.wanted.symbol} or more to pay for this offer; send some to yourself to gather them first.`,
      );
    const f = await fundingFor(payWith.script, payWith.txid, true, null);
    if (!f) throw new DomainError('INSUFFICIENT_FUNDS', 'Taking this offer needs one coin for its fee; the wallet has none large enough.');
    return { payWith, payCoin: null, funding: f.funding, payParent: f.payParent, offeredParent };
  }
  // A STAS swap pays the asked BSV from one coin (input 1) and the fee from another (input 2).
  // Its change returns to its own script (the layout says so), so it must be a coin at one of the wallet's HD
  // addresses, which the books watch (not a BRC-29 payment's one-off key).
  for (const payCoin of coins.filter((c) => c.satoshis >= o.asked.satoshis && c.chain !== null && c.idx !== null)) {
    const f = await fundingFor(payCoin.script, payCoin.txid, false, payCoin);
    if (f) return { payWith: null, payCoin, funding: f.funding, payParent: f.payParent, offeredParent };
  }
  throw new DomainError(
    'INSUFFICIENT_FUNDS',
    `Taking this ${o.offered.protocol} offer needs two coins: one of at least ${o.asked.satoshis} satoshis (what it asks) and another for the fee. Send yourself a payment of ${o.asked.satoshis} satoshis to make one, then try again.`,
    { needed: o.asked.satoshis },
  );
}

/** Takes an offer of STAS-family tokens (layout above) through the one value-moving path; answers the move and its fee. */
export async function takeStasOffer(
  services: SwapServices,
  p: {
    wallet: ResolvedWallet;
    account: SigningAccount;
    offer: ReadOffer;
    payable: (u: TokenUtxo) => boolean;
    policy: FeePolicy;
    intent: ValueMoveIntent;
    memo: string;
  },
): Promise<{ paid: PayOutput; fee: number }> {
  const { repos } = services;
  const { wallet, account, offer: o, policy } = p;
  const rule = o.template.swap!;
  const plan = await planStas(services, wallet, o, p.payable, policy);
  let fee = 0;
  const paid = await moveValue<StasReservation>(services, {
    intent: p.intent,
    account,
    memo: p.memo,
    counterparty: o.makerAddress,
    delivery: null,
    policy,
    reserve: () => {
      const attempt = randomUUID();
      if (plan.payWith && !repos.tokens.reserve([plan.payWith], attempt, services.now()))
        throw new DomainError('CONFLICT', 'These tokens are held by another transfer in progress. Try again once it completes.');
      const coins = plan.payCoin ? [plan.payCoin, plan.funding] : [plan.funding];
      if (!repos.walletUtxos.reserve(coins, attempt, services.now()))
        throw new DomainError('CONFLICT', 'Another payment took these coins at the same moment. Try again.');
      const receive = claimChangeAddress(services, wallet);
      const changeAddress = claimChangeAddress(services, wallet);
      return {
        attempt,
        payWith: plan.payWith,
        payCoin: plan.payCoin,
        funding: plan.funding,
        receiveOwner: hash160OfAddress(receive),
        changeAddress,
        changeAddresses: [
          { walletRow: wallet.id, address: receive },
          { walletRow: wallet.id, address: changeAddress },
        ],
      };
    },
    alsoGiveBack: ({ attempt }) => repos.tokens.release(attempt),
    build: async (r) => {
      const pay = r.payWith ?? r.payCoin!;
      const payChange = pay.satoshis - o.asked.satoshis;
      const spent = [
        { script: o.source.script, satoshis: o.source.satoshis },
        { script: pay.script, satoshis: pay.satoshis },
        { script: r.funding.script, satoshis: r.funding.satoshis },
      ];
      const spentIn = spent.reduce((n, s) => n + s.satoshis, 0);
      const fixedOut = o.asked.satoshis + o.source.satoshis + payChange;
      const assemble = async (change: number) => {
        const tx = new Transaction(TX_VERSION, [], [], 0);
        const payWith = r.payWith && { utxo: r.payWith, sequence: o.askedToken!.template.swap!.offerSequence };
        addSwapInputs(tx, o, payWith, r.payCoin ? [r.payCoin, r.funding] : [r.funding], account);
        const add = (script: string, satoshis: number) => tx.addOutput({ lockingScript: LockingScript.fromHex(script), satoshis });
        add(o.asked.script, o.asked.satoshis);
        add(withOwner(o.source.script, r.receiveOwner), o.source.satoshis);
        if (payChange > 0) add(pay.script, payChange);
        add(p2pkhScript(hash160OfAddress(r.changeAddress)), change);
        const problem = rule.layoutProblem?.(tx, spent);
        if (problem) throw new DomainError('VALIDATION_FAILED', `This offer cannot be taken: ${problem}.`);
        tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
          rule.complete({
            tx,
            inputIndex: 0,
            script: o.source.script,
            satoshis: o.source.satoshis,
            makerPart: o.makerPart,
            tokenOutputs: [{ owner: r.receiveOwner, satoshis: o.source.satoshis }],
            firstTokenOutput: 1,
            otherParent: plan.payParent,
          }),
        );
        if (r.payWith)
          tx.inputs[1].unlockingScript = UnlockingScript.fromHex(
            o.askedToken!.template.swap!.unlockPayment({
              tx,
              inputIndex: 1,
              script: r.payWith.script,
              satoshis: r.payWith.satoshis,
              key: account.key(r.payWith.chain ?? 0, r.payWith.idx ?? 0),
              kind: 'transfer',
              tokenOutputs: [
                { owner: o.asked.script.slice(6, 46), satoshis: o.asked.satoshis },
                ...(payChange > 0 ? [{ owner: r.payWith.script.slice(6, 46), satoshis: payChange }] : []),
              ],
              redeem: null,
              change: null,
              funding: null,
              otherParent: plan.offeredParent,
              firstTokenOutput: 0,
            }),
          );
        await tx.sign();
        return tx;
      };
      const settled = await settleSwapFee({ spentIn, fixedOut, firstFee: 0, policy, keepChange: true, assemble });
      fee = settled.fee;
      const coins = r.payCoin ? [r.payCoin, r.funding] : [r.funding];
      return { tx: settled.tx, fee, feePaidBy: 'wallet', cancel: { wallet, account, coins } };
    },
  });
  return { paid, fee };
}

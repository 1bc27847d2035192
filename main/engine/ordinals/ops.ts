import { LockingScript, P2PKH, Transaction, Utils } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import type { Bsv21Balance, Bsv21Validity } from '../../../shared/contracts/ordinals.js';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { FeePolicy } from '../../chain/types.js';
import { parseTransactionHex } from '../../chain/transaction-bytes.js';
import type { OrdinalOutput } from '../../store/repos/ordinals.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import { callerOf, type OpContext } from '../context.js';
import type { ValueMoveIntent } from '../value-move.js';
import { P2PKH_INPUT_BYTES, plainCoins, selectCoins } from '../payments/coin-select.js';
import { SigningAccount } from '../payments/keyring.js';
import { claimChangeAddress, currentFeePolicy } from '../payments/plan.js';
import { isAddress, parsePaymentUri } from '../payments/uri.js';
import { moveValue, plannedPayment, type Reservation } from '../payments/value-flow.js';
import { resolveWallet, type ResolvedWallet } from '../wallets/resolve.js';
import { BSV20_CONTENT_TYPE, bsv21Json, mediaType, ordP2pkhScript, parseOrdOutput } from '../../chain/ordinal-envelope.js';
import type { OrdinalServices } from './services.js';
import { originOf } from './trace.js';

type Ctx = OpContext<OrdinalServices>;
type In<N extends keyof typeof OPERATIONS> = ParsedInputOf<(typeof OPERATIONS)[N]>;
type Out<N extends keyof typeof OPERATIONS> = OutputOf<(typeof OPERATIONS)[N]>;

/** At most this much content is answered by inscriptionContent (the raw route answers the same bytes). */
export const MAX_CONTENT_ANSWERED = 1024 * 1024;

const pkhOf = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);

/** How the UI may show content of this type: images and text inline (never run), anything else as a download. */
export function contentKindOf(contentType: string): 'image' | 'text' | 'json' | 'other' {
  const media = mediaType(contentType);
  if (/^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(media)) return 'image';
  if (media === 'application/json' || media === BSV20_CONTENT_TYPE) return 'json';
  if (media === 'text/plain' || media === 'text/markdown') return 'text';
  return 'other';
}

function validityOf(o: OrdinalOutput): Bsv21Validity {
  return o.validity === 'valid' ? 'valid' : o.validity === 'invalid' ? 'invalid' : 'pending';
}

/** BSV-21 balances per token from a wallet's unspent outputs: only valid outputs count. */
export function balancesOf(services: Pick<OrdinalServices, 'repos'>, outputs: readonly OrdinalOutput[]): Bsv21Balance[] {
  const by = new Map<string, { valid: bigint; pending: bigint; invalid: bigint; count: number }>();
  for (const o of outputs) {
    if (!o.tokenId || o.amount === null || o.bsv21Op === 'burn') continue;
    const b = by.get(o.tokenId) ?? { valid: 0n, pending: 0n, invalid: 0n, count: 0 };
    const amt = BigInt(o.amount);
    if (o.validity === 'valid') b.valid += amt;
    else if (o.validity === 'invalid') b.invalid += amt;
    else b.pending += amt;
    b.count++;
    by.set(o.tokenId, b);
  }
  return [...by.entries()].map(([id, b]) => {
    const token = services.repos.ordinals.token(id);
    return {
      id,
      sym: token?.sym ?? null,
      dec: token?.dec ?? 0,
      amount: b.valid.toString(),
      pendingAmount: b.pending.toString(),
      invalidAmount: b.invalid.toString(),
      validity: b.pending > 0n ? 'pending' : b.valid > 0n ? 'valid' : 'invalid',
      outputs: b.count,
    };
  });
}

export async function listOrdinals(ctx: Ctx, input: In<'listOrdinals'>): Promise<Out<'listOrdinals'>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  await services.ordinalBooks.validatePending();
  const rows = services.repos.ordinals.unspent(wallet.id);
  for (const id of new Set(rows.flatMap((o) => (o.tokenId ? [o.tokenId] : []))))
    await services.ordinalBooks
      .learnToken(id)
      .catch((err: Error) => services.logger.warn({ err: err.message, id }, 'a BSV-21 token could not be read'));
  const inscriptions: Out<'listOrdinals'>['inscriptions'] = rows.map((o) => ({
    outpoint: `${o.txid}_${o.vout}`,
    txid: o.txid,
    vout: o.vout,
    walletId: wallet.walletId,
    address: o.address,
    contentType: o.contentType,
    kind: contentKindOf(o.contentType),
    size: o.contentSize,
    bsv21: o.tokenId && o.bsv21Op ? { op: o.bsv21Op, tokenId: o.tokenId, amount: o.amount!, validity: validityOf(o) } : null,
    height: o.height,
  }));
  // Ordinals moved as plain 1-satoshi P2PKH outputs (ordinal theory: a sat keeps its inscription): traced back.
  for (const coin of services.repos.walletUtxos.available(wallet.id).filter((c) => c.satoshis === 1)) {
    const origin = await originOf(services, coin.txid, coin.vout).catch(() => null);
    if (!origin) continue;
    inscriptions.push({
      outpoint: `${coin.txid}_${coin.vout}`,
      txid: coin.txid,
      vout: coin.vout,
      walletId: wallet.walletId,
      address: coin.address ?? '',
      contentType: origin.contentType,
      kind: contentKindOf(origin.contentType),
      size: origin.size,
      bsv21: null,
      height: coin.height,
    });
  }
  return { inscriptions, tokens: balancesOf(services, rows), source: services.ordinalsIndex.source };
}

/**
 * An inscription's content, for an outpoint one of the organisation's wallets holds (or held): read from the
 * transaction the chain gives (checked against its txid), never from anyone's say-so.
 */
export async function inscriptionContent(ctx: Ctx, input: In<'inscriptionContent'>): Promise<Out<'inscriptionContent'>> {
  const { services } = ctx;
  const [txid, vout] = [input.outpoint.slice(0, 64), Number(input.outpoint.slice(65))];
  const held = services.repos.ordinals.get(txid, vout);
  const coin = held ? null : services.repos.walletUtxos.get(txid, vout);
  const holder = held?.walletRow ?? (coin?.satoshis === 1 ? coin.walletRow : null);
  // Only in a wallet the caller may see (its own, or a shared one it is a member of: the wallets listWallets
  // shows), judged by the holder's row: a walletId alone names no wallet (every user's default wallet has the
  // same one). Nothing is created; an outpoint another's wallet holds reads as one no wallet holds.
  const mine = holder !== null && services.repos.wallets.visibleTo(callerOf(ctx).uid).some((w) => w.id === holder);
  if (!mine) throw new DomainError('NOT_FOUND', `No wallet of yours holds an inscription at ${input.outpoint}.`);
  // A traced 1-satoshi coin shows its origin's content.
  const at = held ? { txid, vout } : await originOf(services, txid, vout);
  if (!at) throw new DomainError('NOT_FOUND', `No wallet here holds an inscription at ${input.outpoint}.`);
  const hex = await services.chain.getTransactionHex(at.txid);
  if (!hex) throw new DomainError('CHAIN_UNAVAILABLE', `The chain did not give transaction ${at.txid}.`);
  const tx = parseTransactionHex(hex);
  if (tx.txid !== at.txid) throw new DomainError('CHAIN_UNAVAILABLE', `The chain answered transaction ${at.txid} with another one.`);
  const output = tx.tx.outputs[at.vout];
  const inscription = output ? parseOrdOutput(output.lockingScript.toHex(), { maxContentBytes: MAX_CONTENT_ANSWERED }).inscription : null;
  if (!inscription) throw new DomainError('NOT_FOUND', `${input.outpoint} carries no inscription.`);
  return {
    outpoint: input.outpoint,
    contentType: inscription.contentType,
    kind: contentKindOf(inscription.contentType),
    size: inscription.size,
    contentBase64: Buffer.from(inscription.content).toString('base64'),
    truncated: inscription.truncated,
  };
}

export async function bsv21Token(ctx: Ctx, input: In<'bsv21Token'>): Promise<Out<'bsv21Token'>> {
  const { services } = ctx;
  const facts = await services.ordinalsIndex.bsv21Token(input.id);
  if (!facts) throw new DomainError('NOT_FOUND', `${input.id} is not a BSV-21 deploy+mint output.`);
  return {
    id: facts.id,
    sym: facts.sym,
    dec: facts.dec,
    supply: facts.amt.toString(),
    icon: facts.icon,
    deployTxid: facts.id.slice(0, 64),
    held: services.repos.ordinals.heldOf(facts.id).toString(),
    source: services.ordinalsIndex.source,
  };
}

/** Deploys and mints a BSV-21 token: one inscribed 1-satoshi output to the wallet (output 0), paid like any payment. */
export async function deployBsv21(ctx: Ctx, input: In<'deployBsv21'>): Promise<Out<'deployBsv21'>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const account = await services.keyring.open(wallet, input.walletPassword);
  const policy = await currentFeePolicy(services);
  const [receive] = services.repos.addresses.unused(wallet.id, 0, 1);
  if (!receive) throw new DomainError('CONFLICT', 'The wallet has no receiving address yet; try again.');
  const json = bsv21Json({ op: 'deploy+mint', amt: input.amt, sym: input.sym, dec: input.dec, icon: input.icon ?? null });
  const outputs = [{ script: ordP2pkhScript(pkhOf(receive.address), BSV20_CONTENT_TYPE, json), satoshis: 1 }];
  const payment = plannedPayment(services, wallet, account, outputs, policy);
  const r = await moveValue(services, {
    intent: { kind: 'token-issue', wallet, outputs, tokenId: null },
    account,
    memo: `Deploy ${input.sym} (BSV-21)`,
    counterparty: null,
    delivery: null,
    policy,
    reserve: () => {
      const reservation = payment.reserve();
      // The inscribed output's address is taken now, so no other payment's change lands on it.
      services.repos.addresses.markUsed(wallet.id, receive.address);
      return reservation;
    },
    build: payment.build,
  });
  return { txid: r.txid, fee: r.fee, tokenId: `${r.txid}_0` };
}

/** Where an ordinal goes: a P2PKH address, or a paymail's address (basic resolution; the transaction is broadcast). */
async function destinationOf(ctx: Ctx, to: string, note: string): Promise<{ pkh: string; counterparty: string }> {
  if (isAddress(to)) return { pkh: pkhOf(to), counterparty: to };
  const parsed = parsePaymentUri(to);
  if (parsed.kind === 'address') return { pkh: pkhOf(parsed.address), counterparty: parsed.address };
  const script = await ctx.services.paymail.basicDestination(parsed.paymail, {
    senderHandle: parsed.paymail,
    dt: new Date(ctx.services.now()).toISOString(),
    amount: 1,
    purpose: note,
  });
  const m = /^76a914([0-9a-f]{40})88ac$/.exec(script);
  if (!m)
    throw new DomainError(
      'PAYMAIL_FAILED',
      `${parsed.paymail} resolved to a script that is not a P2PKH address; an ordinal cannot be sent to it.`,
    );
  return { pkh: m[1], counterparty: parsed.paymail };
}

/** One ordinal input: a row of the ordinals books, or a 1-satoshi coin asked for explicitly. */
type OrdinalInput = { kind: 'ordinal'; row: OrdinalOutput } | { kind: 'coin'; coin: WalletUtxo };

interface OrdinalReservation extends Reservation {
  coins: WalletUtxo[];
  change: { address: string; satoshis: number } | null;
  fee: number;
  /** Outputs whose address is only known once reserved (a token send's change). */
  outputs: { script: string; satoshis: number }[];
}

/**
 * Spends ordinal inputs (first, so their satoshis go to the outputs in order) with plain coins paying the fee,
 * as a value move: the ordinal inputs and the coins reserved together, change back to the wallet.
 */
async function spendOrdinals(
  ctx: Ctx,
  wallet: ResolvedWallet,
  account: SigningAccount,
  policy: FeePolicy,
  move: {
    inputs: OrdinalInput[];
    outputs: (changeAddress: () => string) => { script: string; satoshis: number }[];
    tokenId: string;
    /** What the policy counts: BSV-21 units, or one inscription. */
    measure: NonNullable<ValueMoveIntent['measure']>;
    memo: string;
    counterparty: string;
  },
) {
  const { services } = ctx;
  const { repos } = services;
  // What the policy is shown: the outputs as they will be, a change output to one of the wallet's own addresses.
  const own = repos.addresses.at(wallet.id, 1, 0)?.address ?? repos.addresses.at(wallet.id, 0, 0)!.address;
  const preview = move.outputs(() => own);
  return moveValue(services, {
    intent: { kind: 'token-transfer', wallet, outputs: preview, tokenId: move.tokenId, measure: move.measure },
    account,
    memo: move.memo,
    counterparty: move.counterparty,
    delivery: null,
    policy,
    reserve: (): OrdinalReservation => {
      const attempt = randomUUID();
      const claimed: { walletRow: number; address: string }[] = [];
      const outputs = move.outputs(() => {
        const address = claimChangeAddress(services, wallet);
        claimed.push({ walletRow: wallet.id, address });
        return address;
      });
      const rows = move.inputs.flatMap((i) => (i.kind === 'ordinal' ? [i.row] : []));
      const explicit = move.inputs.flatMap((i) => (i.kind === 'coin' ? [i.coin] : []));
      if (!repos.ordinals.reserve(rows, attempt, services.now()) || !repos.walletUtxos.reserve(explicit, attempt, services.now()))
        throw new DomainError('CONFLICT', 'These ordinals are held by another transfer in progress. Try again once it completes.');
      // The ordinal inputs' own satoshis pay first (a stranger's inscription may hold 50,000 of them); plain
      // coins pay the rest (never a 1-satoshi output: coin-select.ts), and what is left comes back as change.
      const held = [...rows, ...explicit].reduce((t, o) => t + o.satoshis, 0);
      const sel = selectCoins(plainCoins(repos.walletUtxos.available(wallet.id)), outputs, policy, {
        extraBytes: move.inputs.length * P2PKH_INPUT_BYTES + 2,
        given: held,
      });
      if (!sel.ok)
        throw new DomainError(
          'INSUFFICIENT_FUNDS',
          `Sending ordinals needs ${sel.needed} satoshis of plain coins for its outputs and fee; the wallet has ${sel.available}.`,
          { needed: sel.needed, available: sel.available, missing: sel.missing },
        );
      if (!repos.walletUtxos.reserve(sel.selection.coins, attempt, services.now()))
        throw new DomainError('CONFLICT', 'Another payment took these coins at the same moment. Try again.');
      const change = sel.selection.change > 0 ? { address: claimChangeAddress(services, wallet), satoshis: sel.selection.change } : null;
      if (change) claimed.push({ walletRow: wallet.id, address: change.address });
      return { attempt, changeAddresses: claimed, coins: sel.selection.coins, change, fee: sel.selection.fee, outputs };
    },
    alsoGiveBack: ({ attempt }) => repos.ordinals.release(attempt),
    build: async (r) => {
      const tx = new Transaction();
      const spends: Parameters<typeof SigningAccount.signP2pkh>[1][number][] = [];
      for (const i of move.inputs) {
        const o = i.kind === 'ordinal' ? i.row : i.coin;
        tx.addInput({ sourceTXID: o.txid, sourceOutputIndex: o.vout, sequence: 0xffffffff });
        spends.push({ account, chain: o.chain ?? 0, idx: o.idx ?? 0, satoshis: o.satoshis, script: o.script });
      }
      for (const c of r.coins) {
        tx.addInput({ sourceTXID: c.txid, sourceOutputIndex: c.vout, sequence: 0xffffffff });
        spends.push({ account, chain: c.chain ?? 0, idx: c.idx ?? 0, brc29: c.brc29, satoshis: c.satoshis, script: c.script });
      }
      for (const o of r.outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
      if (r.change) tx.addOutput({ lockingScript: new P2PKH().lock(r.change.address), satoshis: r.change.satoshis });
      await SigningAccount.signP2pkh(tx, spends);
      return { tx, fee: r.fee, feePaidBy: 'wallet', cancel: null };
    },
  });
}

/**
 * Sends BSV-21 units: the wallet's valid outputs of the token (largest first) until they cover the amount;
 * output 0 a transfer inscription of the amount to the recipient, output 1 (when some is left) a transfer of
 * the rest to a change address of the wallet, both 1 satoshi; the fee from plain coins.
 */
export async function sendBsv21(ctx: Ctx, input: In<'sendBsv21'>): Promise<Out<'sendBsv21'>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  await services.ordinalBooks.validatePending();
  const amount = BigInt(input.amount);
  const available = services.repos.ordinals
    .spendable(wallet.id, input.tokenId)
    .sort((a, b) => (BigInt(b.amount!) > BigInt(a.amount!) ? 1 : BigInt(b.amount!) < BigInt(a.amount!) ? -1 : 0));
  const picked: OrdinalOutput[] = [];
  let total = 0n;
  for (const o of available) {
    if (total >= amount) break;
    picked.push(o);
    total += BigInt(o.amount!);
  }
  if (total < amount) {
    const sym = services.repos.ordinals.token(input.tokenId)?.sym ?? input.tokenId;
    throw new DomainError('INSUFFICIENT_FUNDS', `This wallet holds ${total} valid units of ${sym}; ${amount} were asked for.`, {
      available: total.toString(),
    });
  }
  if (picked.length > 50)
    throw new DomainError('VALIDATION_FAILED', 'This send would spend more than 50 token outputs; send a smaller amount first.');
  const account = await services.keyring.open(wallet, input.walletPassword);
  const policy = await currentFeePolicy(services);
  const sym = services.repos.ordinals.token(input.tokenId)?.sym ?? 'tokens';
  const dest = await destinationOf(ctx, input.to, `${input.amount} ${sym}`);
  const rest = total - amount;
  const transfer = (pkh: string, amt: bigint) => ({
    script: ordP2pkhScript(pkh, BSV20_CONTENT_TYPE, bsv21Json({ op: 'transfer', id: input.tokenId, amt: amt.toString() })),
    satoshis: 1,
  });
  const r = await spendOrdinals(ctx, wallet, account, policy, {
    inputs: picked.map((row) => ({ kind: 'ordinal', row })),
    outputs: (changeAddress) => [transfer(dest.pkh, amount), ...(rest > 0n ? [transfer(pkhOf(changeAddress()), rest)] : [])],
    tokenId: input.tokenId,
    // Units past 2^53 count as the largest exact number: a limit compares them as at least that.
    measure: { asset: 'tokens', amount: amount > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(amount) },
    memo: `${input.amount} ${sym} (BSV-21)`,
    counterparty: dest.counterparty,
  });
  return {
    txid: r.txid,
    fee: r.fee,
    tokenId: input.tokenId,
    amount: amount.toString(),
    change: rest.toString(),
    counterparty: dest.counterparty,
  };
}

/**
 * Sends an inscription: its 1-satoshi output as input 0, a 1-satoshi P2PKH to the recipient as output 0 (the
 * satoshi, and with it the inscription, moves in order), the fee from plain coins. A BSV-21 token output is not
 * sent this way (it would burn the tokens): sendBsv21 moves those.
 */
export async function sendInscription(ctx: Ctx, input: In<'sendInscription'>): Promise<Out<'sendInscription'>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  const [txid, vout] = [input.outpoint.slice(0, 64), Number(input.outpoint.slice(65))];
  const row = services.repos.ordinals.get(txid, vout);
  let from: OrdinalInput;
  if (row && row.walletRow === wallet.id && row.status === 'available') {
    if (row.tokenId && row.validity !== 'invalid')
      throw new DomainError(
        'VALIDATION_FAILED',
        `${input.outpoint} holds BSV-21 tokens; send them with sendBsv21 (sending it as an inscription would burn them).`,
      );
    from = { kind: 'ordinal', row };
  } else {
    // A 1-satoshi coin that traces back to an inscription: spent only because it is asked for by name.
    const coin = services.repos.walletUtxos.get(txid, vout);
    if (
      !coin ||
      coin.walletRow !== wallet.id ||
      coin.satoshis !== 1 ||
      coin.status !== 'available' ||
      !(await originOf(services, txid, vout))
    )
      throw new DomainError('NOT_FOUND', `This wallet holds no inscription at ${input.outpoint} free to send.`);
    from = { kind: 'coin', coin };
  }
  const account = await services.keyring.open(wallet, input.walletPassword);
  const policy = await currentFeePolicy(services);
  const dest = await destinationOf(ctx, input.to, `Inscription ${input.outpoint}`);
  const r = await spendOrdinals(ctx, wallet, account, policy, {
    inputs: [from],
    outputs: () => [{ script: `76a914${dest.pkh}88ac`, satoshis: 1 }],
    tokenId: input.outpoint,
    measure: { asset: 'nfts', amount: 1 },
    memo: `Inscription ${input.outpoint}`,
    counterparty: dest.counterparty,
  });
  return { txid: r.txid, fee: r.fee, outpoint: `${r.txid}_0`, counterparty: dest.counterparty };
}

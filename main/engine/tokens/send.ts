import { callScope } from '../context.js';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { OPERATIONS } from '../../../shared/operations.js';
import { satoshisOfBsv, wholeOfDecimal } from '../../../shared/amount-schema.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import type { FeePolicy } from '../../chain/types.js';
import type { TokenRow, TokenUtxo } from '../../store/repos/tokens.js';
import type { Logger } from '../../log/logger.js';
import { callerOf, type OpContext } from '../context.js';
import type { SigningAccount } from '../payments/keyring.js';
import { payUnderKey } from '../payments/pay.js';
import { currentFeePolicy } from '../payments/plan.js';
import { resolveUri } from '../payments/resolve-op.js';
import { resolveWallet, type ResolvedWallet } from '../wallets/resolve.js';
import { claimBatchKey, runItemOnce, type ItemOutcome, type KeyRef } from './batch-keys.js';
import { tokenDestination } from './destination.js';
import { missingTemplate } from './issue.js';
import type { TokenServices } from './services.js';
import { chooseTokenInputs, submitTokenSpend } from './spend.js';
import type { TokenProtocol, TokenTemplate } from '../token-templates/template.js';

type SendInput = ParsedInputOf<typeof OPERATIONS.send>;
type BatchOutput = OutputOf<typeof OPERATIONS.send>;
type Item = SendInput['dataArray'][number];

/** What a batch item that failed unexpectedly reports: the cause is in the log, never in the answer. */
const unexpected = (what: string) =>
  `This ${what} failed unexpectedly (the cause is in the server log). Anything it had signed is settled with the chain and never sent twice.`;

/**
 * Runs each item of a batch on its own; some may fail while others go through. All failed: the first
 * error, with every item's in `errors` (400). Some failed: 200, `partial success`, the failures in `errors`.
 * An item that fails with anything but a DomainError (a bug, or an answer nothing checked) is that item's
 * error (INTERNAL, logged), never the batch's: items already paid stay paid and are reported. `results`
 * lists every item's outcome in order.
 */
export async function runBatch<T>(
  items: T[],
  run: (item: T, index: number) => Promise<string[] | ItemOutcome>,
  what: string,
  logger?: Logger,
): Promise<BatchOutput> {
  const txIds: string[] = [];
  const errors: BatchOutput['errors'] = [];
  const results: NonNullable<BatchOutput['results']> = [];
  let firstError: DomainError | undefined;
  const scope = callScope.getStore();
  for (const [index, item] of items.entries()) {
    try {
      // Each item is its own request as the payment policy sees it: one that waits for approvals keeps only
      // itself (a one-item batch) to run again, never the items already paid.
      const r = scope
        ? await callScope.run({ ...scope, input: { ...(scope.input as object), dataArray: [item] } }, () => run(item, index))
        : await run(item, index);
      const outcome = Array.isArray(r) ? { txIds: r, replayed: false } : r;
      txIds.push(...outcome.txIds);
      results.push({ index, txIds: outcome.txIds, code: null, msg: null, ...(outcome.replayed ? { replayed: true } : {}) });
    } catch (err) {
      const e = err instanceof DomainError ? err : new DomainError('INTERNAL', unexpected(what));
      if (!(err instanceof DomainError)) logger?.error({ err, index, what }, 'a batch item failed unexpectedly; the other items go on');
      const approvalId = typeof e.details.approvalId === 'string' ? { approvalId: e.details.approvalId } : {};
      errors.push({ index, code: e.code, msg: e.message, ...approvalId });
      results.push({ index, txIds: [], code: e.code, msg: e.message, ...approvalId });
      firstError ??= e;
    }
  }
  if (errors.length === items.length) {
    const first = errors[0];
    throw new DomainError(
      items.length === 1 ? (first.code as DomainError['code']) : 'VALIDATION_FAILED',
      items.length === 1 ? first.msg : `Every ${what} failed: ${errors.map((e) => `#${e.index}: ${e.msg}`).join('; ')}`,
      // One item: its error's own details too (an approval's id).
      { ...(items.length === 1 ? firstError!.details : {}), errors, txIds: [], results },
    );
  }
  return errors.length
    ? {
        txIds,
        errors,
        results,
        status: 'partial success',
        msg: `${errors.length} of ${items.length} ${what}s failed; the others went through.`,
      }
    : { txIds, errors, results };
}

/** The template a token of the books is moved with (a licensed STAS template must still be installed). */
export function templateOf(services: TokenServices, token: TokenRow): TokenTemplate {
  const t = services.tokenTemplates.get(token.protocol as TokenProtocol);
  if (!t) throw missingTemplate(token.protocol);
  return t;
}

export function tokenOf(services: TokenServices, tokenId: string): TokenRow {
  const t = services.repos.tokens.get(tokenId);
  if (!t) throw new DomainError('NOT_FOUND', `No token ${tokenId} is known here.`);
  return t;
}

/** Sends BSV or tokens: one transaction per item (a fungible send that needs more than two outputs merges them first). */
export async function send(ctx: OpContext<TokenServices>, input: SendInput): Promise<BatchOutput> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  // With an idempotency key, a retried batch pays each item at most once (see batch-keys.ts).
  const batch = input.idempotencyKey
    ? claimBatchKey(services, callerOf(ctx).uid, input.idempotencyKey, { walletID: wallet.walletId, dataArray: input.dataArray })
    : null;
  return runBatch(
    input.dataArray,
    (item, index) =>
      runItemOnce(services, batch, index, { walletID: wallet.walletId, item }, (key) =>
        item.tokenId ? sendToken(ctx, wallet, item, key) : sendBsv(ctx, wallet, item, key),
      ),
    'send',
    services.logger,
  );
}

/** BSV as the exact decimal text the schema kept, to satoshis: digits only, never floating point. */
function exactSatoshis(text: string): number {
  const sats = satoshisOfBsv(text);
  if (sats === null)
    throw new DomainError(
      'VALIDATION_FAILED',
      `amount: ${text} BSV is not a whole number of satoshis (at most 8 decimals); give satoshis instead`,
    );
  return sats;
}

async function sendBsv(ctx: OpContext<TokenServices>, wallet: ResolvedWallet, item: Item, key: KeyRef | null): Promise<string[]> {
  // BSV given as a decimal is converted exactly or refused (0.000000005 BSV is not 1 satoshi).
  const satoshis = item.satoshis ?? (item.amount !== undefined ? exactSatoshis(item.amount) : undefined);
  if (!satoshis || !Number.isSafeInteger(satoshis))
    throw new DomainError('VALIDATION_FAILED', 'amount: give the BSV to send (or satoshis)');
  const { data } = await resolveUri(ctx, { uri: item.to, amount: satoshis, walletId: wallet.walletId });
  const paid = await payUnderKey(
    ctx,
    OPERATIONS.pay.input.parse({ ...data, memo: item.notes ?? data.memo, walletId: wallet.walletId }),
    key,
  );
  return [paid.txid];
}

async function sendToken(ctx: OpContext<TokenServices>, wallet: ResolvedWallet, item: Item, key: KeyRef | null): Promise<string[]> {
  const { services } = ctx;
  const token = tokenOf(services, item.tokenId!);
  const template = templateOf(services, token);
  const account = await services.keyring.open(wallet);
  const policy = await currentFeePolicy(services);
  const nft = NFT_PROTOCOL_IDS.includes(token.protocol);
  if (nft) {
    if (item.sn === undefined) throw new DomainError('VALIDATION_FAILED', 'sn: name the NFT to send by its serial number');
    if (item.amount !== undefined && item.amount !== '1')
      throw new DomainError('VALIDATION_FAILED', 'amount: an NFT is sent one at a time (amount 1)');
    const u = services.repos.tokens.spendable(wallet.id, token.tokenId).find((x) => x.sn === item.sn);
    if (!u) throw new DomainError('NOT_FOUND', `This wallet holds no spendable ${token.symbol} #${item.sn}.`);
    const dest = await tokenDestination(ctx, item.to, u.satoshis, item.notes ?? '', { tokenId: token.tokenId, protocol: token.protocol });
    const r = await submitTokenSpend(services, {
      wallet,
      account,
      template,
      kind: 'transfer',
      inputs: [u],
      tokenOutputs: [{ owner: dest.owner, satoshis: u.satoshis }],
      redeem: null,
      delivery: dest.delivery,
      memo: item.notes ?? `${token.symbol} #${item.sn}`,
      counterparty: dest.counterparty,
      policy,
      key,
    });
    return [r.txid];
  }
  if (item.sn !== undefined) throw new DomainError('VALIDATION_FAILED', `sn: ${token.symbol} is fungible; send an amount`);
  const tokens = item.amount === undefined ? null : wholeOfDecimal(item.amount);
  if (tokens === null) throw new DomainError('VALIDATION_FAILED', 'amount: give a whole number of tokens');
  const satoshis = tokens * token.satsPerToken;
  if (!Number.isSafeInteger(satoshis)) throw new DomainError('VALIDATION_FAILED', 'amount: more tokens than can exist');
  const { inputs, merged } = await gather(ctx, wallet, account, token, template, satoshis, policy);
  const dest = await tokenDestination(ctx, item.to, satoshis, item.notes ?? '', { tokenId: token.tokenId, protocol: token.protocol });
  const total = inputs.reduce((n, u) => n + u.satoshis, 0);
  const rest = total - satoshis;
  const r = await submitTokenSpend(services, {
    wallet,
    account,
    template,
    kind: inputs.length === 2 ? 'merge' : 'transfer',
    inputs,
    tokenOutputs: [{ owner: dest.owner, satoshis }, ...(rest > 0 ? [{ owner: inputs[0].script.slice(6, 46), satoshis: rest }] : [])],
    redeem: null,
    delivery: dest.delivery,
    memo: item.notes ?? `${tokens} ${token.symbol}`,
    counterparty: dest.counterparty,
    policy,
    key,
  });
  return [...merged, r.txid];
}

/**
 * Token outputs of the wallet that cover `satoshis`: one, or two to merge in the same transaction. With
 * more needed, the two largest are merged first (a transaction of their own, to the first one's owner),
 * until two suffice. STAS merges need outputs of one owner.
 */
export async function gather(
  ctx: OpContext<TokenServices>,
  wallet: ResolvedWallet,
  account: SigningAccount,
  token: TokenRow,
  template: TokenTemplate,
  satoshis: number,
  policy: FeePolicy,
  filter: (u: TokenUtxo) => boolean = () => true,
): Promise<{ inputs: TokenUtxo[]; merged: string[] }> {
  const { services } = ctx;
  const merged: string[] = [];
  for (let round = 0; round < 20; round++) {
    const all = services.repos.tokens.spendable(wallet.id, token.tokenId).filter(filter);
    const held = all.reduce((n, u) => n + u.satoshis, 0);
    if (held < satoshis) {
      const pending =
        services.repos.tokens
          .held(wallet.id)
          .filter((u) => u.tokenId === token.tokenId && u.status !== 'spent' && u.validity !== 'forged')
          .reduce((n, u) => n + u.satoshis, 0) - held;
      throw new DomainError(
        'INSUFFICIENT_FUNDS',
        `This wallet holds ${Math.floor(held / token.satsPerToken)} ${token.symbol} it can send now; ${Math.ceil(satoshis / token.satsPerToken)} asked.${pending > 0 ? ` ${Math.floor(pending / token.satsPerToken)} more are held by transfers in progress or still being proven.` : ''}`,
      );
    }
    const mergeable = template.protocol.startsWith('STAS') ? sameOwner(all) : all;
    const chosen = chooseTokenInputs(mergeable, satoshis, template.canMerge);
    if (chosen) return { inputs: chosen, merged };
    if (!template.canMerge)
      throw new DomainError(
        'CONFLICT',
        `${token.protocol} tokens cannot be merged; no single output holds ${satoshis / token.satsPerToken} ${token.symbol}.`,
      );
    const [a, b] = [...mergeable].sort((x, y) => y.satoshis - x.satoshis);
    if (!b)
      throw new DomainError(
        'CONFLICT',
        `The ${token.symbol} outputs of this wallet are held by different addresses and ${token.protocol} merges need one owner; send a smaller amount.`,
      );
    const r = await submitTokenSpend(services, {
      wallet,
      account,
      template,
      kind: 'merge',
      inputs: [a, b],
      tokenOutputs: [{ owner: a.script.slice(6, 46), satoshis: a.satoshis + b.satoshis }],
      redeem: null,
      delivery: null,
      memo: `Merge ${token.symbol}`,
      counterparty: null,
      policy,
    });
    merged.push(r.txid);
  }
  throw new DomainError('CONFLICT', `Too many ${token.symbol} outputs to gather in one send; send a smaller amount.`);
}

/** The outputs held by the owner who holds the most: STAS merges need identical scripts. */
function sameOwner(utxos: TokenUtxo[]): TokenUtxo[] {
  const by = new Map<string, TokenUtxo[]>();
  for (const u of utxos) by.set(u.address, [...(by.get(u.address) ?? []), u]);
  return [...by.values()].sort((a, b) => b.reduce((n, u) => n + u.satoshis, 0) - a.reduce((n, u) => n + u.satoshis, 0))[0] ?? [];
}

import { Transaction } from '@bsv/sdk';
import { p2pkhAddressOf } from '../../chain/script.js';
import { OPERATIONS, type AddressesOutput, type WalletSummary } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { verifyPassword } from '../auth/password.js';
import { accountKey } from '../auth/throttle.js';
import { callerOf, type OpContext } from '../context.js';
import type { WalletOperationServices, WalletServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { resolveMembers } from './create.js';
import { paymailOf } from './paymail-alias.js';
import { resolveOwnWallet, resolveWallet } from './resolve.js';
import { openSeed } from './open-seed.js';
import { walletSecretOf } from './secret.js';

function summary(ctx: OpContext<WalletServices>, w: WalletRow & { access: 'owner' | 'member' }): WalletSummary {
  const { users, wallets } = ctx.services.repos;
  return {
    walletID: w.walletId,
    walletTitle: w.title,
    walletLogo: w.logo || null,
    type: w.type,
    paymail: paymailOf(w),
    paymailActive: w.paymailActive,
    derivationPath: w.derivationPath,
    access: w.access,
    owner: users.byUid(w.ownerUid)?.email ?? w.ownerUid,
    members: wallets.members(w.id).map((uid) => users.byUid(uid)?.email ?? uid),
    createdAt: new Date(w.createdAt).toISOString(),
    balance: ctx.services.repos.walletUtxos.balance(w.id),
  };
}

export function listWallets(ctx: OpContext<WalletServices>): OutputOf<typeof OPERATIONS.listWallets> {
  return { wallets: ctx.services.repos.wallets.visibleTo(callerOf(ctx).uid).map((w) => summary(ctx, w)) };
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * A wallet is deleted with its keys only when it holds nothing and nothing is on its way to it, or when the
 * caller says force: satoshis are not all it can hold. Tokens, 1Sat outputs (inscriptions, BSV-21) and apps'
 * basket outputs are kept in their own books; a payment not yet settled that pays the wallet (or returns
 * change to it, or gives its coins back if it fails) and an open invoice a payer may still pay all land on its
 * addresses. Deleting the keys of any of them loses it as surely as losing coins.
 */
function refuseIfFunded(ctx: OpContext<WalletOperationServices>, w: WalletRow, force: boolean | undefined): void {
  if (force) return;
  const { wallets, invoices } = ctx.services.repos;
  const balance = wallets.knownBalance(w.id);
  const h = wallets.holdings(w.id);
  const pending = unsettledPaymentsOf(ctx.services, w);
  const invoiced = invoices.openCount({ walletRow: w.id }, ctx.services.now());
  const held = [
    balance > 0 ? `${balance} satoshis` : null,
    h.tokenOutputs > 0 ? plural(h.tokenOutputs, 'token output') : null,
    h.ordinalOutputs > 0 ? `${plural(h.ordinalOutputs, '1Sat output')} (inscriptions)` : null,
    h.basketOutputs > 0 ? plural(h.basketOutputs, 'app basket output') : null,
  ].filter((x): x is string => x !== null);
  const awaited = [
    pending > 0 ? `${plural(pending, 'payment')} to or from it not yet settled with the chain` : null,
    invoiced > 0 ? `${plural(invoiced, 'open invoice')} a payer may still pay` : null,
  ].filter((x): x is string => x !== null);
  if (held.length + awaited.length > 0) {
    const what = [held.length > 0 ? `still holds ${held.join(', ')}` : null, awaited.length > 0 ? `awaits ${awaited.join(' and ')}` : null];
    throw new DomainError(
      'CONFLICT',
      `Wallet "${w.title}" ${what.filter((x) => x !== null).join(', and ')}. Move them out, let its payments settle and cancel its open invoices first, or delete with force: true to discard its keys anyway.`,
    );
  }
}

/** The organisation's payments not yet settled that the wallet signed, or whose outputs pay one of its addresses. */
function unsettledPaymentsOf(services: WalletOperationServices, w: WalletRow): number {
  const { payments, addresses } = services.repos;
  const paysWallet = (raw: string) =>
    Transaction.fromHex(raw).outputs.some((o) => {
      const address = p2pkhAddressOf(o.lockingScript.toHex());
      return address !== null && addresses.owner(address)?.walletRow === w.id;
    });
  return payments.openAttempts().filter((a) => a.walletRow === w.id || paysWallet(a.raw)).length;
}

function remove(ctx: OpContext<WalletServices>, w: WalletRow): void {
  ctx.services.repos.wallets.remove(w.id); // addresses, members and utxos go with it (ON DELETE CASCADE)
  ctx.services.addressBook.forget(w.id);
}

export async function deleteWallet(
  ctx: OpContext<WalletOperationServices>,
  input: ParsedInputOf<typeof OPERATIONS.deleteWallet>,
): Promise<OutputOf<typeof OPERATIONS.deleteWallet>> {
  const w = await resolveOwnWallet(ctx, input.walletId, 'delete it');
  ctx.services.db.transaction(() => {
    refuseIfFunded(ctx, w, input.force);
    remove(ctx, w);
  })();
  return { walletId: w.walletId };
}

export function deleteAllWallets(
  ctx: OpContext<WalletOperationServices>,
  input: ParsedInputOf<typeof OPERATIONS.deleteAllWallets>,
): OutputOf<typeof OPERATIONS.deleteAllWallets> {
  const { wallets } = ctx.services.repos;
  return ctx.services.db.transaction(() => {
    const owned = wallets.ownedBy(callerOf(ctx).uid);
    for (const w of owned) refuseIfFunded(ctx, w, input.force); // all or nothing
    for (const w of owned) remove(ctx, w);
    return { deleted: owned.map((w) => w.walletId) };
  })();
}

export async function walletAddresses(ctx: OpContext<WalletServices>, input: { walletId?: string }): Promise<AddressesOutput> {
  const w = await resolveWallet(ctx, input.walletId);
  const list = ctx.services.addressBook.handOut(w).map((a) => a.address);
  return { walletID: w.walletId, addresses: list, addressess: list, paymail: w.paymailActive ? paymailOf(w) : null };
}

export async function walletAddress(
  ctx: OpContext<WalletServices>,
  input: { walletId?: string },
): Promise<OutputOf<typeof OPERATIONS.walletAddress>> {
  const w = await resolveWallet(ctx, input.walletId);
  const [next] = ctx.services.addressBook.handOut(w, 1);
  return { walletID: w.walletId, address: next.address, paymail: w.paymailActive ? paymailOf(w) : null };
}

/** Re-authenticates with the account password (throttled like logins) before showing the phrase. */
/**
 * A recovery phrase spends the wallet outside Keystead, past every rule of the payment policy: while a policy
 * is in force, only an admin (who can change the policy anyway) may show one.
 */
function refuseSeedPastPolicy(ctx: OpContext<WalletOperationServices>): void {
  if (callerOf(ctx).role === 'admin' || ctx.services.repos.policies.active() === null) return;
  throw new DomainError(
    'FORBIDDEN',
    "The organisation's payment policy is in force: a recovery phrase would spend this wallet outside it, so only an admin may show one.",
  );
}

export async function exportMnemonic(
  ctx: OpContext<WalletOperationServices>,
  input: ParsedInputOf<typeof OPERATIONS.exportMnemonic>,
): Promise<OutputOf<typeof OPERATIONS.exportMnemonic>> {
  const caller = callerOf(ctx);
  const { services } = ctx;
  refuseSeedPastPolicy(ctx);
  if (input.password === undefined) {
    throw new DomainError(
      'PASSWORD_REQUIRED',
      'Showing a recovery phrase needs your account password again: send it in the `password` header (the public service does not ask for it; Keystead does).',
    );
  }
  // The same account throttle as logins, admitted before the hash runs.
  const account = accountKey(caller.email);
  const ticket = services.throttle.admit([account], 'Too many wrong passwords');
  try {
    const user = services.repos.users.byUid(caller.uid)!;
    if (!(await verifyPassword(input.password, user.passwordHash)))
      throw new DomainError('WRONG_PASSWORD', 'Your account password is not correct.');
    ticket.succeed([account]);
  } finally {
    ticket.release();
  }
  const w = await resolveOwnWallet(ctx, input.walletId, 'export its recovery phrase');
  const opened = await openSeed(services, w, input.walletPassword);
  const secret = walletSecretOf(opened);
  // A root-key wallet's backup is its root key (the addresses follow from it): never a phrase made up for it.
  if (secret.rootKey !== undefined) return { walletID: w.walletId, rootKey: secret.rootKey, derivationPath: w.derivationPath };
  return { walletID: w.walletId, mnemonic: secret.mnemonic, derivationPath: w.derivationPath };
}

export async function setWalletMembers(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.setWalletMembers>,
): Promise<OutputOf<typeof OPERATIONS.setWalletMembers>> {
  const w = await resolveOwnWallet(ctx, input.walletId, 'change its members');
  if (w.type !== 'shared') throw new DomainError('VALIDATION_FAILED', `members: only shared wallets have members (this one is ${w.type})`);
  const { users, wallets } = ctx.services.repos;
  const uids = resolveMembers(ctx.services, w.ownerUid, input.members ?? []);
  ctx.services.db.transaction(() => wallets.setMembers(w.id, uids))();
  return { walletID: w.walletId, members: uids.map((uid) => users.byUid(uid)!.email) };
}

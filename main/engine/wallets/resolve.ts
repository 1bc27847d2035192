import { DEFAULT_WALLET_ID } from '../../../shared/wallet-schemas.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext } from '../context.js';
import type { WalletServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { createWalletFor } from './create.js';
import { FEE_MANAGER_WALLET_ID } from './fee-manager-id.js';

export interface ResolvedWallet extends WalletRow {
  access: 'owner' | 'member';
}

/**
 * Finds the wallet an operation acts on: the caller's own wallet with that id, or a shared wallet they
 * are a member of. No id means the default wallet, which is created on first use.
 */
export async function resolveWallet(ctx: OpContext<WalletServices>, walletId: string | undefined): Promise<ResolvedWallet> {
  const { uid } = callerOf(ctx);
  const { wallets } = ctx.services.repos;
  const id = walletId || DEFAULT_WALLET_ID;
  if (id === FEE_MANAGER_WALLET_ID)
    throw new DomainError('NOT_FOUND', 'The fee manager is not a wallet of your account; use the fee manager routes.');
  const own = wallets.own(uid, id);
  if (own) return { ...own, access: 'owner' };
  if (id === DEFAULT_WALLET_ID) {
    try {
      return { ...(await createWalletFor(ctx, uid, { walletTitle: 'default', type: 'standard' })), access: 'owner' };
    } catch (err) {
      // A concurrent call may have created it meanwhile; use that one.
      const raced = wallets.own(uid, id);
      if (raced) return { ...raced, access: 'owner' };
      throw err;
    }
  }
  const shared = wallets.sharedWith(id, uid);
  if (shared) return { ...shared, access: 'member' };
  throw new DomainError('NOT_FOUND', `There is no wallet ${id} in your account.`);
}

/** Like resolveWallet, but only the owner may go on (deleting, exporting, changing members). */
export async function resolveOwnWallet(
  ctx: OpContext<WalletServices>,
  walletId: string | undefined,
  action: string,
): Promise<ResolvedWallet> {
  const wallet = await resolveWallet(ctx, walletId);
  if (wallet.access !== 'owner') throw new DomainError('FORBIDDEN', `Only the owner of this shared wallet may ${action}.`);
  return wallet;
}

import { DomainError } from '../../../shared/errors.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { callerOf, type OpContext } from '../context.js';
import { freeNumericAlias, parseAlias, paymailOf } from './paymail-alias.js';
import { resolveOwnWallet, resolveWallet } from './resolve.js';
import type { WalletServices } from './services.js';

const detailsOf = (w: WalletRow & { paymailAlias: string; paymailDomain: string }) => ({
  walletID: w.walletId,
  paymailId: w.paymailAlias,
  paymail: `${w.paymailAlias}@${w.paymailDomain}`,
  active: w.paymailActive,
});

const hasPaymail = (w: WalletRow): w is WalletRow & { paymailAlias: string; paymailDomain: string } =>
  w.paymailAlias !== null && w.paymailDomain !== null;

export async function paymailDetails(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.paymailDetails>,
): Promise<OutputOf<typeof OPERATIONS.paymailDetails>> {
  const { repos, config } = ctx.services;
  // The SDK may send a literal "undefined" when its caller gave no id: read the wallet's own then.
  const named = input.paymailId && input.paymailId !== 'undefined' ? input.paymailId : undefined;
  if (!named) {
    const w = await resolveWallet(ctx, input.walletId);
    if (!hasPaymail(w)) throw new DomainError('NOT_FOUND', `The wallet ${w.walletId} has no paymail; give it one with PUT /v1/paymail.`);
    return { paymailDetails: detailsOf(w) };
  }
  const notYours = new DomainError('NOT_FOUND', `None of your wallets has the paymail ${named}.`);
  let alias: string;
  try {
    alias = parseAlias(named, config.paymailDomain);
  } catch {
    throw notYours;
  }
  const w = repos.wallets.byPaymail(alias, config.paymailDomain);
  const { uid } = callerOf(ctx);
  // Only a wallet the caller could open by its id: their own, or a shared one they are a member of.
  const visible = w && (w.ownerUid === uid ? w : repos.wallets.sharedWith(w.walletId, uid));
  if (!visible || !hasPaymail(visible)) throw notYours;
  return { paymailDetails: detailsOf(visible) };
}

export async function updatePaymail(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.updatePaymail>,
): Promise<OutputOf<typeof OPERATIONS.updatePaymail>> {
  const { repos, config, db } = ctx.services;
  const w = await resolveOwnWallet(ctx, input.walletId, 'change its paymail');
  const alias = parseAlias(input.newPaymailId, config.paymailDomain);
  const active = db.transaction(() => {
    const holder = repos.wallets.byPaymail(alias, config.paymailDomain);
    if (holder && holder.id !== w.id) throw new DomainError('CONFLICT', `The paymail ${alias}@${config.paymailDomain} is taken.`);
    // A wallet that had no paymail gets an active one, as on the public service; otherwise its state stays.
    const on = w.paymailAlias === null ? true : w.paymailActive;
    repos.wallets.setPaymail(w.id, alias, config.paymailDomain, on);
    return on;
  })();
  return { paymail: `${alias}@${config.paymailDomain}`, walletID: w.walletId, active };
}

export async function activatePaymail(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.activatePaymail>,
): Promise<OutputOf<typeof OPERATIONS.activatePaymail>> {
  const { repos, config, db } = ctx.services;
  if (input.activate === undefined) throw new DomainError('VALIDATION_FAILED', 'activate: is required (true or false, in the body)');
  const w = await resolveOwnWallet(ctx, input.walletId, 'turn its paymail on or off');
  const row = db.transaction(() => {
    const alias = w.paymailAlias ?? (input.activate ? freeNumericAlias(repos.wallets, config.paymailDomain) : null);
    const domain = w.paymailDomain ?? config.paymailDomain;
    repos.wallets.setPaymail(w.id, alias, domain, input.activate === true);
    return {
      ...w,
      paymailAlias: alias,
      paymailDomain: alias === null ? null : domain,
      paymailActive: alias !== null && input.activate === true,
    };
  })();
  return { walletID: w.walletId, paymail: paymailOf(row), active: row.paymailActive };
}

import type { AppStatusOutput, OperationOutput } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import type { OrgServices } from './services.js';

export function appStatus(ctx: OpContext<OrgServices>): AppStatusOutput {
  const { repos, config } = ctx.services;
  return { initialised: repos.users.countActive() > 0, version: config.version, network: config.network };
}

/** The organisation's money: every wallet's balance summed (the fee manager's apart). */
export function organisationBalance(ctx: OpContext<OrgServices>): OperationOutput<'organisationBalance'> {
  const { repos } = ctx.services;
  const feeManager = repos.wallets.feeManager();
  const wallets = repos.wallets.all().filter((w) => w.id !== feeManager?.id);
  const byRow = new Map(repos.walletUtxos.balances().map((b) => [b.walletRow, b]));
  let confirmed = 0;
  let unconfirmed = 0;
  for (const w of wallets) {
    confirmed += byRow.get(w.id)?.confirmed ?? 0;
    unconfirmed += byRow.get(w.id)?.unconfirmed ?? 0;
  }
  const fm = feeManager ? byRow.get(feeManager.id) : undefined;
  return { wallets: wallets.length, confirmed, unconfirmed, feeManager: feeManager ? (fm?.confirmed ?? 0) + (fm?.unconfirmed ?? 0) : null };
}

import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import { resolveWallet } from '../wallets/resolve.js';

export async function history(ctx: OpContext, input: ParsedInput<'history'>): Promise<OperationOutput<'history'>> {
  const wallet = await resolveWallet(ctx, input.walletId);
  const { db, chain } = ctx.services;
  let tip: number | null = null;
  try {
    tip = (await chain.getTip()).height;
  } catch {
    /* confirmations unknown while the provider is unreachable */
  }
  // Newest first; one row more than asked tells whether another page exists.
  const rows = db
    .prepare<[number, number, number], { txid: string; direction: 'in' | 'out' | 'self'; amount: number; fee: number | null; counterparty: string | null; memo: string | null; height: number | null; time: number }>(
      'SELECT txid, direction, amount, fee, counterparty, memo, height, time FROM wallet_txs WHERE wallet_row = ? ORDER BY height IS NOT NULL, height DESC, time DESC, rowid DESC LIMIT ? OFFSET ?',
    )
    .all(wallet.id, input.maxResults + 1, input.nextPageToken);
  const page = rows.slice(0, input.maxResults);
  return {
    walletID: wallet.walletId,
    history: page.map((r) => ({
      ...r,
      time: new Date(r.time).toISOString(),
      confirmations: r.height === null || tip === null ? 0 : tip - r.height + 1,
    })),
    meta: { nextPageToken: rows.length > input.maxResults ? input.nextPageToken + input.maxResults : null },
  };
}

import type { Db } from '../database.js';

/** An app's action as the organisation's view lists it (app_actions with its wallet and labels). */
export interface AppActivityAction {
  txid: string | null;
  originator: string;
  walletId: string;
  status: string;
  satoshis: number;
  isOutgoing: boolean;
  description: string;
  labels: string[];
  createdAt: number;
}

export interface AppBasketSummary {
  originator: string;
  walletId: string;
  basket: string;
  outputs: number;
  satoshis: number;
}

interface RawAction {
  id: number;
  txid: string | null;
  originator: string;
  wallet_id: string;
  status: string;
  satoshis: number;
  is_outgoing: number;
  description: string;
  created_at: number;
}

/**
 * Reads for the Apps view over migration 21's tables (actions, labels, basket outputs), across wallets:
 * the BRC-100 methods themselves read per wallet (outputs/, actions/). `originator` null: every app.
 */
export function createAppActivityRepo(db: Db) {
  const actions = db.prepare<[string | null, string | null, number, number], RawAction>(
    `SELECT a.id, a.txid, a.originator, w.wallet_id, a.status, a.satoshis, a.is_outgoing, a.description, a.created_at
     FROM app_actions a JOIN wallets w ON w.id = a.wallet_row
     WHERE (? IS NULL OR a.originator = ?) ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?`,
  );
  const count = db.prepare<[string | null, string | null], { n: number }>(
    'SELECT count(*) AS n FROM app_actions WHERE (? IS NULL OR originator = ?)',
  );
  const labels = db.prepare<[number], { label: string }>('SELECT label FROM app_action_labels WHERE action_id = ? ORDER BY label');
  const baskets = db.prepare<[string | null, string | null], AppBasketSummary>(
    `SELECT o.originator, w.wallet_id AS walletId, o.basket, count(*) AS outputs, sum(o.satoshis) AS satoshis
     FROM app_outputs o JOIN wallets w ON w.id = o.wallet_row
     WHERE o.status IN ('available','reserved') AND (? IS NULL OR o.originator = ?)
     GROUP BY o.originator, w.wallet_id, o.basket ORDER BY o.originator, w.wallet_id, o.basket LIMIT 500`,
  );
  return {
    actions(originator: string | null, limit: number, offset: number): { total: number; actions: AppActivityAction[] } {
      const rows = actions.all(originator, originator, limit, offset);
      return {
        total: count.get(originator, originator)!.n,
        actions: rows.map((r) => ({
          txid: r.txid,
          originator: r.originator,
          walletId: r.wallet_id,
          status: r.status,
          satoshis: r.satoshis,
          isOutgoing: r.is_outgoing === 1,
          description: r.description,
          labels: labels.all(r.id).map((l) => l.label),
          createdAt: r.created_at,
        })),
      };
    },
    baskets(originator: string | null): AppBasketSummary[] {
      return baskets.all(originator, originator);
    },
  };
}
export type AppActivityRepo = ReturnType<typeof createAppActivityRepo>;

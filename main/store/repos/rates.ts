import type { Db } from '../database.js';

export interface RateRow {
  currency: string;
  rate: number;
  source: string;
  updatedAt: number;
}

/** Price of one BSV per currency, with where it came from and when. */
export function createRateRepo(db: Db) {
  const all = db.prepare<[], { currency: string; rate: number; source: string; updated_at: number }>(
    'SELECT * FROM rates ORDER BY currency',
  );
  const get = db.prepare<[string], { currency: string; rate: number; source: string; updated_at: number }>(
    'SELECT * FROM rates WHERE currency = ?',
  );
  const upsert = db.prepare(
    'INSERT INTO rates (currency, rate, source, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (currency) DO UPDATE SET rate = excluded.rate, source = excluded.source, updated_at = excluded.updated_at',
  );
  const remove = db.prepare('DELETE FROM rates WHERE currency = ?');
  const map = (r: { currency: string; rate: number; source: string; updated_at: number }): RateRow => ({
    currency: r.currency,
    rate: r.rate,
    source: r.source,
    updatedAt: r.updated_at,
  });
  return {
    all: (): RateRow[] => all.all().map(map),
    get: (currency: string): RateRow | null => {
      const r = get.get(currency);
      return r ? map(r) : null;
    },
    set: (r: RateRow): void => void upsert.run(r.currency, r.rate, r.source, r.updatedAt),
    remove: (currency: string): boolean => remove.run(currency).changes > 0,
  };
}
export type RateRepo = ReturnType<typeof createRateRepo>;

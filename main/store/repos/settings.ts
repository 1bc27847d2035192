import type { Db } from '../database.js';

/** Small key/value facts of this data dir (for example the wallet sealing key). */
export function createSettingsRepo(db: Db) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const insertIfMissing = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING');
  return {
    get(key: string): string | null {
      return get.get(key)?.value ?? null;
    },
    set(key: string, value: string): void {
      upsert.run(key, value);
    },
    /** Stores the value unless one exists, and returns whichever is stored. */
    getOrInit(key: string, make: () => string): string {
      return db.transaction(() => {
        insertIfMissing.run(key, make());
        return get.get(key)!.value;
      })();
    },
  };
}
export type SettingsRepo = ReturnType<typeof createSettingsRepo>;

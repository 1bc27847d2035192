import type { Db } from '../database.js';

export type WalletType = 'standard' | 'secure' | 'escrow' | 'shared';

export interface WalletRow {
  id: number;
  walletId: string;
  ownerUid: string;
  title: string;
  logo: string;
  type: WalletType;
  derivationPath: string;
  accountXpub: string;
  sealedSeed: string;
  paymailAlias: string | null;
  paymailDomain: string | null;
  paymailActive: boolean;
  createdAt: number;
}

interface Raw {
  id: number;
  wallet_id: string;
  owner_uid: string;
  title: string;
  logo: string;
  type: WalletType;
  derivation_path: string;
  account_xpub: string;
  sealed_seed: string;
  paymail_alias: string | null;
  paymail_domain: string | null;
  paymail_active: number;
  created_at: number;
}

const toRow = (r: Raw): WalletRow => ({
  id: r.id,
  walletId: r.wallet_id,
  ownerUid: r.owner_uid,
  title: r.title,
  logo: r.logo,
  type: r.type,
  derivationPath: r.derivation_path,
  accountXpub: r.account_xpub,
  sealedSeed: r.sealed_seed,
  paymailAlias: r.paymail_alias,
  paymailDomain: r.paymail_domain,
  paymailActive: r.paymail_active === 1,
  createdAt: r.created_at,
});

export function createWalletRepo(db: Db) {
  const insert =
    db.prepare(`INSERT INTO wallets (wallet_id, owner_uid, title, logo, type, derivation_path, account_xpub, sealed_seed, paymail_alias, paymail_domain, paymail_active, created_at)
    VALUES (@walletId, @ownerUid, @title, @logo, @type, @derivationPath, @accountXpub, @sealedSeed, @paymailAlias, @paymailDomain, @paymailActive, @createdAt)`);
  const byRow = db.prepare<[number], Raw>('SELECT * FROM wallets WHERE id = ?');
  const all = db.prepare<[], Raw>('SELECT * FROM wallets ORDER BY id');
  const own = db.prepare<[string, string], Raw>('SELECT * FROM wallets WHERE owner_uid = ? AND wallet_id = ?');
  const sharedWith = db.prepare<[string, string], Raw>(
    `SELECT w.* FROM wallets w JOIN wallet_members m ON m.wallet_row = w.id WHERE w.wallet_id = ? AND m.uid = ? AND w.type = 'shared'`,
  );
  const visible = db.prepare<[string, string], Raw & { role_in_wallet: string }>(
    `SELECT w.*, 'owner' AS role_in_wallet FROM wallets w WHERE w.owner_uid = ? AND w.wallet_id <> 'fee-manager'
     UNION ALL
     SELECT w.*, 'member' AS role_in_wallet FROM wallets w JOIN wallet_members m ON m.wallet_row = w.id WHERE m.uid = ? AND w.type = 'shared'
     ORDER BY created_at, id`,
  );
  const ownedBy = db.prepare<[string], Raw>(
    "SELECT * FROM wallets WHERE owner_uid = ? AND wallet_id <> 'fee-manager' ORDER BY created_at, id",
  );
  const feeManager = db.prepare<[], Raw>("SELECT * FROM wallets WHERE wallet_id = 'fee-manager' LIMIT 1");
  const byPaymail = db.prepare<[string, string], Raw>('SELECT * FROM wallets WHERE paymail_alias = ? AND paymail_domain = ?');
  const remove = db.prepare('DELETE FROM wallets WHERE id = ?');
  // Rows that name the wallet without ON DELETE CASCADE (their tables came later): removed with it.
  const removeOffers = db.prepare('DELETE FROM swap_offers WHERE wallet_row = ?');
  const removeOrdinals = db.prepare('DELETE FROM ordinal_outputs WHERE wallet_row = ?');
  const holdings = db.prepare<{ id: number }, { tokens: number; ordinals: number; baskets: number }>(
    `SELECT
       (SELECT count(*) FROM token_utxos WHERE wallet_row = @id AND status <> 'spent' AND validity <> 'forged') AS tokens,
       (SELECT count(*) FROM ordinal_outputs WHERE wallet_row = @id AND status <> 'spent') AS ordinals,
       (SELECT count(*) FROM app_outputs WHERE wallet_row = @id AND status IN ('available', 'reserved')) AS baskets`,
  );
  const setPaymail = db.prepare('UPDATE wallets SET paymail_alias = ?, paymail_domain = ?, paymail_active = ? WHERE id = ?');
  const members = db.prepare<[number], { uid: string }>('SELECT uid FROM wallet_members WHERE wallet_row = ? ORDER BY uid');
  const clearMembers = db.prepare('DELETE FROM wallet_members WHERE wallet_row = ?');
  const addMember = db.prepare('INSERT INTO wallet_members (wallet_row, uid) VALUES (?, ?)');
  const balance = db.prepare<[number], { total: number | null }>(
    "SELECT sum(satoshis) AS total FROM utxos WHERE wallet_row = ? AND status <> 'spent'",
  );
  return {
    insert(w: Omit<WalletRow, 'id' | 'paymailActive'> & { paymailActive: boolean }): number {
      return Number(insert.run({ ...w, paymailActive: w.paymailActive ? 1 : 0 }).lastInsertRowid);
    },
    byRow(id: number): WalletRow | null {
      const r = byRow.get(id);
      return r ? toRow(r) : null;
    },
    all(): WalletRow[] {
      return all.all().map(toRow);
    },
    own(uid: string, walletId: string): WalletRow | null {
      const r = own.get(uid, walletId);
      return r ? toRow(r) : null;
    },
    sharedWith(walletId: string, uid: string): WalletRow | null {
      const r = sharedWith.get(walletId, uid);
      return r ? toRow(r) : null;
    },
    /** The caller's own wallets and the shared wallets they are a member of. */
    visibleTo(uid: string): (WalletRow & { access: 'owner' | 'member' })[] {
      return visible.all(uid, uid).map((r) => ({ ...toRow(r), access: r.role_in_wallet as 'owner' | 'member' }));
    },
    ownedBy(uid: string): WalletRow[] {
      return ownedBy.all(uid).map(toRow);
    },
    /** The organisation's fee wallet, once initialised. */
    feeManager(): WalletRow | null {
      const r = feeManager.get();
      return r ? toRow(r) : null;
    },
    byPaymail(alias: string, domain: string): WalletRow | null {
      const r = byPaymail.get(alias, domain);
      return r ? toRow(r) : null;
    },
    /** Removes the wallet and everything of it (call inside a transaction). */
    remove(id: number): void {
      removeOffers.run(id);
      removeOrdinals.run(id);
      remove.run(id);
    },
    /** What the wallet holds besides its coins: unspent token outputs, 1Sat outputs and apps' basket outputs. */
    holdings(id: number): { tokenOutputs: number; ordinalOutputs: number; basketOutputs: number } {
      const h = holdings.get({ id })!;
      return { tokenOutputs: h.tokens, ordinalOutputs: h.ordinals, basketOutputs: h.baskets };
    },
    /** Gives the wallet an alias (or none), active or not. Unique per domain: check byPaymail first, in the same transaction. */
    setPaymail(id: number, alias: string | null, domain: string | null, active: boolean): void {
      setPaymail.run(alias, alias === null ? null : domain, alias !== null && active ? 1 : 0, id);
    },
    members(id: number): string[] {
      return members.all(id).map((r) => r.uid);
    },
    setMembers(id: number, uids: readonly string[]): void {
      clearMembers.run(id);
      for (const uid of uids) addMember.run(id, uid);
    },
    /** Satoshis the wallet is known to hold (unspent and reserved outputs). */
    knownBalance(id: number): number {
      return balance.get(id)?.total ?? 0;
    },
  };
}
export type WalletRepo = ReturnType<typeof createWalletRepo>;

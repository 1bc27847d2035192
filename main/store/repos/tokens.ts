import type { Db } from '../database.js';

/** A token the organisation issued or holds. Amounts are in tokens; satoshis = tokens × satsPerToken. */
export interface TokenRow {
  tokenId: string;
  protocol: string;
  symbol: string;
  name: string;
  redemptionPkh: string;
  /** The schema JSON written in the contract transaction. */
  schema: string;
  supply: number;
  /** Tokens redeemed so far (from the redemptions the books hold). */
  redeemed: number;
  satsPerToken: number;
  decimals: number;
  splittable: boolean;
  issuerWalletRow: number | null;
  issuerChain: number | null;
  issuerIdx: number | null;
  contractTxid: string | null;
  issueTxid: string | null;
  createdAt: number;
}

export interface TokenUtxo {
  txid: string;
  vout: number;
  tokenId: string;
  protocol: string;
  walletRow: number;
  address: string;
  chain: number | null;
  idx: number | null;
  satoshis: number;
  script: string;
  sn: number | null;
  status: 'available' | 'reserved' | 'spent';
  reservedBy: string | null;
  spentBy: string | null;
  height: number | null;
  /** Traced back to its issue transaction (valid), not yet (unchecked), or not a real token (forged). */
  validity: 'unchecked' | 'valid' | 'forged';
}

export interface TokenSerial {
  tokenId: string;
  sn: number;
  data: string[];
  txid: string | null;
  vout: number | null;
  redeemed: boolean;
}

interface RawToken {
  token_id: string;
  protocol: string;
  symbol: string;
  name: string;
  redemption_pkh: string;
  schema: string;
  supply: number;
  redeemed: number | null;
  sats_per_token: number;
  decimals: number;
  splittable: number;
  issuer_wallet_row: number | null;
  issuer_chain: number | null;
  issuer_idx: number | null;
  contract_txid: string | null;
  issue_txid: string | null;
  created_at: number;
}
const toToken = (r: RawToken): TokenRow => ({
  tokenId: r.token_id,
  protocol: r.protocol,
  symbol: r.symbol,
  name: r.name,
  redemptionPkh: r.redemption_pkh,
  schema: r.schema,
  supply: r.supply,
  redeemed: r.redeemed ?? 0,
  satsPerToken: r.sats_per_token,
  decimals: r.decimals,
  splittable: r.splittable === 1,
  issuerWalletRow: r.issuer_wallet_row,
  issuerChain: r.issuer_chain,
  issuerIdx: r.issuer_idx,
  contractTxid: r.contract_txid,
  issueTxid: r.issue_txid,
  createdAt: r.created_at,
});

interface RawUtxo {
  txid: string;
  vout: number;
  token_id: string;
  protocol: string;
  wallet_row: number;
  address: string;
  chain: number | null;
  idx: number | null;
  satoshis: number;
  script: string;
  sn: number | null;
  status: TokenUtxo['status'];
  reserved_by: string | null;
  spent_by: string | null;
  height: number | null;
  validity: TokenUtxo['validity'];
}
const toUtxo = (r: RawUtxo): TokenUtxo => ({
  txid: r.txid,
  vout: r.vout,
  tokenId: r.token_id,
  protocol: r.protocol,
  walletRow: r.wallet_row,
  address: r.address,
  chain: r.chain,
  idx: r.idx,
  satoshis: r.satoshis,
  script: r.script,
  sn: r.sn,
  status: r.status,
  reservedBy: r.reserved_by,
  spentBy: r.spent_by,
  height: r.height,
  validity: r.validity,
});

/**
 * Tokens, their outputs held by the organisation's wallets, NFT serials and lineage proofs (tables tokens, token_utxos, token_serials,
 * token_proofs).
 */
export function createTokenRepo(db: Db) {
  const insertToken = db.prepare(
    `INSERT OR IGNORE INTO tokens (token_id, protocol, symbol, name, redemption_pkh, schema, supply, sats_per_token, decimals, splittable, issuer_wallet_row, issuer_chain, issuer_idx, contract_txid, issue_txid, created_at)
     VALUES (@tokenId, @protocol, @symbol, @name, @redemptionPkh, @schema, @supply, @satsPerToken, @decimals, @splittable, @issuerWalletRow, @issuerChain, @issuerIdx, @contractTxid, @issueTxid, @createdAt)`,
  );
  const withRedeemed = 'SELECT t.*, (SELECT sum(tokens) FROM token_redemptions r WHERE r.token_id = t.token_id) AS redeemed FROM tokens t';
  const getToken = db.prepare<[string], RawToken>(`${withRedeemed} WHERE t.token_id = ?`);
  const allTokens = db.prepare<[], RawToken>(`${withRedeemed} ORDER BY t.created_at DESC, t.token_id`);
  const addSupply = db.prepare('UPDATE tokens SET supply = supply + ?, contract_txid = ?, issue_txid = ? WHERE token_id = ?');
  const insertRedemption = db.prepare('INSERT OR IGNORE INTO token_redemptions (txid, token_id, tokens, sn) VALUES (?, ?, ?, ?)');
  const redemptionsOf = db.prepare<[string], { token_id: string; tokens: number; sn: number | null }>(
    'SELECT token_id, tokens, sn FROM token_redemptions WHERE txid = ?',
  );
  const removeRedemption = db.prepare('DELETE FROM token_redemptions WHERE txid = ?');

  const insertUtxo = db.prepare(
    `INSERT OR IGNORE INTO token_utxos (txid, vout, token_id, protocol, wallet_row, address, chain, idx, satoshis, script, sn, status, height, validity, created_at)
     VALUES (@txid, @vout, @tokenId, @protocol, @walletRow, @address, @chain, @idx, @satoshis, @script, @sn, 'available', @height, @validity, @createdAt)`,
  );
  const getUtxo = db.prepare<[string, number], RawUtxo>('SELECT * FROM token_utxos WHERE txid = ? AND vout = ?');
  const spend = db.prepare(
    "UPDATE token_utxos SET status = 'spent', spent_by = ?, reserved_by = NULL, reserved_at = NULL WHERE txid = ? AND vout = ?",
  );
  const unspend = db.prepare(
    "UPDATE token_utxos SET status = 'available', spent_by = NULL, reserved_by = NULL, reserved_at = NULL WHERE spent_by = ?",
  );
  const removeOutputs = db.prepare('DELETE FROM token_utxos WHERE txid = ?');
  const outputsOf = db.prepare<[string], RawUtxo>('SELECT * FROM token_utxos WHERE txid = ? ORDER BY vout');
  const spentByTx = db.prepare<[string], RawUtxo>('SELECT * FROM token_utxos WHERE spent_by = ?');
  const reservedAll = db.prepare<[], RawUtxo>("SELECT * FROM token_utxos WHERE status = 'reserved'");
  const releaseOne = db.prepare(
    "UPDATE token_utxos SET status = 'available', reserved_by = NULL, reserved_at = NULL WHERE txid = ? AND vout = ? AND status = 'reserved'",
  );
  const confirm = db.prepare('UPDATE token_utxos SET height = ? WHERE txid = ?');
  const txidsFrom = db.prepare<[number], { txid: string }>('SELECT DISTINCT txid FROM token_utxos WHERE height >= ?');
  const reserve = db.prepare(
    "UPDATE token_utxos SET status = 'reserved', reserved_by = ?, reserved_at = ? WHERE txid = ? AND vout = ? AND status = 'available' AND validity = 'valid'",
  );
  const release = db.prepare(
    "UPDATE token_utxos SET status = 'available', reserved_by = NULL, reserved_at = NULL WHERE reserved_by = ? AND status = 'reserved'",
  );
  const held = db.prepare<[number], RawUtxo>(
    "SELECT * FROM token_utxos WHERE wallet_row = ? AND status <> 'spent' ORDER BY token_id, satoshis DESC, txid, vout",
  );
  const heldAt = db.prepare<[string], RawUtxo>(
    "SELECT * FROM token_utxos WHERE address = ? AND status <> 'spent' ORDER BY token_id, satoshis DESC, txid, vout",
  );
  const spendable = db.prepare<[number, string], RawUtxo>(
    "SELECT * FROM token_utxos WHERE wallet_row = ? AND token_id = ? AND status = 'available' AND validity = 'valid' ORDER BY satoshis DESC, txid, vout",
  );
  const unchecked = db.prepare<[], RawUtxo>(
    "SELECT * FROM token_utxos WHERE validity = 'unchecked' AND status <> 'spent' ORDER BY created_at",
  );
  const setValidity = db.prepare('UPDATE token_utxos SET validity = ?, sn = coalesce(?, sn) WHERE txid = ? AND vout = ?');
  const circulating = db.prepare<[string], { n: number | null }>(
    "SELECT count(*) AS n FROM token_utxos WHERE token_id = ? AND status <> 'spent'",
  );

  const insertSerial = db.prepare('INSERT OR IGNORE INTO token_serials (token_id, sn, data, txid, vout) VALUES (?, ?, ?, ?, ?)');
  const moveSerial = db.prepare('UPDATE token_serials SET txid = ?, vout = ? WHERE token_id = ? AND sn = ?');
  const redeemSerial = db.prepare('UPDATE token_serials SET redeemed = 1, txid = NULL, vout = NULL WHERE token_id = ? AND sn = ?');
  const unredeemSerial = db.prepare('UPDATE token_serials SET redeemed = 0 WHERE token_id = ? AND sn = ?');
  const serials = db.prepare<
    [string],
    { token_id: string; sn: number; data: string; txid: string | null; vout: number | null; redeemed: number }
  >('SELECT * FROM token_serials WHERE token_id = ? ORDER BY sn');
  const maxSerial = db.prepare<[string], { n: number | null }>('SELECT max(sn) AS n FROM token_serials WHERE token_id = ?');

  const getProof = db.prepare<[string, number], { token_id: string; sn: number | null; valid: number }>(
    'SELECT token_id, sn, valid FROM token_proofs WHERE txid = ? AND vout = ?',
  );
  const putProof = db.prepare('INSERT OR REPLACE INTO token_proofs (txid, vout, token_id, sn, valid) VALUES (?, ?, ?, ?, ?)');

  return {
    /** Records a token (once: a second insert of the same id changes nothing). */
    insert(t: Omit<TokenRow, 'redeemed'>): void {
      insertToken.run({ ...t, splittable: t.splittable ? 1 : 0 });
    },
    get(tokenId: string): TokenRow | null {
      const r = getToken.get(tokenId);
      return r ? toToken(r) : null;
    },
    all(): TokenRow[] {
      return allTokens.all().map(toToken);
    },
    /** A re-issue: more supply, and the transactions of the latest issue. */
    remint(tokenId: string, tokens: number, contractTxid: string, issueTxid: string): void {
      addSupply.run(tokens, contractTxid, issueTxid, tokenId);
    },
    /** A transaction that dissolved tokens (the redeemed amount counts once the books hold it). */
    recordRedemption(txid: string, tokenId: string, tokens: number, sn: number | null): void {
      insertRedemption.run(txid, tokenId, tokens, sn);
      if (sn !== null) redeemSerial.run(tokenId, sn);
    },
    /** Undoes the redemption of a transaction the chain never took. */
    revertRedemption(txid: string): void {
      for (const r of redemptionsOf.all(txid)) if (r.sn !== null) unredeemSerial.run(r.token_id, r.sn);
      removeRedemption.run(txid);
    },

    insertUtxo(u: Omit<TokenUtxo, 'status' | 'reservedBy' | 'spentBy'>, at: number): boolean {
      return insertUtxo.run({ ...u, createdAt: at }).changes > 0;
    },
    utxo(txid: string, vout: number): TokenUtxo | null {
      const r = getUtxo.get(txid, vout);
      return r ? toUtxo(r) : null;
    },
    markSpent(txid: string, vout: number, spentBy: string): void {
      spend.run(spentBy, txid, vout);
    },
    /** Undoes what a transaction the chain never took did: what it spent is held again, what it created is gone. */
    revert(txid: string): TokenUtxo[] {
      const created = outputsOf.all(txid).map(toUtxo);
      removeOutputs.run(txid);
      unspend.run(txid);
      return created;
    },
    outputsOf(txid: string): TokenUtxo[] {
      return outputsOf.all(txid).map(toUtxo);
    },
    /** The token outputs a transaction spent, by the books. */
    spentBy(txid: string): TokenUtxo[] {
      return spentByTx.all(txid).map(toUtxo);
    },
    reserved(): TokenUtxo[] {
      return reservedAll.all().map(toUtxo);
    },
    releaseOne(txid: string, vout: number): void {
      releaseOne.run(txid, vout);
    },
    /** null: no block holds the transaction (any more). */
    confirm(txid: string, height: number | null): void {
      confirm.run(height, txid);
    },
    /** Transactions whose outputs are dated at `height` or above. */
    txidsFrom(height: number): string[] {
      return txidsFrom.all(height).map((r) => r.txid);
    },
    /** Takes token outputs for one spend; false if any was taken (or is not proven) meanwhile. Call inside a transaction. */
    reserve(outputs: readonly { txid: string; vout: number }[], by: string, at: number): boolean {
      return outputs.every((o) => reserve.run(by, at, o.txid, o.vout).changes === 1);
    },
    release(by: string): number {
      return release.run(by).changes;
    },
    /** Everything a wallet holds (reserved included), by token. */
    held(walletRow: number): TokenUtxo[] {
      return held.all(walletRow).map(toUtxo);
    },
    heldAt(address: string): TokenUtxo[] {
      return heldAt.all(address).map(toUtxo);
    },
    spendable(walletRow: number, tokenId: string): TokenUtxo[] {
      return spendable.all(walletRow, tokenId).map(toUtxo);
    },
    unchecked(): TokenUtxo[] {
      return unchecked.all().map(toUtxo);
    },
    setValidity(txid: string, vout: number, validity: TokenUtxo['validity'], sn: number | null): void {
      setValidity.run(validity, sn, txid, vout);
    },
    /** How many outputs of the token the organisation's wallets hold now. */
    outputsHeld(tokenId: string): number {
      return circulating.get(tokenId)?.n ?? 0;
    },

    addSerial(tokenId: string, sn: number, data: string[], txid: string | null, vout: number | null): void {
      insertSerial.run(tokenId, sn, JSON.stringify(data), txid, vout);
    },
    moveSerial(tokenId: string, sn: number, txid: string, vout: number): void {
      moveSerial.run(txid, vout, tokenId, sn);
    },
    serials(tokenId: string): TokenSerial[] {
      return serials.all(tokenId).map((r) => ({
        tokenId: r.token_id,
        sn: r.sn,
        data: JSON.parse(r.data) as string[],
        txid: r.txid,
        vout: r.vout,
        redeemed: r.redeemed === 1,
      }));
    },
    lastSerial(tokenId: string): number {
      return maxSerial.get(tokenId)?.n ?? 0;
    },

    proof(txid: string, vout: number): { tokenId: string; sn: number | null; valid: boolean } | null {
      const r = getProof.get(txid, vout);
      return r ? { tokenId: r.token_id, sn: r.sn, valid: r.valid === 1 } : null;
    },
    putProof(txid: string, vout: number, tokenId: string, sn: number | null, valid: boolean): void {
      putProof.run(txid, vout, tokenId, sn, valid ? 1 : 0);
    },
  };
}
export type TokenRepo = ReturnType<typeof createTokenRepo>;

/** Token templates the organisation installed (licensed STAS scripts): never shipped, kept in the encrypted database. */
export function createTokenTemplateRepo(db: Db) {
  const put = db.prepare('INSERT OR REPLACE INTO token_templates (protocol_id, template, source, installed_at) VALUES (?, ?, ?, ?)');
  const all = db.prepare<[], { protocol_id: string; template: string; source: string; installed_at: number }>(
    'SELECT * FROM token_templates ORDER BY protocol_id',
  );
  const remove = db.prepare('DELETE FROM token_templates WHERE protocol_id = ?');
  return {
    put(protocolId: string, template: string, source: 'api' | 'flag', at: number): void {
      put.run(protocolId, template, source, at);
    },
    all(): { protocolId: string; template: string; source: string; installedAt: number }[] {
      return all.all().map((r) => ({ protocolId: r.protocol_id, template: r.template, source: r.source, installedAt: r.installed_at }));
    },
    remove(protocolId: string): boolean {
      return remove.run(protocolId).changes > 0;
    },
  };
}
export type TokenTemplateRepo = ReturnType<typeof createTokenTemplateRepo>;

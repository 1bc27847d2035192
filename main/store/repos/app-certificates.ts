import type { Db } from '../database.js';

/** A BRC-52 certificate a wallet holds (migration 22): fields and master keyring as given, encrypted. */
export interface StoredCertificate {
  type: string;
  serialNumber: string;
  certifier: string;
  subject: string;
  /** The counterparty the master keyring is encrypted with: the certifier or the app's keyringRevealer. */
  revealer: string;
  revocationOutpoint: string;
  signature: string;
  /** Field name → encrypted value (base64), as the certifier signed it. */
  fields: Record<string, string>;
  /** Field name → the field's key, encrypted for the wallet (base64). */
  masterKeyring: Record<string, string>;
  originator: string;
  protocol: 'direct' | 'issuance';
  acquiredAt: number;
}

/** A held certificate as the Apps view lists it: never its field values or keys. */
export interface CertificateSummary {
  /** The row's id: the handle the Apps view relinquishes it by. */
  id: number;
  walletId: string;
  walletTitle: string;
  type: string;
  serialNumber: string;
  certifier: string;
  subject: string;
  fieldNames: string[];
  originator: string;
  protocol: 'direct' | 'issuance';
  acquiredAt: number;
}

/** What an app may name to pick one certificate (proveCertificate's partial certificate). */
export interface CertificateMatch {
  type?: string;
  serialNumber?: string;
  certifier?: string;
  subject?: string;
  revocationOutpoint?: string;
  signature?: string;
}

interface Raw {
  id: number;
  type: string;
  serial_number: string;
  certifier: string;
  subject: string;
  revealer: string;
  revocation_outpoint: string;
  signature: string;
  originator: string;
  protocol: 'direct' | 'issuance';
  acquired_at: number;
}

interface RawField {
  name: string;
  value: string;
  master_key: string;
}

/** Empty list: no filter (listCertificates' certifiers/types). Lists are passed as JSON to one prepared statement. */
const FILTERED = `(json_array_length(@certifiers) = 0 OR certifier IN (SELECT value FROM json_each(@certifiers)))
  AND (json_array_length(@types) = 0 OR type IN (SELECT value FROM json_each(@types)))`;

const MATCH = `(@type IS NULL OR type = @type) AND (@serialNumber IS NULL OR serial_number = @serialNumber)
  AND (@certifier IS NULL OR certifier = @certifier) AND (@subject IS NULL OR subject = @subject)
  AND (@revocationOutpoint IS NULL OR revocation_outpoint = @revocationOutpoint) AND (@signature IS NULL OR signature = @signature)`;

/** The certificates of each wallet (engine/apps/certificates); a wallet's own rows only, by its row id. */
export function createAppCertificateRepo(db: Db) {
  const del = db.prepare<[number, string, string, string]>(
    'DELETE FROM app_certificates WHERE wallet_row = ? AND type = ? AND serial_number = ? AND certifier = ?',
  );
  const insert = db.prepare(
    `INSERT INTO app_certificates (wallet_row, type, serial_number, certifier, subject, revealer, revocation_outpoint, signature,
       originator, protocol, acquired_at)
     VALUES (@walletRow, @type, @serialNumber, @certifier, @subject, @revealer, @revocationOutpoint, @signature, @originator, @protocol, @acquiredAt)`,
  );
  const insertField = db.prepare<[number | bigint, string, string, string]>(
    'INSERT INTO app_certificate_fields (certificate_id, name, value, master_key) VALUES (?, ?, ?, ?)',
  );
  const fieldsOf = db.prepare<[number], RawField>(
    'SELECT name, value, master_key FROM app_certificate_fields WHERE certificate_id = ? ORDER BY name',
  );
  type Filter = { walletRow: number; certifiers: string; types: string };
  const page = db.prepare<[Filter & { limit: number; offset: number }], Raw>(
    `SELECT * FROM app_certificates WHERE wallet_row = @walletRow AND ${FILTERED} ORDER BY acquired_at, id LIMIT @limit OFFSET @offset`,
  );
  const count = db.prepare<[Filter], { n: number }>(
    `SELECT count(*) AS n FROM app_certificates WHERE wallet_row = @walletRow AND ${FILTERED}`,
  );
  type Match = Required<{ [K in keyof CertificateMatch]: string | null }> & { walletRow: number; limit: number };
  const matching = db.prepare<[Match], Raw>(
    `SELECT * FROM app_certificates WHERE wallet_row = @walletRow AND ${MATCH} ORDER BY id LIMIT @limit`,
  );
  const byId = db.prepare<[number], Raw & { wallet_row: number }>('SELECT * FROM app_certificates WHERE id = ?');
  const delById = db.prepare<[number]>('DELETE FROM app_certificates WHERE id = ?');
  const summaries = db.prepare<[], Raw & { wallet_id: string; title: string; field_names: string | null }>(
    `SELECT c.*, w.wallet_id, w.title, (SELECT group_concat(name, char(10)) FROM (SELECT name FROM app_certificate_fields f WHERE f.certificate_id = c.id ORDER BY name)) AS field_names
     FROM app_certificates c JOIN wallets w ON w.id = c.wallet_row ORDER BY w.wallet_id, c.acquired_at DESC, c.id DESC LIMIT 2000`,
  );

  const toStored = (r: Raw): StoredCertificate => {
    const fields: Record<string, string> = {};
    const masterKeyring: Record<string, string> = {};
    for (const f of fieldsOf.all(r.id)) {
      fields[f.name] = f.value;
      masterKeyring[f.name] = f.master_key;
    }
    return {
      type: r.type,
      serialNumber: r.serial_number,
      certifier: r.certifier,
      subject: r.subject,
      revealer: r.revealer,
      revocationOutpoint: r.revocation_outpoint,
      signature: r.signature,
      fields,
      masterKeyring,
      originator: r.originator,
      protocol: r.protocol,
      acquiredAt: r.acquired_at,
    };
  };

  return {
    /** Stores a verified certificate; one already held with the same type, serial number and certifier is replaced. */
    put(walletRow: number, c: StoredCertificate): void {
      db.transaction(() => {
        del.run(walletRow, c.type, c.serialNumber, c.certifier);
        const { lastInsertRowid } = insert.run({
          walletRow,
          type: c.type,
          serialNumber: c.serialNumber,
          certifier: c.certifier,
          subject: c.subject,
          revealer: c.revealer,
          revocationOutpoint: c.revocationOutpoint,
          signature: c.signature,
          originator: c.originator,
          protocol: c.protocol,
          acquiredAt: c.acquiredAt,
        });
        for (const [name, value] of Object.entries(c.fields)) insertField.run(lastInsertRowid, name, value, c.masterKeyring[name]);
      })();
    },
    /** listCertificates: oldest first, filtered by certifiers and types (an empty list does not filter). */
    list(
      walletRow: number,
      filter: { certifiers: string[]; types: string[]; limit: number; offset: number },
    ): { total: number; certificates: StoredCertificate[] } {
      const f = { walletRow, certifiers: JSON.stringify(filter.certifiers), types: JSON.stringify(filter.types) };
      return {
        total: count.get(f)!.n,
        certificates: page.all({ ...f, limit: filter.limit, offset: filter.offset }).map(toStored),
      };
    },
    /** Up to `limit` certificates matching every property given. */
    matching(walletRow: number, m: CertificateMatch, limit: number): StoredCertificate[] {
      return matching
        .all({
          walletRow,
          limit,
          type: m.type ?? null,
          serialNumber: m.serialNumber ?? null,
          certifier: m.certifier ?? null,
          subject: m.subject ?? null,
          revocationOutpoint: m.revocationOutpoint ?? null,
          signature: m.signature ?? null,
        })
        .map(toStored);
    },
    /** Deletes the certificate and its fields; false when the wallet holds no such certificate. */
    remove(walletRow: number, type: string, serialNumber: string, certifier: string): boolean {
      return del.run(walletRow, type, serialNumber, certifier).changes > 0;
    },
    /** One certificate by its row id, with the wallet row that holds it (the Apps view's relinquish). */
    byId(id: number): (StoredCertificate & { walletRow: number }) | null {
      const r = byId.get(id);
      return r ? { ...toStored(r), walletRow: r.wallet_row } : null;
    },
    removeById(id: number): boolean {
      return delById.run(id).changes > 0;
    },
    /** Every wallet's certificates for the Apps view (field names only), newest first per wallet. */
    summaries(): CertificateSummary[] {
      return summaries.all().map((r) => ({
        id: r.id,
        walletId: r.wallet_id,
        walletTitle: r.title,
        type: r.type,
        serialNumber: r.serial_number,
        certifier: r.certifier,
        subject: r.subject,
        fieldNames: r.field_names ? r.field_names.split('\n') : [],
        originator: r.originator,
        protocol: r.protocol,
        acquiredAt: r.acquired_at,
      }));
    },
  };
}
export type AppCertificateRepo = ReturnType<typeof createAppCertificateRepo>;

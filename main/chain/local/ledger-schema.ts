import type { OpenOptions } from '../../store/database.js';
import type { Migration } from '../../store/migrations.js';

/** The local chain's own database (`chain-local.db`): blocks, transactions, every output and who spent it. */
export const LEDGER_FILE = 'chain-local.db';

export const LEDGER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'ledger',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE blocks (
        height       INTEGER PRIMARY KEY,
        hash         TEXT NOT NULL UNIQUE,
        prev_hash    TEXT NOT NULL,
        merkle_root  TEXT NOT NULL,
        time         INTEGER NOT NULL,
        header       TEXT NOT NULL
      );
      CREATE TABLE txs (
        txid          TEXT PRIMARY KEY,
        raw           TEXT NOT NULL,
        fee           INTEGER NOT NULL,
        size          INTEGER NOT NULL,
        received_at   INTEGER NOT NULL,
        seq           INTEGER NOT NULL,
        block_height  INTEGER REFERENCES blocks(height),
        block_index   INTEGER
      );
      CREATE INDEX txs_mempool ON txs(seq) WHERE block_height IS NULL;
      CREATE INDEX txs_by_block ON txs(block_height, block_index);
      CREATE TABLE outputs (
        txid      TEXT NOT NULL,
        vout      INTEGER NOT NULL,
        satoshis  INTEGER NOT NULL,
        script    TEXT NOT NULL,
        address   TEXT,
        spent_by  TEXT,
        PRIMARY KEY (txid, vout)
      );
      CREATE INDEX outputs_unspent_by_address ON outputs(address) WHERE spent_by IS NULL AND address IS NOT NULL;
      CREATE TABLE address_txs (
        address  TEXT NOT NULL,
        txid     TEXT NOT NULL,
        PRIMARY KEY (address, txid)
      );
    `,
  },
  {
    version: 2,
    name: 'fewer pages per accepted transaction',
    // Each accepted transaction rewrites every index page it touches. Only mined transactions are looked up
    // by block, so the mempool stays out of that index (a transaction enters it once, when mined); and an
    // address's history is one tree keyed by (address, txid) instead of a table plus an index.
    sql: `
      DROP INDEX txs_by_block;
      CREATE INDEX txs_by_block ON txs(block_height, block_index) WHERE block_height IS NOT NULL;
      CREATE TABLE address_txs_keyed (
        address  TEXT NOT NULL,
        txid     TEXT NOT NULL,
        PRIMARY KEY (address, txid)
      ) WITHOUT ROWID;
      INSERT INTO address_txs_keyed (address, txid) SELECT address, txid FROM address_txs;
      DROP TABLE address_txs;
      ALTER TABLE address_txs_keyed RENAME TO address_txs;
    `,
  },
];

/** How the ledger is stored: its own file, schema and cipher (AEGIS: see key-check.ts). */
export const LEDGER_STORE = {
  fileName: LEDGER_FILE,
  migrations: LEDGER_MIGRATIONS,
  cipher: 'aegis',
} as const satisfies Partial<OpenOptions>;

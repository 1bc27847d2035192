import { ROLES } from '../../shared/roles.js';
import type { Migration } from './migrations.js';
import { sqlStringList } from './sql-list.js';

/**
 * The schema, one migration per change; never edit a released migration, add the next one.
 * The users' role CHECK is written from shared/roles.ts, which gives the released text exactly. A CHECK
 * stays in each database's stored schema as it was created, so a new role also needs a migration that
 * widens it in existing databases (test/unit/store-roles.test.ts fails until there is one).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'organisation, users, sessions',
    sql: `
      CREATE TABLE organisation (
        id          INTEGER PRIMARY KEY CHECK (id = 1),
        service_id  TEXT NOT NULL UNIQUE,
        name        TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );
      CREATE TABLE users (
        uid            TEXT PRIMARY KEY,
        email          TEXT NOT NULL,
        password_hash  TEXT NOT NULL,
        role           TEXT NOT NULL CHECK (role IN (${sqlStringList(ROLES)})),
        first_name     TEXT NOT NULL DEFAULT '',
        last_name      TEXT NOT NULL DEFAULT '',
        title          TEXT NOT NULL DEFAULT '',
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        deleted_at     INTEGER
      );
      CREATE UNIQUE INDEX users_active_email ON users(email) WHERE deleted_at IS NULL;
      CREATE TABLE sessions (
        token_hash  TEXT PRIMARY KEY,
        uid         TEXT NOT NULL REFERENCES users(uid),
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        revoked_at  INTEGER
      );
      CREATE INDEX sessions_by_uid ON sessions(uid);
    `,
  },
  {
    version: 2,
    name: 'api keys, audit log',
    sql: `
      CREATE TABLE api_keys (
        key_id        TEXT PRIMARY KEY,
        uid           TEXT NOT NULL REFERENCES users(uid),
        key_hash      TEXT NOT NULL UNIQUE,
        label         TEXT NOT NULL DEFAULT '',
        created_at    INTEGER NOT NULL,
        last_used_at  INTEGER,
        revoked_at    INTEGER
      );
      CREATE INDEX api_keys_by_uid ON api_keys(uid);
      CREATE TABLE audit_log (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        at          INTEGER NOT NULL,
        actor_uid   TEXT,
        actor_email TEXT,
        action      TEXT NOT NULL,
        target      TEXT,
        outcome     TEXT NOT NULL CHECK (outcome IN ('success','error')),
        code        TEXT,
        client      TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'wallets, members, addresses, utxos, settings',
    sql: `
      CREATE TABLE settings (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
      );
      CREATE TABLE wallets (
        id               INTEGER PRIMARY KEY,
        wallet_id        TEXT NOT NULL,
        owner_uid        TEXT NOT NULL REFERENCES users(uid),
        title            TEXT NOT NULL,
        logo             TEXT NOT NULL DEFAULT '',
        type             TEXT NOT NULL CHECK (type IN ('standard','secure','escrow','shared')),
        derivation_path  TEXT NOT NULL,
        account_xpub     TEXT NOT NULL,
        sealed_seed      TEXT NOT NULL,
        paymail_alias    TEXT,
        paymail_domain   TEXT,
        paymail_active   INTEGER NOT NULL DEFAULT 0,
        created_at       INTEGER NOT NULL,
        UNIQUE (owner_uid, wallet_id)
      );
      CREATE UNIQUE INDEX wallets_paymail ON wallets(paymail_alias, paymail_domain) WHERE paymail_alias IS NOT NULL;
      CREATE INDEX wallets_by_id ON wallets(wallet_id);
      CREATE TABLE wallet_members (
        wallet_row  INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        uid         TEXT NOT NULL REFERENCES users(uid),
        PRIMARY KEY (wallet_row, uid)
      );
      CREATE INDEX wallet_members_by_uid ON wallet_members(uid);
      CREATE TABLE addresses (
        wallet_row  INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        chain       INTEGER NOT NULL CHECK (chain IN (0, 1)),
        idx         INTEGER NOT NULL,
        address     TEXT NOT NULL,
        used        INTEGER NOT NULL DEFAULT 0,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (wallet_row, chain, idx)
      );
      CREATE INDEX addresses_by_address ON addresses(address);
      CREATE TABLE utxos (
        wallet_row  INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        txid        TEXT NOT NULL,
        vout        INTEGER NOT NULL,
        satoshis    INTEGER NOT NULL CHECK (satoshis >= 0),
        script      TEXT NOT NULL,
        chain       INTEGER,
        idx         INTEGER,
        status      TEXT NOT NULL DEFAULT 'available' CHECK (status IN ('available','reserved','spent')),
        PRIMARY KEY (txid, vout)
      );
      CREATE INDEX utxos_by_wallet ON utxos(wallet_row, status);
    `,
  },
  {
    version: 4,
    name: 'wallet sync: output heights, wallet history, exchange rates',
    sql: `
      ALTER TABLE utxos ADD COLUMN height INTEGER;
      ALTER TABLE utxos ADD COLUMN address TEXT;
      ALTER TABLE utxos ADD COLUMN spent_by TEXT;
      CREATE TABLE wallet_txs (
        wallet_row    INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        txid          TEXT NOT NULL,
        direction     TEXT NOT NULL CHECK (direction IN ('in','out','self')),
        amount        INTEGER NOT NULL,
        fee           INTEGER,
        counterparty  TEXT,
        memo          TEXT,
        height        INTEGER,
        time          INTEGER NOT NULL,
        PRIMARY KEY (wallet_row, txid)
      );
      CREATE INDEX wallet_txs_by_time ON wallet_txs(wallet_row, time DESC);
      CREATE TABLE rates (
        currency    TEXT PRIMARY KEY,
        rate        REAL NOT NULL CHECK (rate > 0),
        source      TEXT NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      -- The local network's starting rate table (price of 1 BSV); users edit it, the network replaces USD.
      INSERT INTO rates (currency, rate, source, updated_at) VALUES
        ('USD', 40, 'default', 0), ('EUR', 37, 'default', 0), ('GBP', 32, 'default', 0), ('CAD', 55, 'default', 0),
        ('AUD', 61, 'default', 0), ('CHF', 35, 'default', 0), ('JPY', 6100, 'default', 0);
    `,
  },
  {
    version: 5,
    name: 'payments: coin reservations, paymail references, idempotency keys',
    sql: `
      ALTER TABLE utxos ADD COLUMN reserved_by TEXT;
      ALTER TABLE utxos ADD COLUMN reserved_at INTEGER;
      CREATE INDEX utxos_reserved ON utxos(reserved_by) WHERE reserved_by IS NOT NULL;
      CREATE TABLE paymail_refs (
        reference   TEXT PRIMARY KEY,
        wallet_row  INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        outputs     TEXT NOT NULL,
        satoshis    INTEGER NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        txid        TEXT
      );
      CREATE TABLE idempotency (
        uid         TEXT NOT NULL,
        key         TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('pending','done')),
        response    TEXT,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (uid, key)
      );
    `,
  },
  {
    version: 6,
    name: 'payment attempts: the signed transaction is kept until its outcome is known',
    sql: `
      CREATE TABLE payment_attempts (
        attempt       TEXT PRIMARY KEY,
        wallet_row    INTEGER NOT NULL,
        txid          TEXT NOT NULL,
        raw           TEXT NOT NULL,
        state         TEXT NOT NULL CHECK (state IN ('sending','unknown','done','failed')),
        result        TEXT NOT NULL,
        memo          TEXT,
        counterparty  TEXT,
        created_at    INTEGER NOT NULL
      );
      CREATE INDEX payment_attempts_open ON payment_attempts(state) WHERE state IN ('sending','unknown');
      ALTER TABLE idempotency ADD COLUMN attempt TEXT;
      ALTER TABLE idempotency ADD COLUMN request_hash TEXT;
    `,
  },
  {
    version: 7,
    name: 'payment states: the books follow the chain (pending until the chain has seen a payment, failed with a reason)',
    sql: `
      CREATE TABLE payment_attempts_v7 (
        attempt           TEXT PRIMARY KEY,
        wallet_row        INTEGER NOT NULL,
        txid              TEXT NOT NULL,
        raw               TEXT NOT NULL,
        state             TEXT NOT NULL CHECK (state IN ('sending','unknown','pending','cancelling','done','failed')),
        result            TEXT NOT NULL,
        memo              TEXT,
        counterparty      TEXT,
        created_at        INTEGER NOT NULL,
        delivered_at      INTEGER,
        peer_txid         TEXT,
        failure           TEXT,
        change_addresses  TEXT NOT NULL DEFAULT '[]',
        cancel_raw        TEXT,
        cancel_txid       TEXT
      );
      INSERT INTO payment_attempts_v7 (attempt, wallet_row, txid, raw, state, result, memo, counterparty, created_at)
        SELECT attempt, wallet_row, txid, raw, state, result, memo, counterparty, created_at FROM payment_attempts;
      DROP TABLE payment_attempts;
      ALTER TABLE payment_attempts_v7 RENAME TO payment_attempts;
      CREATE INDEX payment_attempts_open ON payment_attempts(state) WHERE state IN ('sending','unknown','pending','cancelling');
      CREATE INDEX payment_attempts_by_txid ON payment_attempts(txid);
      ALTER TABLE wallet_txs ADD COLUMN state TEXT NOT NULL DEFAULT 'seen' CHECK (state IN ('unseen','seen','failed'));
      ALTER TABLE wallet_txs ADD COLUMN failure TEXT;
      ALTER TABLE wallet_txs ADD COLUMN peer_txid TEXT;
      ALTER TABLE wallet_txs ADD COLUMN unseen_since INTEGER;
      ALTER TABLE wallet_txs ADD COLUMN checked_at INTEGER;
      CREATE INDEX wallet_txs_unconfirmed ON wallet_txs(txid) WHERE height IS NULL AND state <> 'failed';
      CREATE INDEX utxos_spent_by ON utxos(spent_by) WHERE spent_by IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: 'paymail destinations: when each receive address was last handed out, so unpaid ones are reused within the gap limit',
    sql: `
      ALTER TABLE addresses ADD COLUMN issued_at INTEGER;
      CREATE INDEX paymail_refs_expiry ON paymail_refs(expires_at) WHERE txid IS NULL;
      -- Destinations may share an address now, so one transaction must not pay two references.
      CREATE UNIQUE INDEX paymail_refs_txid ON paymail_refs(txid) WHERE txid IS NOT NULL;
    `,
  },
  {
    version: 9,
    name: 'tokens: issued and held tokens, their outputs, NFT serials, proofs of lineage, installed templates',
    sql: `
      CREATE TABLE tokens (
        token_id           TEXT PRIMARY KEY,
        protocol           TEXT NOT NULL,
        symbol             TEXT NOT NULL,
        name               TEXT NOT NULL,
        redemption_pkh     TEXT NOT NULL,
        schema             TEXT NOT NULL,
        supply             INTEGER NOT NULL CHECK (supply >= 0),
        sats_per_token     INTEGER NOT NULL CHECK (sats_per_token > 0),
        decimals           INTEGER NOT NULL,
        splittable         INTEGER NOT NULL,
        issuer_wallet_row  INTEGER REFERENCES wallets(id) ON DELETE SET NULL,
        issuer_chain       INTEGER,
        issuer_idx         INTEGER,
        contract_txid      TEXT,
        issue_txid         TEXT,
        created_at         INTEGER NOT NULL
      );
      CREATE TABLE token_utxos (
        txid         TEXT NOT NULL,
        vout         INTEGER NOT NULL,
        token_id     TEXT NOT NULL,
        protocol     TEXT NOT NULL,
        wallet_row   INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        address      TEXT NOT NULL,
        chain        INTEGER,
        idx          INTEGER,
        satoshis     INTEGER NOT NULL CHECK (satoshis > 0),
        script       TEXT NOT NULL,
        sn           INTEGER,
        status       TEXT NOT NULL DEFAULT 'available' CHECK (status IN ('available','reserved','spent')),
        reserved_by  TEXT,
        reserved_at  INTEGER,
        spent_by     TEXT,
        height       INTEGER,
        validity     TEXT NOT NULL DEFAULT 'unchecked' CHECK (validity IN ('unchecked','valid','forged')),
        created_at   INTEGER NOT NULL,
        PRIMARY KEY (txid, vout)
      );
      CREATE INDEX token_utxos_by_wallet ON token_utxos(wallet_row, status);
      CREATE INDEX token_utxos_by_token ON token_utxos(token_id, status);
      CREATE INDEX token_utxos_spent_by ON token_utxos(spent_by) WHERE spent_by IS NOT NULL;
      CREATE INDEX token_utxos_reserved ON token_utxos(reserved_by) WHERE reserved_by IS NOT NULL;
      CREATE TABLE token_serials (
        token_id  TEXT NOT NULL,
        sn        INTEGER NOT NULL CHECK (sn > 0),
        data      TEXT NOT NULL,
        txid      TEXT,
        vout      INTEGER,
        redeemed  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (token_id, sn)
      );
      CREATE TABLE token_proofs (
        txid      TEXT NOT NULL,
        vout      INTEGER NOT NULL,
        token_id  TEXT NOT NULL,
        sn        INTEGER,
        valid     INTEGER NOT NULL,
        PRIMARY KEY (txid, vout)
      );
      CREATE TABLE token_redemptions (
        txid      TEXT PRIMARY KEY,
        token_id  TEXT NOT NULL,
        tokens    INTEGER NOT NULL CHECK (tokens > 0),
        sn        INTEGER
      );
      CREATE INDEX token_redemptions_by_token ON token_redemptions(token_id);
      CREATE TABLE token_templates (
        protocol_id   TEXT PRIMARY KEY,
        template      TEXT NOT NULL,
        source        TEXT NOT NULL,
        installed_at  INTEGER NOT NULL
      );
    `,
  },
  {
    version: 10,
    name: 'history records who paid the fee',
    // Who paid a payment's network fee (the wallet, or the organisation's fee manager), for history.
    sql: `ALTER TABLE wallet_txs ADD COLUMN fee_paid_by TEXT;`,
  },
  {
    version: 11,
    name: 'spendable coins indexed by value, for coin selection at scale',
    sql: `CREATE INDEX utxos_available_by_value ON utxos(wallet_row, satoshis) WHERE status = 'available';`,
  },
  {
    version: 12,
    name: 'history by txid, and history pages in index order, for organisation-scale wallets',
    sql: `
      CREATE INDEX wallet_txs_by_txid ON wallet_txs(txid);
      CREATE INDEX wallet_txs_page ON wallet_txs(wallet_row, (height IS NULL), height, time);
    `,
  },
  {
    version: 13,
    name: 'reserved coins indexed, for the start-up release of reservations no payment holds',
    // Every start lists the reserved coins (and token coins) to free those whose payment was never
    // signed; without these it read every coin the organisation ever had (~100 ms at 100,000).
    sql: `
      CREATE INDEX utxos_reserved_coins ON utxos(status) WHERE status = 'reserved';
      CREATE INDEX token_utxos_reserved_coins ON token_utxos(status) WHERE status = 'reserved';
    `,
  },
  {
    version: 14,
    name: 'P2P references say what they are paid in: BSV, or one token',
    // A reference handed out for a token send is paid only by that token's outputs, a BSV one only by
    // plain satoshis; before, any recognised token output counted as BSV.
    sql: `
      ALTER TABLE paymail_refs ADD COLUMN kind TEXT NOT NULL DEFAULT 'bsv' CHECK (kind IN ('bsv','token'));
      ALTER TABLE paymail_refs ADD COLUMN token_id TEXT;
    `,
  },
  {
    // Numbered 15 by the integrator (migrations are contiguous); the second factor's is 16.
    version: 15,
    name: 'invoices: payment requests, each on its own receive address',
    // `state` is what happened to it (open, paid, cancelled); "expired" is an open one past expires_at,
    // computed when read. The partial index finds the open invoice an incoming payment answers.
    sql: `
      CREATE TABLE invoices (
        id              TEXT PRIMARY KEY,
        wallet_row      INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        created_by      TEXT NOT NULL,
        address         TEXT NOT NULL,
        satoshis        INTEGER NOT NULL CHECK (satoshis > 0),
        currency        TEXT,
        currency_amount TEXT,
        rate            REAL,
        memo            TEXT,
        description     TEXT,
        merchant_data   TEXT,
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        state           TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open','paid','cancelled')),
        paid_txid       TEXT,
        paid_at         INTEGER,
        cancelled_at    INTEGER
      );
      CREATE INDEX invoices_open_by_address ON invoices(address) WHERE state = 'open';
      CREATE INDEX invoices_by_wallet ON invoices(wallet_row, created_at);
      CREATE INDEX invoices_by_txid ON invoices(paid_txid) WHERE paid_txid IS NOT NULL;
    `,
  },
  {
    version: 16,
    name: 'two-step sign-in: a TOTP secret per user and single-use recovery codes',
    // The secret is kept as the HMAC key it is (the database is encrypted); `last_step` refuses a code's
    // replay. Recovery codes are kept only as salted hashes.
    sql: `
      CREATE TABLE second_factors (
        uid           TEXT PRIMARY KEY REFERENCES users(uid),
        secret        TEXT NOT NULL,
        state         TEXT NOT NULL CHECK (state IN ('pending','active')),
        created_at    INTEGER NOT NULL,
        confirmed_at  INTEGER,
        last_step     INTEGER
      );
      CREATE TABLE recovery_codes (
        uid        TEXT NOT NULL REFERENCES users(uid),
        code_hash  TEXT NOT NULL,
        used_at    INTEGER,
        PRIMARY KEY (uid, code_hash)
      );
    `,
  },
  {
    version: 17,
    name: 'tamper-evident audit: each entry hashes the one before; daily signed checkpoints',
    // `hash` = SHA-256 over the previous entry's hash and this entry's canonical form (audit repo); entries
    // written before this version are chained once, in id order, when the store opens. A checkpoint closes a
    // day (UTC) with the hash of its last entry, signed by the organisation's audit key; `anchor_txid` when the
    // organisation has its checkpoints written on chain.
    sql: `
      ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
      ALTER TABLE audit_log ADD COLUMN hash TEXT;
      CREATE TABLE audit_checkpoints (
        day          TEXT PRIMARY KEY,
        last_id      INTEGER NOT NULL,
        last_hash    TEXT NOT NULL,
        signature    TEXT NOT NULL,
        public_key   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        anchor_txid  TEXT
      );
    `,
  },
  {
    version: 18,
    name: 'payee book: named destinations, usable after a cooling-off period',
    // `usable_from`: when a new or changed payee may first be paid without a rule's approvers (created or
    // changed + the organisation's cooling-off period). Removed payees are kept (state) for the audit's sake.
    sql: `
      CREATE TABLE payees (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        kind         TEXT NOT NULL CHECK (kind IN ('paymail','address','identity_key')),
        destination  TEXT NOT NULL,
        note         TEXT,
        created_by   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        updated_by   TEXT,
        updated_at   INTEGER NOT NULL,
        usable_from  INTEGER NOT NULL,
        state        TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active','removed'))
      );
      CREATE UNIQUE INDEX payees_active_destination ON payees(kind, destination) WHERE state = 'active';
    `,
  },
  {
    version: 19,
    name: 'policies (versioned, four-eyes), value moves counted against limits, payments awaiting approval',
    // A policy version is proposed, then active (approved by another admin when there are two or more), or
    // rejected; the active one with the highest version is in force. `value_moves` counts what each move takes
    // from a window (per initiator, per wallet), including moves awaiting approval; a move that ends without
    // sending anything is released. An approval request keeps the operation's reviewed input (never a secret).
    sql: `
      CREATE TABLE policy_versions (
        version      INTEGER PRIMARY KEY,
        document     TEXT NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('proposed','active','rejected','superseded')),
        proposed_by  TEXT NOT NULL,
        proposed_at  INTEGER NOT NULL,
        decided_by   TEXT,
        decided_at   INTEGER,
        note         TEXT
      );
      CREATE TABLE value_moves (
        id             INTEGER PRIMARY KEY,
        at             INTEGER NOT NULL,
        initiator      TEXT NOT NULL,
        wallet_row     INTEGER NOT NULL,
        asset          TEXT NOT NULL,
        amount         INTEGER NOT NULL CHECK (amount >= 0),
        state          TEXT NOT NULL CHECK (state IN ('held','awaiting','done','released')),
        approval_id    TEXT
      );
      CREATE INDEX value_moves_by_initiator ON value_moves(initiator, asset, at) WHERE state != 'released';
      CREATE INDEX value_moves_by_wallet ON value_moves(wallet_row, asset, at) WHERE state != 'released';
      CREATE TABLE approval_requests (
        id               TEXT PRIMARY KEY,
        operation        TEXT NOT NULL,
        input            TEXT NOT NULL,
        review           TEXT NOT NULL,
        wallet_row       INTEGER NOT NULL,
        initiator_uid    TEXT NOT NULL,
        initiator_key    TEXT,
        policy_version   INTEGER NOT NULL,
        rule             TEXT NOT NULL,
        needed           INTEGER NOT NULL CHECK (needed >= 1),
        approver_roles   TEXT NOT NULL,
        approver_uids    TEXT NOT NULL,
        state            TEXT NOT NULL CHECK (state IN ('awaiting_approval','approved','sent','failed','rejected','expired','cancelled')),
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        decided_at       INTEGER,
        txid             TEXT,
        error            TEXT
      );
      CREATE INDEX approval_requests_open ON approval_requests(created_at) WHERE state = 'awaiting_approval';
      CREATE TABLE approval_votes (
        request_id  TEXT NOT NULL REFERENCES approval_requests(id),
        voter_uid   TEXT NOT NULL,
        vote        TEXT NOT NULL CHECK (vote IN ('approve','reject')),
        at          INTEGER NOT NULL,
        PRIMARY KEY (request_id, voter_uid)
      );
    `,
  },
  {
    version: 20,
    name: 'BRC-100 applications: each originator that called the wallet interface, and whether it is allowed',
    // One row per originator (host[:port], lower case). `wallet_id` null: the default wallet for apps (the
    // `apps.default-wallet` setting, else the organisation's default). `calls` counts calls answered.
    sql: `
      CREATE TABLE apps (
        originator     TEXT PRIMARY KEY,
        state          TEXT NOT NULL CHECK (state IN ('pending','allowed','denied','revoked')),
        wallet_id      TEXT,
        first_seen_at  INTEGER NOT NULL,
        decided_by     TEXT,
        decided_at     INTEGER,
        last_call_at   INTEGER,
        calls          INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 21,
    name: 'BRC-100 actions, output baskets and tags, and wallet payments (BRC-29) received by apps',
    // An action is a transaction an app asked the wallet to create (or internalized); `reference` names it to
    // signAction/abortAction; `txid` is known once it is signed. `satoshis` is the net change of the wallet's
    // balance (negative when it pays). `attempt` names the reservation of the wallet's funding coins (utxos).
    // `app_action_io` keeps the inputs and outputs as the app described them (listActions' include options).
    // `app_outputs` holds outputs an app put in a basket (BRC-46): they are never rows of `utxos`, so
    // Keystead's own payments never spend them; only an action naming them does. `utxos.brc29` marks a wallet
    // payment internalized over BRC-100 (JSON: senderIdentityKey, derivationPrefix, derivationSuffix): it
    // belongs to the wallet and is signed with the BRC-42 child of the wallet's BRC-100 root key.
    sql: `
      CREATE TABLE app_actions (
        id            INTEGER PRIMARY KEY,
        wallet_row    INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        originator    TEXT NOT NULL,
        reference     TEXT NOT NULL UNIQUE,
        txid          TEXT,
        status        TEXT NOT NULL CHECK (status IN ('unsigned','nosend','unprocessed','sending','unproven','completed','failed','aborted')),
        is_outgoing   INTEGER NOT NULL CHECK (is_outgoing IN (0, 1)),
        satoshis      INTEGER NOT NULL,
        description   TEXT NOT NULL,
        version       INTEGER NOT NULL,
        lock_time     INTEGER NOT NULL,
        raw_tx        BLOB,
        input_beef    BLOB,
        attempt       TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX app_actions_by_wallet ON app_actions(wallet_row, created_at DESC);
      CREATE UNIQUE INDEX app_actions_by_txid ON app_actions(wallet_row, txid) WHERE txid IS NOT NULL;
      CREATE TABLE app_action_labels (
        action_id  INTEGER NOT NULL REFERENCES app_actions(id) ON DELETE CASCADE,
        label      TEXT NOT NULL,
        PRIMARY KEY (action_id, label)
      );
      CREATE INDEX app_action_labels_by_label ON app_action_labels(label);
      CREATE TABLE app_action_io (
        action_id           INTEGER NOT NULL REFERENCES app_actions(id) ON DELETE CASCADE,
        kind                TEXT NOT NULL CHECK (kind IN ('input','output')),
        idx                 INTEGER NOT NULL,
        outpoint            TEXT,
        satoshis            INTEGER NOT NULL CHECK (satoshis >= 0),
        script              TEXT,
        unlocking_script    TEXT,
        description         TEXT,
        basket              TEXT,
        tags                TEXT,
        custom_instructions TEXT,
        sequence            INTEGER,
        PRIMARY KEY (action_id, kind, idx)
      );
      CREATE TABLE app_outputs (
        id                  INTEGER PRIMARY KEY,
        wallet_row          INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        basket              TEXT NOT NULL,
        txid                TEXT NOT NULL,
        vout                INTEGER NOT NULL,
        satoshis            INTEGER NOT NULL CHECK (satoshis >= 0),
        script              TEXT NOT NULL,
        description         TEXT,
        custom_instructions TEXT,
        action_id           INTEGER REFERENCES app_actions(id) ON DELETE SET NULL,
        originator          TEXT NOT NULL,
        status              TEXT NOT NULL DEFAULT 'available' CHECK (status IN ('available','reserved','spent','relinquished')),
        reserved_by         TEXT,
        spent_by            TEXT,
        created_at          INTEGER NOT NULL,
        UNIQUE (wallet_row, txid, vout)
      );
      CREATE INDEX app_outputs_by_basket ON app_outputs(wallet_row, basket, status);
      CREATE TABLE app_output_tags (
        output_id  INTEGER NOT NULL REFERENCES app_outputs(id) ON DELETE CASCADE,
        tag        TEXT NOT NULL,
        PRIMARY KEY (output_id, tag)
      );
      CREATE INDEX app_output_tags_by_tag ON app_output_tags(tag);
      ALTER TABLE utxos ADD COLUMN brc29 TEXT;
    `,
  },
  {
    version: 22,
    name: 'BRC-100 identity certificates (BRC-52) each wallet holds, with their encrypted fields and master keyring',
    // A certificate an app acquired for a wallet (directly, or by issuance from a certifier), kept as the
    // certifier signed it: field values stay encrypted (base64) and each field's key stays encrypted for the
    // wallet (`master_key`, the master keyring), so nothing here reads a field without the wallet's root key.
    // `revealer` is the counterparty the master keyring was encrypted with (the certifier, or the key the app
    // named as keyringRevealer). `originator` is the app that acquired it. Relinquishing deletes the rows; the
    // audit trail keeps that it happened.
    sql: `
      CREATE TABLE app_certificates (
        id                   INTEGER PRIMARY KEY,
        wallet_row           INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        type                 TEXT NOT NULL,
        serial_number        TEXT NOT NULL,
        certifier            TEXT NOT NULL,
        subject              TEXT NOT NULL,
        revealer             TEXT NOT NULL,
        revocation_outpoint  TEXT NOT NULL,
        signature            TEXT NOT NULL,
        originator           TEXT NOT NULL,
        protocol             TEXT NOT NULL CHECK (protocol IN ('direct','issuance')),
        acquired_at          INTEGER NOT NULL,
        UNIQUE (wallet_row, type, serial_number, certifier)
      );
      CREATE INDEX app_certificates_by_wallet ON app_certificates(wallet_row, certifier, type);
      CREATE TABLE app_certificate_fields (
        certificate_id  INTEGER NOT NULL REFERENCES app_certificates(id) ON DELETE CASCADE,
        name            TEXT NOT NULL,
        value           TEXT NOT NULL,
        master_key      TEXT NOT NULL,
        PRIMARY KEY (certificate_id, name)
      );
    `,
  },
  {
    version: 23,
    name: "BRC-100 apps' permissions: protocols, baskets, certificates and assets granted or denied, spending authorisations and holds",
    // One row per grant, denial or pending request of an app (by originator; an admin may grant before the app
    // first calls). `subject`: the protocol name, basket, certificate type, asset (`ordinal`, `token:<id>`), or
    // for a spend the action's description. `security_level` and `counterparty` for protocols (level 2 grants
    // are per counterparty; `*` every counterparty; a privileged key's grant is `privileged:<name>`, at any
    // level); `fields` JSON for certificates (null: every field).
    // `satoshis` for a spend request: one action above the month's remainder (kind 'spend', used once).
    // `app_spend_limits`: the monthly authorisation (satoshis, or an amount in a currency of the rate table).
    // `app_spend_holds`: what each action counted; `request_id` set when it went through on its own grant.
    sql: `
      CREATE TABLE app_permissions (
        id              INTEGER PRIMARY KEY,
        originator      TEXT NOT NULL,
        kind            TEXT NOT NULL CHECK (kind IN ('protocol','basket','certificate','asset','spend')),
        subject         TEXT NOT NULL,
        security_level  INTEGER CHECK (security_level IN (0, 1, 2)),
        counterparty    TEXT,
        fields          TEXT,
        satoshis        INTEGER CHECK (satoshis >= 0),
        purpose         TEXT,
        state           TEXT NOT NULL CHECK (state IN ('pending','granted','denied','used')),
        requested_at    INTEGER,
        decided_by      TEXT,
        decided_at      INTEGER,
        expires_at      INTEGER
      );
      CREATE INDEX app_permissions_by_app ON app_permissions(originator, kind, subject);
      CREATE INDEX app_permissions_pending ON app_permissions(requested_at) WHERE state = 'pending';
      CREATE TABLE app_spend_limits (
        originator  TEXT PRIMARY KEY,
        satoshis    INTEGER CHECK (satoshis >= 0),
        currency    TEXT,
        amount      TEXT,
        set_by      TEXT NOT NULL,
        set_at      INTEGER NOT NULL,
        CHECK ((satoshis IS NULL) != (currency IS NULL AND amount IS NULL))
      );
      CREATE TABLE app_spend_holds (
        id          INTEGER PRIMARY KEY,
        originator  TEXT NOT NULL,
        at          INTEGER NOT NULL,
        satoshis    INTEGER NOT NULL CHECK (satoshis >= 0),
        request_id  INTEGER,
        released    INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1))
      );
      CREATE INDEX app_spend_holds_by_app ON app_spend_holds(originator, at) WHERE released = 0;
    `,
  },
  {
    version: 24,
    name: '1Sat Ordinals: inscriptions and BSV-21 token outputs the wallets hold, and the local index of proven outputs',
    // `ordinal_outputs`: one row per output carrying an `ord` envelope that pays one of our addresses (never a
    // coin in `utxos`). `bsv21_op`/`token_id`/`amount` from its BSV-21 inscription (amount: decimal text of an
    // unsigned 64-bit integer); `validity` 'none' for other inscriptions, else valid/invalid/pending as the
    // ordinals index decided. Reserved and spent like coins (`reserved_by` an attempt, `spent_by` a txid).
    // `bsv21_tokens`: deploy facts of tokens seen (from their deploy+mint inscription).
    // `bsv21_proofs`: the local index's verdicts (embedded chain): each token output it proved valid or
    // invalid, so later walks stop there. `ordinal_origins`: a 1-satoshi output's traced origin inscription
    // (an ordinal moved as a plain P2PKH), '' when none.
    sql: `
      CREATE TABLE ordinal_outputs (
        txid          TEXT NOT NULL,
        vout          INTEGER NOT NULL,
        wallet_row    INTEGER NOT NULL REFERENCES wallets(id),
        address       TEXT NOT NULL,
        chain         INTEGER,
        idx           INTEGER,
        satoshis      INTEGER NOT NULL,
        script        TEXT NOT NULL,
        content_type  TEXT NOT NULL,
        content_size  INTEGER NOT NULL,
        bsv21_op      TEXT CHECK (bsv21_op IN ('deploy+mint','transfer','burn')),
        token_id      TEXT,
        amount        TEXT,
        validity      TEXT NOT NULL CHECK (validity IN ('none','valid','invalid','pending')),
        height        INTEGER,
        status        TEXT NOT NULL DEFAULT 'available' CHECK (status IN ('available','reserved','spent')),
        reserved_by   TEXT,
        reserved_at   INTEGER,
        spent_by      TEXT,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (txid, vout)
      );
      CREATE INDEX ordinal_outputs_by_wallet ON ordinal_outputs(wallet_row, status);
      CREATE INDEX ordinal_outputs_by_token ON ordinal_outputs(token_id, status) WHERE token_id IS NOT NULL;
      CREATE INDEX ordinal_outputs_spent_by ON ordinal_outputs(spent_by) WHERE spent_by IS NOT NULL;
      CREATE INDEX ordinal_outputs_reserved ON ordinal_outputs(reserved_by) WHERE reserved_by IS NOT NULL;
      CREATE TABLE bsv21_tokens (
        token_id     TEXT PRIMARY KEY,
        sym          TEXT,
        dec          INTEGER NOT NULL CHECK (dec BETWEEN 0 AND 18),
        supply       TEXT NOT NULL,
        icon         TEXT,
        created_at   INTEGER NOT NULL
      );
      CREATE TABLE bsv21_proofs (
        txid       TEXT NOT NULL,
        vout       INTEGER NOT NULL,
        token_id   TEXT NOT NULL,
        op         TEXT NOT NULL,
        amount     TEXT NOT NULL,
        valid      INTEGER NOT NULL CHECK (valid IN (0, 1)),
        proven_at  INTEGER NOT NULL,
        PRIMARY KEY (txid, vout)
      );
      CREATE TABLE ordinal_origins (
        txid     TEXT NOT NULL,
        vout     INTEGER NOT NULL,
        origin   TEXT NOT NULL,
        PRIMARY KEY (txid, vout)
      );
    `,
  },
  {
    version: 25,
    name: 'Swap offers: tokens offered for BSV or another token, as partially signed transactions',
    // One row per offer a wallet made (issue 30 §2). `offered_txid`/`offered_vout`: the token output offered
    // (reserved in token_utxos while the offer is open, by `offer:<id>`). `wanted`, `offered`: JSON of what
    // it asks and gives (shared/contracts/swaps.ts). `hex`: the offer transaction (the maker's signed input 0,
    // the asked output 0). `kept`: made by exchangeOffer, taken by id (exchangeSwap) with `payments` (JSON).
    // `taken_txid`: the swap, or the withdrawal, that spent the offered output.
    sql: `
        CREATE TABLE swap_offers (
          id            TEXT PRIMARY KEY,
          wallet_row    INTEGER NOT NULL REFERENCES wallets(id),
          offered_txid  TEXT NOT NULL,
          offered_vout  INTEGER NOT NULL,
          token_id      TEXT NOT NULL,
          offered       TEXT NOT NULL,
          wanted        TEXT NOT NULL,
          payments      TEXT NOT NULL DEFAULT '[]',
          hex           TEXT NOT NULL,
          kept          INTEGER NOT NULL DEFAULT 0 CHECK (kept IN (0, 1)),
          status        TEXT NOT NULL CHECK (status IN ('open','taken','withdrawn')),
          created_at    INTEGER NOT NULL,
          taken_txid    TEXT,
          closed_at     INTEGER
        );
        CREATE INDEX swap_offers_by_wallet ON swap_offers(wallet_row, created_at);
        CREATE UNIQUE INDEX swap_offers_open_output ON swap_offers(offered_txid, offered_vout) WHERE status = 'open';
      `,
  },
  {
    version: 26,
    name: "approved payments claimed before they are carried out: the 'sending' state",
    // An approved request is moved to `sending` in one conditional UPDATE before its operation runs, so only
    // one caller carries it out (policies/approval-ops.ts); one left `sending` by a crash follows its payment.
    // A CHECK cannot be altered: both tables are rebuilt (the votes too, as they reference the requests; the
    // renames carry the votes' reference over to the new requests table).
    sql: `
      CREATE TABLE approval_requests_v26 (
        id               TEXT PRIMARY KEY,
        operation        TEXT NOT NULL,
        input            TEXT NOT NULL,
        review           TEXT NOT NULL,
        wallet_row       INTEGER NOT NULL,
        initiator_uid    TEXT NOT NULL,
        initiator_key    TEXT,
        policy_version   INTEGER NOT NULL,
        rule             TEXT NOT NULL,
        needed           INTEGER NOT NULL CHECK (needed >= 1),
        approver_roles   TEXT NOT NULL,
        approver_uids    TEXT NOT NULL,
        state            TEXT NOT NULL CHECK (state IN ('awaiting_approval','approved','sending','sent','failed','rejected','expired','cancelled')),
        created_at       INTEGER NOT NULL,
        expires_at       INTEGER NOT NULL,
        decided_at       INTEGER,
        txid             TEXT,
        error            TEXT
      );
      INSERT INTO approval_requests_v26 SELECT id, operation, input, review, wallet_row, initiator_uid, initiator_key, policy_version,
        rule, needed, approver_roles, approver_uids, state, created_at, expires_at, decided_at, txid, error FROM approval_requests;
      CREATE TABLE approval_votes_v26 (
        request_id  TEXT NOT NULL REFERENCES approval_requests_v26(id),
        voter_uid   TEXT NOT NULL,
        vote        TEXT NOT NULL CHECK (vote IN ('approve','reject')),
        at          INTEGER NOT NULL,
        PRIMARY KEY (request_id, voter_uid)
      );
      INSERT INTO approval_votes_v26 SELECT request_id, voter_uid, vote, at FROM approval_votes;
      DROP TABLE approval_votes;
      DROP TABLE approval_requests;
      ALTER TABLE approval_requests_v26 RENAME TO approval_requests;
      ALTER TABLE approval_votes_v26 RENAME TO approval_votes;
      CREATE INDEX approval_requests_open ON approval_requests(created_at) WHERE state = 'awaiting_approval';
    `,
  },
  {
    version: 27,
    name: 'four-eyes outlasts an admin removed, and counts only admins of a day or more',
    // `admin_since`: when the user last became an admin (null for other roles); existing admins count from
    // their creation. Kept by triggers, so no path that changes a role can forget it. When an admin is demoted
    // or removed while another admin remains (there were two or more), four-eyes stays in force for a day
    // (`policies.fourEyesUntil`, ms): demoting the other admin first does not let one admin change the policy
    // alone. policies/four-eyes.ts reads both.
    sql: `
      ALTER TABLE users ADD COLUMN admin_since INTEGER;
      UPDATE users SET admin_since = created_at WHERE role = 'admin';
      CREATE TRIGGER users_admin_since_insert AFTER INSERT ON users WHEN NEW.role = 'admin'
      BEGIN
        UPDATE users SET admin_since = NEW.created_at WHERE uid = NEW.uid;
      END;
      CREATE TRIGGER users_admin_since_update AFTER UPDATE OF role ON users WHEN NEW.role IS NOT OLD.role
      BEGIN
        UPDATE users SET admin_since = CASE WHEN NEW.role = 'admin' THEN NEW.updated_at END WHERE uid = NEW.uid;
      END;
      CREATE TRIGGER users_admin_leaves AFTER UPDATE OF role, deleted_at ON users
        WHEN OLD.role = 'admin' AND OLD.deleted_at IS NULL AND (NEW.role IS NOT 'admin' OR NEW.deleted_at IS NOT NULL)
          AND (SELECT count(*) FROM users WHERE role = 'admin' AND deleted_at IS NULL) >= 1
      BEGIN
        INSERT INTO settings (key, value) VALUES ('policies.fourEyesUntil', CAST(NEW.updated_at + 86400000 AS TEXT))
          ON CONFLICT (key) DO UPDATE SET value = excluded.value;
      END;
    `,
  },
  {
    version: 28,
    name: 'a paymail sender’s note kept until the payment is booked; invoices by address',
    // A payment delivered by paymail that ARC only stored is booked later, by the scan, once a node takes it:
    // its sender's note (cleaned, bounded) waits here until then (wallet-sync.ts). Bounded by age and count.
    // An invoice takes an address no invoice ever had (addresses.ts issueForInvoice asks by address).
    sql: `
      CREATE INDEX invoices_by_address ON invoices(address);
      CREATE TABLE pending_notes (
        wallet_row    INTEGER NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
        txid          TEXT NOT NULL,
        memo          TEXT,
        counterparty  TEXT,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (txid, wallet_row)
      );
    `,
  },
  {
    version: 29,
    name: 'the blocks the books proved transactions in, to follow a reorganisation',
    // On a polled chain a height is booked only with a merkle path to the root of the block at that height
    // (engine/sync/proven-height.ts). The root it was proved against is kept here, so that when the chain
    // later has another block at that height (a reorganisation), what the books dated into it is undone to
    // unconfirmed and proved again (engine/sync/reorganisations.ts).
    // With each, the headers below it back to ten blocks, each checked to link to the next: a replacement is
    // believed only when the chain's headers link it down to one of these (a header names no height of its own).
    sql: `
      CREATE TABLE proven_blocks (
        height       INTEGER PRIMARY KEY,
        block_hash   TEXT NOT NULL,
        prev_hash    TEXT NOT NULL,
        merkle_root  TEXT NOT NULL,
        proved       INTEGER NOT NULL CHECK (proved IN (0, 1))
      );
    `,
  },
  {
    version: 30,
    name: 'when each user got the role they have, so that an approval counts only votes of roles held before the request',
    // `role_since`: when the user got their current role (their creation, or the role's last change). A vote on
    // a payment awaiting approval counts only from someone who held their role before the request was made
    // (engine/policies/approval-ops.ts): an initiator who is an admin cannot make (or promote) an approver
    // after asking and approve through them. Existing users count from their last update, the latest their role
    // can have changed (an admin from when they became one). Kept by triggers, as admin_since is.
    sql: `
      ALTER TABLE users ADD COLUMN role_since INTEGER;
      UPDATE users SET role_since = coalesce(admin_since, updated_at);
      CREATE TRIGGER users_role_since_insert AFTER INSERT ON users
      BEGIN
        UPDATE users SET role_since = NEW.created_at WHERE uid = NEW.uid;
      END;
      CREATE TRIGGER users_role_since_update AFTER UPDATE OF role ON users WHEN NEW.role IS NOT OLD.role
      BEGIN
        UPDATE users SET role_since = NEW.updated_at WHERE uid = NEW.uid;
      END;
    `,
  },
  {
    version: 31,
    name: "an API key's lineage: the key it replaced by rotation, back to the first, so a policy naming a key names its successors",
    // A policy rule's `initiator.apiKeys` names keys by id. A key that rotates itself gets a new id; without its
    // lineage the rule would no longer apply to the holder it was written for (engine/policies/evaluate.ts).
    sql: `
      ALTER TABLE api_keys ADD COLUMN lineage TEXT;
      UPDATE api_keys SET lineage = key_id;
    `,
  },
  {
    version: 32,
    name: 'an audit checkpoint made after later entries existed is marked late, under its signature',
    // A day is closed when the first entry of a later day is about to be written, or at the open: then no entry
    // follows it. A checkpoint made when entries of later days already exist (its row deleted, the day rewritten,
    // and closed again by the engine's own key) is marked late, and verify names it (engine/audit/trail.ts).
    sql: `
      ALTER TABLE audit_checkpoints ADD COLUMN late INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1));
      INSERT INTO settings (key, value) SELECT 'audit.closing', min(day) FROM audit_checkpoints HAVING count(*) > 0;
    `,
  },
  {
    version: 33,
    name: "a wallet's unused addresses by index",
    // A pay claims the next unused change address and keeps the gap past the highest used one. Both were
    // found by walking every address of the chain from index 0 (a wallet that has paid 10,000 times walked
    // 10,000 used ones per pay); the unused ones are a gap's worth, so this index stays small.
    sql: `CREATE INDEX addresses_unused ON addresses(wallet_row, chain, idx) WHERE used = 0;`,
  },
];

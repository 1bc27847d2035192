import { BSM, P2PKH, PublicKey, Signature, Transaction, Utils } from '@bsv/sdk';
import { parseTransactionHex } from '../../chain/transaction-bytes.js';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { PaymailServices } from './services.js';
import { identityPubKeyHex } from '../wallets/identity-key.js';
import { CAP, isPaymailDomain } from './client.js';
import { RateLimit } from './rate-limit.js';
import { verifiedBeef } from './beef.js';
import { BEEF_LIMITS, BEEF_SCRIPT_LIMIT_MS, BeefUncheckable, type ScriptChecker } from './beef-check.js';
import { ScriptVerifier } from '../../chain/script-check.js';
import { addCost, NO_COST, scriptCost } from '../../chain/script-cost.js';
import { paysIssuedOutput, tokenRequestOf } from './ref-payment.js';
import { GAP_LIMIT } from '../wallets/address-book.js';
import { basicDestinationBody, p2pDestinationBody, receiveBeefBody, receiveTransactionBody } from '../../../shared/routes/paymail.js';
import { cleanRemoteText } from '../../../shared/remote-text.js';

/** A paymail protocol failure, answered as `{code, message}` with its HTTP status (the protocol's shape). */
export class PaymailError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** How long a P2P destination (its reference and outputs) may be paid. */
export const REFERENCE_TTL_MS = 30 * 60_000;

/** The longest note and sender name a payer's metadata may leave in history (cut there, after cleaning). */
export const NOTE_LENGTH = 500;
export const SENDER_LENGTH = 200;
/** Notes of payments not booked yet (ARC only stored them) kept at most, and for how long. */
const PENDING_NOTES = 1_000;
const PENDING_NOTE_MS = 7 * 24 * 3600_000;

/** Destinations one alias hands out per minute (and at once): anyone who can reach the host may ask. */
export const DESTINATIONS_PER_MINUTE = 60;
/**
 * Of those, what one client (its address, as the listener's rate limit keys it) may take: one stranger
 * asking steadily cannot hold every destination of a paymail and leave its customers 429.
 */
export const DESTINATIONS_PER_CLIENT_PER_MINUTE = 20;

/**
 * This Keystead as a paymail host, for every wallet whose alias is active: capability discovery, PKI,
 * public-key verification, public profile, basic and P2P payment destinations, and receive-transaction,
 * which checks that the transaction pays what was issued for its reference, broadcasts it and records it.
 */
export class PaymailHost {
  private readonly limit: RateLimit;
  private readonly perClient: RateLimit;

  constructor(
    private readonly services: PaymailServices,
    /**
     * Where a stranger's BEEF scripts run: worker threads with a time limit, never this thread, and one core
     * fewer than the machine has, so that strangers' scripts never take every core from the requests.
     */
    private readonly scripts: ScriptChecker & { close?(): Promise<void> } = new ScriptVerifier(
      Math.max(1, os.availableParallelism() - 1),
      undefined,
      BEEF_SCRIPT_LIMIT_MS,
    ),
  ) {
    this.limit = new RateLimit(DESTINATIONS_PER_MINUTE, DESTINATIONS_PER_MINUTE, services.now);
    this.perClient = new RateLimit(DESTINATIONS_PER_CLIENT_PER_MINUTE, DESTINATIONS_PER_CLIENT_PER_MINUTE, services.now);
  }

  capabilities(baseUrl: string): { bsvalias: '1.0'; capabilities: Record<string, string | boolean> } {
    const t = (path: string) => `${baseUrl}/api/bsvalias/${path}/{alias}@{domain.tld}`;
    return {
      bsvalias: '1.0',
      capabilities: {
        [CAP.pki]: t('id'),
        [CAP.paymentDestination]: t('address'),
        [CAP.senderValidation]: false,
        [CAP.verifyPubkey]: `${t('verify-pubkey')}/{pubkey}`,
        [CAP.publicProfile]: t('public-profile'),
        [CAP.p2pDestination]: t('p2p-payment-destination'),
        [CAP.receiveTransaction]: t('receive-transaction'),
        [CAP.beef]: t('beef'),
      },
    };
  }

  private wallet(handle: string): WalletRow {
    const [alias, domain] = handle.toLowerCase().split('@');
    const w = domain === this.services.config.paymailDomain ? this.services.repos.wallets.byPaymail(alias, domain) : null;
    if (!w || !w.paymailActive) throw new PaymailError(404, 'not-found', `Paymail not found: ${handle}`);
    return w;
  }

  pki(handle: string) {
    const w = this.wallet(handle);
    return { bsvalias: '1.0', handle: handle.toLowerCase(), pubkey: identityPubKeyHex(w) };
  }

  verifyPubkey(handle: string, pubkey: string) {
    const w = this.wallet(handle);
    return { bsvalias: '1.0', handle: handle.toLowerCase(), pubkey, match: identityPubKeyHex(w) === pubkey.toLowerCase() };
  }

  profile(handle: string) {
    const w = this.wallet(handle);
    return { avatar: w.logo || null, name: w.title.slice(0, 100) };
  }

  /**
   * A receive address for an unauthenticated payer. Addresses are handed out only within the gap limit
   * (the unpaid one handed out longest ago is reused), so however many destinations strangers ask for, a
   * wallet restored from its recovery phrase still finds every payment made to any of them. Two payers
   * may share an address once all 20 are out; each payment is still its own output.
   */
  private nextAddress(w: WalletRow, client: string | undefined): string {
    const { db, repos, addressBook, now } = this.services;
    const key = `${w.id}`;
    // The client's own share first: a client over it takes nothing from the paymail's budget.
    const own = client === undefined ? null : `${w.id} ${client}`;
    if (own !== null && !this.perClient.take(own)) {
      throw new PaymailError(
        429,
        'rate-limited',
        `Too many payment destinations asked for this paymail from your address; try again in ${this.perClient.retryAfter(own)} s.`,
      );
    }
    if (!this.limit.take(key)) {
      throw new PaymailError(
        429,
        'rate-limited',
        `Too many payment destinations asked for this paymail; try again in ${this.limit.retryAfter(key)} s.`,
      );
    }
    const address = db.transaction(() => {
      addressBook.ensureGap(w, 0);
      const within = repos.addresses.highestUsed(w.id, 0) + GAP_LIMIT;
      // An address an open invoice waits on is never a stranger's destination: their payment would pay the invoice.
      return repos.addresses.issueLeastRecent(w.id, within, now(), repos.invoices.heldAddresses(w.id, now()));
    })();
    if (address === null) {
      throw new PaymailError(503, 'unavailable', 'This paymail has no free payment destination now; try again later.');
    }
    return address;
  }

  /** `client`: who asks (the listener's rate-limit key), for the per-client share of the destinations. */
  basicDestination(handle: string, body: unknown, client?: string) {
    const w = this.wallet(handle);
    if (!basicDestinationBody.safeParse(body).success) throw new PaymailError(400, 'bad-request', 'senderHandle and dt are required.');
    // Sender validation is not required here (6745385c3fc0: false): signed and unsigned requests are both served.
    return { output: new P2PKH().lock(this.nextAddress(w, client)).toHex() };
  }

  p2pDestination(handle: string, body: unknown, client?: string) {
    const w = this.wallet(handle);
    const parsed = p2pDestinationBody.safeParse(body);
    if (!parsed.success) throw new PaymailError(400, 'bad-request', 'satoshis must be a positive whole number.');
    const { satoshis } = parsed.data;
    // A Keystead sender of tokens names the token: the reference is then paid by that token's outputs only.
    const token = tokenRequestOf(body);
    if (typeof token === 'string') throw new PaymailError(400, 'bad-request', token);
    const outputs = [{ script: new P2PKH().lock(this.nextAddress(w, client)).toHex(), satoshis }];
    const reference = randomBytes(16).toString('hex');
    const now = this.services.now();
    this.services.repos.payments.purgeExpiredRefs(now - REFERENCE_TTL_MS);
    this.services.repos.payments.insertRef({
      reference,
      walletRow: w.id,
      outputs,
      satoshis,
      createdAt: now,
      expiresAt: now + REFERENCE_TTL_MS,
      kind: token ? 'token' : 'bsv',
      tokenId: token?.tokenId ?? null,
    });
    return { outputs, reference };
  }

  /** Stops the BEEF script workers (the engine is closing). */
  async close(): Promise<void> {
    await this.scripts.close?.();
  }

  /**
   * P2P receive-transaction (5f1323cddf31): the raw transaction in `hex`. The chain checks its scripts
   * (the outputs it spends are the chain's); its own unlocking scripts are held to the BEEF budget here
   * first, so a stranger's costly transaction is refused before anything is asked of the chain.
   */
  async receiveTransaction(handle: string, body: unknown) {
    const w = this.wallet(handle);
    const parsed = receiveTransactionBody.safeParse(body);
    if (!parsed.success) throw new PaymailError(400, 'bad-request', 'hex and reference are required.');
    const b = parsed.data;
    let tx: Transaction;
    try {
      tx = parseTransactionHex(b.hex).tx;
    } catch (err) {
      throw new PaymailError(400, 'bad-request', `hex is not a transaction: ${(err as Error).message}`);
    }
    const cost = tx.inputs.reduce((sum, input) => addCost(sum, scriptCost(input.unlockingScript!.toBinary())), NO_COST);
    if (cost.sigops > BEEF_LIMITS.sigops) {
      throw new PaymailError(
        400,
        'bad-request',
        `hex's unlocking scripts hold ${cost.sigops} signature checks; the signature-check limit is ${BEEF_LIMITS.sigops}.`,
      );
    }
    if (cost.bytes > BEEF_LIMITS.scriptBytes)
      throw new PaymailError(
        400,
        'bad-request',
        `hex's unlocking scripts are ${cost.bytes} bytes; the script-bytes limit is ${BEEF_LIMITS.scriptBytes}.`,
      );
    return this.accept(w, tx, b.reference, b.metadata);
  }

  /** BEEF receive-transaction (5c55a7fdb7bb): the transaction with its ancestry in `beef`, checked by SPV first. */
  async receiveBeef(handle: string, body: unknown) {
    const w = this.wallet(handle);
    const parsed = receiveBeefBody.safeParse(body);
    if (!parsed.success) throw new PaymailError(400, 'bad-request', 'beef and reference are required.');
    const b = parsed.data;
    let tx: Transaction;
    try {
      tx = await verifiedBeef(this.services.chain, b.beef, this.scripts);
    } catch (err) {
      if (err instanceof BeefUncheckable) throw new PaymailError(503, 'unavailable', `The BEEF cannot be checked now: ${err.message}`);
      throw new PaymailError(400, 'bad-beef', (err as Error).message);
    }
    const result = await this.accept(w, tx, b.reference, b.metadata);
    this.services.logger.info({ txid: result.txid }, 'payment received as BEEF, checked by SPV');
    return result;
  }

  /**
   * Takes a payment for a reference: it must pay every output issued for it, carry a valid sender
   * signature if it has one, and be accepted by the chain; then it is booked, with its note and sender.
   */
  private async accept(w: WalletRow, tx: Transaction, reference: string, metadata: unknown) {
    const ref = this.services.repos.payments.getRef(reference);
    if (!ref || ref.walletRow !== w.id) throw new PaymailError(404, 'not-found', 'Unknown reference for this paymail.');
    const txid = tx.id('hex');
    // A re-delivery of the transaction that already paid this reference is a success, expired or not.
    if (ref.txid === txid) return { txid, note: 'Payment received. Thank you.' };
    if (ref.txid) throw new PaymailError(400, 'reference-used', 'This reference was already paid by another transaction.');
    if (ref.expiresAt < this.services.now())
      throw new PaymailError(400, 'expired', 'This payment destination has expired; ask for a new one.');
    // Every output issued for the reference must be paid, at least in full, in what it was issued for:
    // plain satoshis for BSV (a token output never counts as BSV), that token's outputs for a token. A
    // transaction that does not is refused before the reference is claimed, so it does not use it up.
    for (const want of ref.outputs) {
      if (
        !tx.outputs.some((o) =>
          paysIssuedOutput(ref, want, { script: o.lockingScript.toHex(), satoshis: o.satoshis ?? 0 }, this.services.tokenTemplates),
        )
      ) {
        const what = ref.kind === 'token' ? `${ref.tokenId} tokens` : 'plain satoshis (token outputs are not BSV)';
        throw new PaymailError(400, 'wrong-outputs', `The transaction does not pay the outputs issued for this reference in ${what}.`);
      }
    }
    const meta = (metadata ?? {}) as { sender?: unknown; pubkey?: unknown; signature?: unknown; note?: unknown };
    // The signature is checked here (local work); the sender's host is asked only once the chain took the
    // transaction, so a stranger's unfunded or unclaimable delivery makes Keystead contact no one.
    this.checkSignature(txid, meta);
    // Claimed before broadcasting, so two transactions cannot both pay one reference.
    if (!this.services.repos.payments.claimRef(ref.reference, txid)) {
      throw new PaymailError(
        400,
        'reference-used',
        'This reference was already paid by another transaction, or this transaction already paid another reference.',
      );
    }
    const result = await this.services.chain.broadcast(tx.toHex());
    if (result.status === 'unknown') {
      this.services.repos.payments.unclaimRef(ref.reference, txid);
      throw new PaymailError(503, 'unavailable', `The transaction could not be broadcast yet: ${result.message}`);
    }
    if (result.status === 'rejected') {
      this.services.repos.payments.unclaimRef(ref.reference, txid);
      throw new PaymailError(400, 'rejected', `The transaction was refused: ${result.reason} (${result.message}).`);
    }
    const sender = await this.senderOf(meta);
    // Booked once a node took it: ARC's "accepted" may be a transaction it only stored (then the scan books it).
    const booked = await this.services.sync.bookAccepted(tx, txid);
    // A stranger's words, as history and the CLI will show them: one inert line (SECURITY.md, counterparty text).
    const note = typeof meta.note === 'string' ? cleanRemoteText(meta.note, NOTE_LENGTH) || null : null;
    const { walletTxs } = this.services.repos;
    if (booked) walletTxs.annotate(w.id, txid, note, sender);
    // Kept for the scan's booking (wallet-sync.ts), a bounded number for a bounded time.
    else walletTxs.keepNote(w.id, txid, note, sender, this.services.now(), PENDING_NOTES, PENDING_NOTE_MS);
    return { txid, note: 'Payment received. Thank you.' };
  }

  /** A signature (BSM over the txid, per the P2P transactions spec) must verify with `metadata.pubkey`, or the delivery is refused. */
  private checkSignature(txid: string, meta: { pubkey?: unknown; signature?: unknown }): void {
    if (typeof meta.signature === 'string' && meta.signature !== '') {
      let ok: boolean;
      try {
        ok =
          typeof meta.pubkey === 'string' &&
          BSM.verify(
            Utils.toArray(txid, 'utf8'),
            Signature.fromCompact(meta.signature as string, 'base64'),
            PublicKey.fromString(meta.pubkey),
          );
      } catch {
        ok = false; // an unreadable signature or key is a wrong one
      }
      if (!ok) throw new PaymailError(400, 'bad-signature', 'metadata.signature does not sign the txid with metadata.pubkey.');
    }
  }

  /**
   * Who sent it, as history will say (the signature was checked by checkSignature): the named sender is
   * believed only if its own paymail host, asked through the guarded client, confirms the signing key is
   * theirs. Anything short of that is recorded as unverified.
   */
  private async senderOf(meta: { sender?: unknown; pubkey?: unknown; signature?: unknown }): Promise<string | null> {
    const sender = typeof meta.sender === 'string' ? cleanRemoteText(meta.sender.toLowerCase(), SENDER_LENGTH) || null : null;
    const signed = typeof meta.signature === 'string' && meta.signature !== '';
    if (!sender) return null;
    // Only a paymail (alias@host name) is looked up: the sender names the domain Keystead then asks.
    const domain = /^[^@\s]+@([^@\s]+)$/.exec(sender)?.[1];
    if (!signed || !domain || !isPaymailDomain(domain)) return `${sender} (unverified)`;
    try {
      const pubkey = (meta.pubkey as string).toLowerCase();
      const theirs =
        (await this.services.paymail.pki(sender)).toLowerCase() === pubkey || (await this.services.paymail.verifyPubkey(sender, pubkey));
      return theirs ? sender : `${sender} (unverified: the key is not theirs)`;
    } catch {
      return `${sender} (unverified: its host did not answer)`;
    }
  }
}

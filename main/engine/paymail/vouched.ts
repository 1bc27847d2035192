import { p2pkhAddressOf } from '../../chain/script.js';

/** How long a paymail's answer vouches for its addresses: a payment is paid minutes after it is resolved. */
const VOUCH_MS = 6 * 60 * 60 * 1000;
/** The most addresses remembered (the oldest are forgotten first): a paymail resolved this often is rare. */
const MAX_VOUCHED = 50_000;

/**
 * The addresses paymail hosts handed out when this engine resolved a paymail, each with the paymail it was
 * resolved for. A payment names its counterparty itself (a `uri` beside its outputs), and nothing ties that
 * name to the outputs: a caller could label a payment to any address with a trusted payee's paymail. The
 * organisation's policy believes a paymail only for outputs whose addresses that paymail's host gave this
 * engine (payments/value-flow.ts asks `vouches`); any other output is judged by its address alone.
 * In memory only: after a restart, a payment resolved before it is judged by its addresses, never trusted more.
 */
export class PaymailVouches {
  private readonly byAddress = new Map<string, { paymail: string; until: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = VOUCH_MS,
    private readonly max = MAX_VOUCHED,
  ) {}

  /** Remembers that resolving `paymail` answered these output scripts (those that are not P2PKH vouch for nothing). */
  record(paymail: string, scripts: readonly string[]): void {
    const key = normalise(paymail);
    const until = this.now() + this.ttlMs;
    for (const script of scripts) {
      const address = p2pkhAddressOf(script);
      if (!address) continue;
      this.byAddress.delete(address); // re-inserted last: the map's order is the order of forgetting
      this.byAddress.set(address, { paymail: key, until });
    }
    while (this.byAddress.size > this.max) this.byAddress.delete(this.byAddress.keys().next().value!);
  }

  /** Whether `paymail`'s host handed out every one of these addresses (at least one) to this engine, lately. */
  vouches(paymail: string, addresses: readonly string[]): boolean {
    if (addresses.length === 0) return false;
    const key = normalise(paymail);
    const now = this.now();
    return addresses.every((address) => {
      const v = this.byAddress.get(address);
      return v !== undefined && v.paymail === key && v.until > now;
    });
  }
}

const normalise = (paymail: string) => paymail.trim().toLowerCase();

import { HD } from '@bsv/sdk';
import type { CoreServices, Repos } from '../context.js';
import type { AddressRow } from '../../store/repos/addresses.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import { addressOfPublicKey, childPublicKey, childTweak, type ChainNodePublic } from './child-key.js';
import type { DerivedAddress } from './key-worker.js';
import type { KeyWorkers } from './key-workers.js';

/** How many unused receive addresses each wallet keeps derived (BIP44's gap limit). */
export const GAP_LIMIT = 20;

/**
 * Addresses derived ahead, on the key workers, per wallet and chain: a new wallet's first change addresses
 * (the gap and the one its first payment claims), then each payment's next change address, are ready
 * before they are stored.
 */
const AHEAD = 8;
/** Derived ahead again once fewer than this many are left. */
const REFILL_BELOW = 4;

/** Where new addresses' keys come from and go: the key workers derive ahead; the key ring keeps their public keys. */
export interface AddressKeys {
  workers: Pick<KeyWorkers, 'deriveAddresses'>;
  /** Told every new address's compressed public key, so signing for it later costs no multiplication. */
  remember(wallet: Pick<WalletRow, 'id' | 'accountXpub'>, chain: 0 | 1, idx: number, pub: Uint8Array): void;
}

interface ChainEntry {
  node: ChainNodePublic;
}

interface Ahead {
  xpub: string;
  ready: [Map<number, DerivedAddress>, Map<number, DerivedAddress>];
  deriving: [boolean, boolean];
}

/**
 * Derives and remembers wallet addresses from the account's extended public key: no secret is needed.
 * The two chain nodes (`<account>/0` and `/1`) are cached per wallet, so each new address costs one
 * child derivation; with key workers, that derivation has usually been done ahead, off this thread.
 */
export class AddressBook {
  private readonly chains = new Map<number, { xpub: string; nodes: [ChainEntry, ChainEntry] }>();
  private readonly ahead = new Map<number, Ahead>();

  constructor(
    private readonly services: Pick<CoreServices, 'now'> & { repos: Pick<Repos, 'addresses'> & Partial<Pick<Repos, 'invoices'>> },
    private readonly keys: AddressKeys | null = null,
  ) {}

  private chainNode(wallet: WalletRow, chain: 0 | 1): ChainEntry {
    let entry = this.chains.get(wallet.id);
    if (!entry || entry.xpub !== wallet.accountXpub) {
      const account = HD.fromString(wallet.accountXpub);
      const of = (node: HD): ChainEntry => ({
        node: { chainCode: Uint8Array.from(node.chainCode), pub: Uint8Array.from(node.pubKey.encode(true) as number[]) },
      });
      entry = { xpub: wallet.accountXpub, nodes: [of(account.deriveChild(0)), of(account.deriveChild(1))] };
      this.chains.set(wallet.id, entry);
    }
    return entry.nodes[chain];
  }

  /** Derives (and stores) addresses `from` … `to - 1` of a chain: those derived ahead, the rest here. */
  derive(wallet: WalletRow, chain: 0 | 1, from: number, to: number): { chain: 0 | 1; idx: number; address: string }[] {
    let ahead = this.ahead.get(wallet.id);
    if (ahead && ahead.xpub !== wallet.accountXpub) ahead = undefined;
    const rows = [];
    for (let idx = from; idx < to; idx++) {
      let derived = ahead?.ready[chain].get(idx);
      if (!derived) {
        const { node } = this.chainNode(wallet, chain);
        const pub = childPublicKey(node.pub, childTweak(node, idx));
        derived = { address: addressOfPublicKey(pub), pub };
      }
      rows.push({ chain, idx, address: derived.address });
      this.keys?.remember(wallet, chain, idx, derived.pub);
    }
    this.services.repos.addresses.insertMany(wallet.id, rows, this.services.now());
    if (this.keys) {
      // A wallet seen for the first time gets its other chain's first addresses ready too (a new wallet's
      // first payment claims a change address and the gap after it).
      if (!ahead) this.deriveAhead(wallet, chain === 0 ? 1 : 0, this.services.repos.addresses.count(wallet.id, chain === 0 ? 1 : 0));
      this.deriveAhead(wallet, chain, to);
    }
    return rows;
  }

  /** Has the key workers derive the addresses of a chain that follow `next`, unless enough are ready already. */
  private deriveAhead(wallet: WalletRow, chain: 0 | 1, next: number): void {
    let ahead = this.ahead.get(wallet.id);
    if (!ahead || ahead.xpub !== wallet.accountXpub) {
      ahead = { xpub: wallet.accountXpub, ready: [new Map(), new Map()], deriving: [false, false] };
      this.ahead.set(wallet.id, ahead);
    }
    const ready = ahead.ready[chain];
    for (const idx of ready.keys()) if (idx < next) ready.delete(idx);
    let from = next;
    while (ready.has(from)) from++;
    if (from - next >= REFILL_BELOW || ahead.deriving[chain]) return;
    // A chain's first addresses come as a gap's worth at once (ensureGap) and one more (the first claimed).
    const to = Math.max(next + AHEAD, GAP_LIMIT + 1);
    const entry = ahead;
    entry.deriving[chain] = true;
    this.keys!.workers.deriveAddresses(this.chainNode(wallet, chain).node, from, to)
      .then(
        (list) => list.forEach((d, k) => entry.ready[chain].set(from + k, d)),
        // Not derived ahead: whoever needs them derives them on this thread.
        () => {},
      )
      .finally(() => (entry.deriving[chain] = false));
  }

  /**
   * Makes sure `GAP_LIMIT` unused addresses follow the highest used one on the chain. Change addresses
   * already derived ahead are stored with them: each payment claims one, and the next few payments' then
   * need no write of their own (nothing else lists change addresses, and they are still used in order).
   * True when it derived addresses.
   */
  ensureGap(wallet: WalletRow, chain: 0 | 1, gap = GAP_LIMIT): boolean {
    const { addresses } = this.services.repos;
    const want = addresses.highestUsed(wallet.id, chain) + 1 + gap;
    const have = addresses.count(wallet.id, chain);
    if (have >= want) return false;
    this.derive(wallet, chain, have, chain === 1 ? this.readyUpTo(wallet, chain, want) : want);
    return true;
  }

  /** `from`, or past it while the addresses that follow are derived ahead already. */
  private readyUpTo(wallet: WalletRow, chain: 0 | 1, from: number): number {
    const ahead = this.ahead.get(wallet.id);
    let to = from;
    if (ahead && ahead.xpub === wallet.accountXpub) while (ahead.ready[chain].has(to)) to++;
    return to;
  }

  /**
   * The wallet's currently available receive addresses, lowest index first. An address an open invoice
   * waits on is left out: any payment to it pays that invoice, so it is never shown or used for anything else.
   */
  available(wallet: WalletRow, limit = GAP_LIMIT): AddressRow[] {
    this.ensureGap(wallet, 0);
    const held = this.services.repos.invoices?.heldAddresses(wallet.id, this.services.now()) ?? new Set<string>();
    const unused = this.services.repos.addresses.unused(wallet.id, 0, limit + held.size);
    return unused.filter((a) => !held.has(a.address)).slice(0, limit);
  }

  /** `available`, handed out: marked so that no invoice takes them later (its payer alone may know its address). */
  handOut(wallet: WalletRow, limit = GAP_LIMIT): AddressRow[] {
    const rows = this.available(wallet, limit);
    this.services.repos.addresses.markIssued(
      wallet.id,
      rows.map((r) => r.address),
      this.services.now(),
    );
    return rows;
  }

  /**
   * A receive address for an invoice: one nothing ever handed out and no invoice ever had, within the gap
   * limit when there is one (a restored wallet's scan finds its payment), else a new one derived past the
   * addresses there are (this organisation's books still watch it).
   */
  forInvoice(wallet: WalletRow): string {
    const { addresses } = this.services.repos;
    this.ensureGap(wallet, 0);
    const now = this.services.now();
    const within = addresses.issueForInvoice(wallet.id, addresses.highestUsed(wallet.id, 0) + GAP_LIMIT, now);
    if (within !== null) return within;
    const next = addresses.count(wallet.id, 0);
    const [fresh] = this.derive(wallet, 0, next, next + 1);
    addresses.markIssued(wallet.id, [fresh.address], now);
    return fresh.address;
  }

  forget(walletRow: number): void {
    this.chains.delete(walletRow);
    this.ahead.delete(walletRow);
  }
}

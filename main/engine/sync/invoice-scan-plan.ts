import type { CoreServices, Repos } from '../context.js';

/** How long after an invoice expired or was cancelled unpaid its address is still asked about at every scan. */
export const DORMANT_AFTER_MS = 60 * 60_000;
/** Most dormant invoice addresses past the gap limit one wallet's scan asks about in one turn. */
export const DORMANT_PER_TURN = 20;
/** A turn: the dormant addresses chosen are kept this long (scans within it ask the same ones), then the next ones. */
export const TURN_MS = 10_000;

interface Turn {
  turn: number;
  /** Every dormant address of the wallet now past the gap limit (those within it are asked about anyway). */
  dormant: Set<string>;
  /** The ones asked about in this turn. */
  asked: Set<string>;
  /** Where the next turn's addresses start in the dormant list. */
  cursor: number;
}

/**
 * Which receive addresses past the gap limit a scan of the books asks the chain provider about. Every address
 * within the gap is asked about, and past it every address anything still waits on (an open invoice, one that
 * closed less than an hour ago, a paid one, any address not an invoice's). An invoice address past the gap
 * that is dormant (every invoice there expired or was cancelled unpaid over an hour ago, and it never received
 * anything booked) is asked about in turn: at most `DORMANT_PER_TURN` of a wallet's in one turn, the next ones
 * in the next, round and round, so a late payment there is still booked, and the questions a scan asks do not
 * grow with the invoices that were ever made (review 1128, finding 4). Kept in memory: after a restart the turns
 * start at a place that depends on the time, not at the lowest address each time.
 */
export class InvoiceScanPlan {
  private readonly turns = new Map<number, Turn>();

  constructor(
    private readonly services: Pick<CoreServices, 'now'> & { repos: Pick<Repos, 'addresses'> & Partial<Pick<Repos, 'invoices'>> },
    /** The gap limit: the addresses up to this far past the highest used one are asked about anyway. */
    private readonly gapLimit: number,
  ) {}

  /** Whether a scan asks about `address` of the wallet, `pastGap` when it lies past the gap limit of this scan. */
  asks(walletRow: number, address: string, pastGap: boolean): boolean {
    if (!pastGap || !this.services.repos.invoices) return true;
    const t = this.turnOf(walletRow);
    return !t.dormant.has(address) || t.asked.has(address);
  }

  forget(walletRow: number): void {
    this.turns.delete(walletRow);
  }

  private turnOf(walletRow: number): Turn {
    const now = this.services.now();
    const turn = Math.floor(now / TURN_MS);
    const last = this.turns.get(walletRow);
    if (last && last.turn === turn) return last;
    const { addresses, invoices } = this.services.repos;
    const pastIdx = addresses.highestUsed(walletRow, 0) + this.gapLimit;
    const list = invoices!.dormantAddresses(walletRow, now - DORMANT_AFTER_MS, pastIdx);
    const n = list.length;
    let cursor = last ? last.cursor : turn * DORMANT_PER_TURN;
    cursor = n === 0 ? 0 : cursor % n;
    const asked = new Set<string>();
    for (let k = 0; k < Math.min(DORMANT_PER_TURN, n); k++) asked.add(list[(cursor + k) % n]);
    const next: Turn = { turn, dormant: new Set(list), asked, cursor: n === 0 ? 0 : (cursor + DORMANT_PER_TURN) % n };
    this.turns.set(walletRow, next);
    return next;
  }
}

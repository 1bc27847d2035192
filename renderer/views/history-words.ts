import type { HistoryEntry } from '../../shared/operations.js';

export const DIRECTION_COLORS = { in: 'teal', out: 'orange', self: 'gray' } as const;
export const STATE_COLORS = { pending: 'yellow', confirmed: 'teal', failed: 'red' } as const;
/** Direction as people say it. */
export const DIRECTION_WORDS = { in: 'received', out: 'sent', self: 'moved' } as const;

/** The state's detail in words: "3 confirmations", "in the mempool", the failure reason. */
export function stateDetail(e: HistoryEntry): string | null {
  if (e.state === 'confirmed') return `${e.confirmations} confirmation${e.confirmations === 1 ? '' : 's'}`;
  if (e.state === 'pending') return e.seenByChain ? 'in the mempool' : 'not seen by the network yet';
  return e.failureReason;
}

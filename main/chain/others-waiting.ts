import { setImmediate as immediate } from 'node:timers/promises';

/** Longer than idle turns of the event loop (tens of microseconds), shorter than any request's work. */
const BUSY_TURN_MS = 0.3;

/**
 * Lets the event loop take a full turn and says whether other work ran in it: requests, or answers from
 * worker threads, waiting for this thread. Costly work (a signature, a script check) then goes to a worker,
 * so that the waiting work proceeds meanwhile; on an idle thread it runs here, where handing it to a worker
 * would only add the hand-over (about half a millisecond) to the wait.
 *
 * Two immediates, because one runs before the loop next polls for I/O: work that arrived while this thread
 * was busy (a request, a worker's answer) is seen only by a turn that includes a poll.
 */
export async function othersWaiting(): Promise<boolean> {
  const start = performance.now();
  await immediate();
  await immediate();
  return performance.now() - start > BUSY_TURN_MS;
}

import { setImmediate as oneTurn } from 'node:timers/promises';

/** Longer than an idle turn of the event loop (tens of microseconds), shorter than any request's work. */
const BUSY_TURN_MS = 0.3;

/**
 * Lets the event loop take one turn and says whether other work ran in it: requests, or answers from
 * worker threads, waiting for this thread. Costly work (a signature, a script check) then goes to a worker,
 * so that the waiting work proceeds meanwhile; on an idle thread it runs here, where handing it to a worker
 * would only add the hand-over (about half a millisecond) to the wait.
 */
export async function othersWaiting(): Promise<boolean> {
  const start = performance.now();
  await oneTurn();
  return performance.now() - start > BUSY_TURN_MS;
}

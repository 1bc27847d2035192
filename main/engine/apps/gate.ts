/** How long the first call of a new app waits for an admin's decision before it is refused. */
export const DEFAULT_APP_WAIT_MS = 60_000;

/**
 * Where calls of an app that is not decided yet wait: `decideApp` wakes them (they then read the app's
 * state again), and a wait that outlives its deadline ends on its own. Also says where the BRC-100 listener
 * is, for listApps.
 */
export class AppGate {
  /** `host:port` of the BRC-100 listener, or null while it is off (the host sets it once it listens). */
  listening: string | null = null;
  private readonly waiters = new Map<string, Set<() => void>>();

  private waiting = 0;

  constructor(
    /** How long a call of an undecided app waits (tests shorten it). */
    public waitMs: number = DEFAULT_APP_WAIT_MS,
    /** Calls waiting at once, from every app together: each holds a connection, so past this they do not wait. */
    public readonly maxWaiting = 64,
  ) {}

  /** Resolves when the app is decided (true) or the deadline passes (false); at once (false) when too many wait. */
  wait(originator: string, ms = this.waitMs): Promise<boolean> {
    if (this.waiting >= this.maxWaiting) return Promise.resolve(false);
    this.waiting++;
    return new Promise((resolve) => {
      let set = this.waiters.get(originator);
      if (!set) this.waiters.set(originator, (set = new Set()));
      const waiters = set;
      const done = (decided: boolean) => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (waiters.size === 0 && this.waiters.get(originator) === waiters) this.waiters.delete(originator);
        this.waiting--;
        resolve(decided);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      timer.unref();
      waiters.add(wake);
    });
  }

  /** Wakes the calls waiting for this app. */
  decided(originator: string): void {
    for (const wake of [...(this.waiters.get(originator) ?? [])]) wake();
  }

  /** Ends every wait (the listener is closing); they read the app's state once more and are refused if undecided. */
  wakeAll(): void {
    for (const originator of [...this.waiters.keys()]) this.decided(originator);
  }
}

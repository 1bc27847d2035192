/** How many tasks run at once, and how much each owner (a user) may hold running and waiting. */
export interface FairQueueLimits {
  /** Tasks running at once over all owners: the number of workers. */
  slots: number;
  /** Tasks one owner may have running at once. */
  perOwnerRunning: number;
  /** Tasks one owner may have waiting for a slot. */
  perOwnerQueued: number;
  /** Tasks waiting over all owners. */
  maxQueued: number;
}

/** Why a task was not let in: its owner already holds its share, or everyone's queue is full. */
export class QueueFull extends Error {
  constructor(readonly scope: 'owner' | 'all') {
    super(scope === 'owner' ? 'this owner already has its share of tasks running and waiting' : 'the queue is full');
    this.name = 'QueueFull';
  }
}

/** The task gave up waiting (its signal was aborted) before it got a slot. */
export class QueueWaitAborted extends Error {
  constructor() {
    super('gave up waiting for a slot');
    this.name = 'QueueWaitAborted';
  }
}

/** Owners (users) whose turn is remembered while idle; far above any organisation's number of users. */
const MAX_REMEMBERED_OWNERS = 10_000;

interface Waiter {
  owner: string;
  grant: (release: () => void) => void;
  refuse: (err: Error) => void;
}

/**
 * Admits tasks to a fixed number of slots, taking owners in turn (round robin) rather than in arrival
 * order, so one owner's flood delays another owner's task by at most the tasks already running. Each owner
 * may hold only a few tasks running and waiting; beyond that a task is refused at once, which keeps the
 * queue (and the memory its tasks hold) small whatever one caller sends.
 */
export class FairQueue {
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  /** Owners with waiting tasks, in the order their first waiting task arrived. */
  private readonly waiting = new Map<string, Waiter[]>();
  private waitingTotal = 0;
  /** When each owner with work running or waiting last had a task started (a counter, not a clock). */
  private readonly lastStarted = new Map<string, number>();
  private starts = 0;

  constructor(private readonly limits: FairQueueLimits) {}

  /**
   * Resolves when the owner's task may run, with the function that gives its slot back (call it exactly
   * once the work is over, whatever its outcome). Rejects with QueueFull at once when the owner or the
   * queue is full, or with QueueWaitAborted when `signal` aborts before a slot is free.
   */
  acquire(owner: string, signal?: AbortSignal): Promise<() => void> {
    const mine = this.waiting.get(owner) ?? [];
    if (mine.length >= this.limits.perOwnerQueued && !this.canStart(owner)) return Promise.reject(new QueueFull('owner'));
    if (this.waitingTotal >= this.limits.maxQueued && !this.canStart(owner)) return Promise.reject(new QueueFull('all'));
    if (signal?.aborted) return Promise.reject(new QueueWaitAborted());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (this.remove(waiter)) reject(new QueueWaitAborted());
      };
      const waiter: Waiter = {
        owner,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        refuse: reject,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!this.waiting.has(owner)) this.waiting.set(owner, []);
      this.waiting.get(owner)!.push(waiter);
      this.waitingTotal += 1;
      this.pump();
    });
  }

  /** Tasks running and waiting now, for an owner or (without one) for everyone. */
  load(owner?: string): { running: number; waiting: number } {
    if (owner === undefined) return { running: this.runningTotal, waiting: this.waitingTotal };
    return { running: this.running.get(owner) ?? 0, waiting: this.waiting.get(owner)?.length ?? 0 };
  }

  /** Refuses every waiting task (the pool is closing). Running tasks keep their slots until released. */
  refuseAll(err: Error): void {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.waitingTotal = 0;
    for (const [owner] of this.lastStarted) this.forgetIfIdle(owner);
    for (const w of all) w.refuse(err);
  }

  private canStart(owner: string): boolean {
    return (
      this.runningTotal < this.limits.slots && (this.running.get(owner) ?? 0) < this.limits.perOwnerRunning && !this.waiting.has(owner)
    );
  }

  /**
   * Starts waiting tasks while slots are free. The next is the oldest task of the owner served least
   * recently (an owner with nothing running before one whose task just started), so an owner's turn comes
   * after at most one task of each other owner, however many those have waiting.
   */
  private pump(): void {
    while (this.runningTotal < this.limits.slots) {
      let next: string | undefined;
      for (const owner of this.waiting.keys()) {
        if ((this.running.get(owner) ?? 0) >= this.limits.perOwnerRunning) continue;
        if (next === undefined || (this.lastStarted.get(owner) ?? -1) < (this.lastStarted.get(next) ?? -1)) next = owner;
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const waiter = queue.shift()!;
      this.waitingTotal -= 1;
      if (!queue.length) this.waiting.delete(next);
      this.start(waiter);
    }
  }

  private start(waiter: Waiter): void {
    this.running.set(waiter.owner, (this.running.get(waiter.owner) ?? 0) + 1);
    this.runningTotal += 1;
    this.lastStarted.set(waiter.owner, this.starts++);
    let released = false;
    waiter.grant(() => {
      if (released) return;
      released = true;
      const left = (this.running.get(waiter.owner) ?? 1) - 1;
      if (left > 0) this.running.set(waiter.owner, left);
      else this.running.delete(waiter.owner);
      this.runningTotal -= 1;
      this.forgetIfIdle(waiter.owner);
      this.pump();
    });
  }

  /** Takes a waiting task out of the line; false when it already started. */
  private remove(waiter: Waiter): boolean {
    const queue = this.waiting.get(waiter.owner);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    this.waitingTotal -= 1;
    if (!queue.length) {
      this.waiting.delete(waiter.owner);
      this.forgetIfIdle(waiter.owner);
    }
    return true;
  }

  /**
   * An owner's last start is remembered after it goes idle: one that came back as a newcomer would be first
   * in line again and could overtake a waiting owner once per return. Only when very many owners were seen
   * are the idle ones forgotten, so the map stays bounded whoever calls.
   */
  private forgetIfIdle(owner: string): void {
    if (this.lastStarted.size <= MAX_REMEMBERED_OWNERS) return;
    for (const [o] of this.lastStarted) if (o !== owner && !this.running.has(o) && !this.waiting.has(o)) this.lastStarted.delete(o);
  }
}

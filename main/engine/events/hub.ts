import type { LiveEvent, LiveEventData, LiveEventType } from '../../../shared/events.js';
import type { EventAudience, EventPublisher } from '../context.js';

export interface StoredEvent {
  event: LiveEvent;
  audience: EventAudience;
}

export interface EventHubOptions {
  now?: () => number;
  /** At most this many events are kept for replay… */
  capacity?: number;
  /** …and none older than this (ms). */
  windowMs?: number;
}

export const DEFAULT_EVENT_CAPACITY = 5_000;
export const DEFAULT_EVENT_WINDOW_MS = 15 * 60_000;

/**
 * The engine's live events: published by the capabilities after their change is committed, delivered to
 * listeners at once, and kept for a bounded window so a client that reconnects gets what it missed.
 * Ids start from the clock (in microseconds) when the engine starts, so they keep growing across restarts
 * and an id from an earlier run is recognised as too old rather than mistaken for a recent one.
 */
export class EventHub implements EventPublisher {
  private seq: number;
  private readonly kept: StoredEvent[] = [];
  private readonly listeners = new Set<(stored: StoredEvent) => void>();
  private readonly now: () => number;
  private readonly capacity: number;
  private readonly windowMs: number;

  constructor({ now = Date.now, capacity, windowMs }: EventHubOptions = {}) {
    this.now = now;
    this.capacity = capacity ?? DEFAULT_EVENT_CAPACITY;
    this.windowMs = windowMs ?? DEFAULT_EVENT_WINDOW_MS;
    this.seq = now() * 1000;
  }

  /** The id of the newest event (the stream's position for a client that starts now). */
  get lastId(): number {
    return this.seq;
  }

  publish<T extends LiveEventType>(type: T, data: LiveEventData[T], audience: EventAudience): void {
    const at = this.now();
    const stored: StoredEvent = { event: { id: ++this.seq, type, time: new Date(at).toISOString(), data }, audience };
    this.kept.push(stored);
    this.trim(at);
    for (const listener of this.listeners) {
      try {
        listener(stored);
      } catch {
        /* one broken client must not stop the others; its stream closes itself */
      }
    }
  }

  /**
   * The events after `lastId`, oldest first; `null` when some of them are no longer kept (or the id is
   * not one this run could have given), so the client must reload instead of replaying.
   */
  since(lastId: number): StoredEvent[] | null {
    this.trim(this.now());
    if (!Number.isSafeInteger(lastId) || lastId > this.seq) return null;
    const oldestKept = this.kept[0]?.event.id ?? this.seq + 1;
    // Everything after lastId is kept when the oldest kept event is the one right after it (or older).
    if (lastId + 1 < oldestKept) return null;
    return this.kept.filter((s) => s.event.id > lastId);
  }

  /** Calls `listener` with every event published from now on; returns how to stop. */
  listen(listener: (stored: StoredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  private trim(at: number): void {
    let drop = Math.max(0, this.kept.length - this.capacity);
    while (drop < this.kept.length && at - Date.parse(this.kept[drop].event.time) > this.windowMs) drop++;
    if (drop) this.kept.splice(0, drop);
  }
}

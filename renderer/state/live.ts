import { create } from 'zustand';
import type { LiveEvent, LiveEventType } from '../../shared/events.js';
import type { SessionStore } from './session.js';

/** What a view shows and reloads when it changes. */
export type LiveTopic = 'wallets' | 'history' | 'tokens' | 'chain' | 'rates' | 'fees' | 'payees' | 'approvals' | 'policy' | 'apps';
const ALL_TOPICS: readonly LiveTopic[] = [
  'wallets',
  'history',
  'tokens',
  'chain',
  'rates',
  'fees',
  'payees',
  'approvals',
  'policy',
  'apps',
];

const TOPICS_OF: Record<LiveEventType, readonly LiveTopic[]> = {
  balance: ['wallets', 'fees'],
  'payment.received': ['wallets', 'history'],
  'payment.state': ['wallets', 'history'],
  'token.received': ['tokens', 'history'],
  // Confirmations count from the tip.
  block: ['chain', 'history'],
  rate: ['rates', 'wallets'],
  'sync.state': ['chain'],
  'sync.error': ['chain'],
  'feeManager.low': ['fees'],
  payees: ['payees'],
  // A sent approval moves balances and history too.
  approval: ['approvals', 'wallets', 'history'],
  policy: ['policy'],
  apps: ['apps'],
  reset: ALL_TOPICS,
};

/** Bursts of events (a block confirming many payments) reload each view once. */
const COALESCE_MS = 150;

export interface LiveState {
  connected: boolean;
  /** Bumped when something of the topic changed; views reload when theirs moves. */
  ticks: Record<LiveTopic, number>;
  tip: number | null;
  syncError: string | null;
}

export interface LiveNotices {
  received(e: LiveEvent<'payment.received'>['data']): void;
  tokensReceived(e: LiveEvent<'token.received'>['data']): void;
  syncError(message: string): void;
  feeManagerLow(e: LiveEvent<'feeManager.low'>['data']): void;
}

/**
 * The live event stream as the views see it: follows the session (connects once signed in, stops on sign
 * out), turns events into topic ticks the views reload on, and tells the user about what arrived.
 */
export function createLiveStore(session: SessionStore, notices: LiveNotices) {
  const store = create<LiveState>(() => ({
    connected: false,
    ticks: { wallets: 0, history: 0, tokens: 0, chain: 0, rates: 0, fees: 0, payees: 0, approvals: 0, policy: 0, apps: 0 },
    tip: null,
    syncError: null,
  }));
  const due = new Set<LiveTopic>();
  let flush: ReturnType<typeof setTimeout> | undefined;
  const bump = (topics: readonly LiveTopic[]) => {
    for (const t of topics) due.add(t);
    flush ??= setTimeout(() => {
      flush = undefined;
      const ticks = { ...store.getState().ticks };
      for (const t of due) ticks[t] += 1;
      due.clear();
      store.setState({ ticks });
    }, COALESCE_MS);
  };

  let stop: (() => void) | null = null;
  let following: string | null = null;
  const follow = () => {
    const { authToken, phase, client } = session.getState();
    const token = phase === 'ready' ? authToken : null;
    if (token === following) return;
    stop?.();
    stop = null;
    following = token;
    store.setState({ connected: false });
    if (!token) return;
    stop = client.liveEvents(
      { authToken: token },
      {
        event(e) {
          const type = e.type as LiveEventType;
          if (type === 'block') store.setState({ tip: (e.data as { height: number }).height, syncError: null });
          if (type === 'payment.received') notices.received(e.data as LiveEvent<'payment.received'>['data']);
          if (type === 'token.received') notices.tokensReceived(e.data as LiveEvent<'token.received'>['data']);
          if (type === 'feeManager.low') notices.feeManagerLow(e.data as LiveEvent<'feeManager.low'>['data']);
          if (type === 'sync.error') {
            const { message } = e.data as { message: string };
            if (store.getState().syncError !== message) notices.syncError(message);
            store.setState({ syncError: message });
          }
          bump(TOPICS_OF[type] ?? []);
        },
        end() {
          // The session ended elsewhere (signed out, expired, user removed): back to the sign-in screen.
          following = null;
          stop = null;
          void session.getState().logout();
        },
        connected: (up) => store.setState({ connected: up }),
      },
    );
  };
  session.subscribe(follow);
  follow();
  return store;
}

export type LiveStore = ReturnType<typeof createLiveStore>;

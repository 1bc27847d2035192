import { create } from 'zustand';
import type { MeOutput, OperationInput, OperationName, OperationOutput, SessionOutput } from '../../shared/operations.js';
import type { Role } from '../../shared/roles.js';
import { ApiError, type KeysteadClient } from '../api/client.js';

export type Phase = 'starting' | 'firstRun' | 'locked' | 'login' | 'ready' | 'unreachable';

export interface SessionState {
  client: KeysteadClient;
  phase: Phase;
  authToken: string | null;
  me: MeOutput | null;
  version: string;
  network: string;
  apiUrl: string | null;
  startError: string | null;
  start(): Promise<void>;
  setup(input: OperationInput<'setup'>): Promise<void>;
  login(email: string, password: string): Promise<void>;
  logout(): Promise<void>;
  /** Calls an operation as the signed-in user; a 401 sends the user back to the login screen. */
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  role(): Role | null;
}

const TOKEN_KEY = 'keystead.authToken';

/** The session is the engine's, mirrored here; the token lives in memory (and the tab's sessionStorage in the browser). */
export function createSessionStore(
  client: KeysteadClient,
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
  pageOrigin: () => string = () => window.location.origin,
) {
  return create<SessionState>((set, get) => {
    const remember = (token: string | null) => {
      if (!storage || client.host === 'desktop') return;
      if (token) storage.setItem(TOKEN_KEY, token);
      else storage.removeItem(TOKEN_KEY);
    };

    const enter = async (session: SessionOutput) => {
      remember(session.authToken);
      const { output: me } = await client.call('me', {}, { authToken: session.authToken });
      const apiUrl = client.vault ? (await client.vault.status()).apiUrl : pageOrigin();
      set({ authToken: session.authToken, me, phase: 'ready', apiUrl });
    };

    return {
      client,
      phase: 'starting',
      authToken: null,
      me: null,
      version: '',
      network: '',
      apiUrl: null,
      startError: null,

      async start() {
        try {
          if (client.vault) {
            const vault = await client.vault.status();
            if (!vault.exists) return set({ phase: 'firstRun' });
            if (!vault.unlocked) return set({ phase: 'locked' });
          }
          const { output: status } = await client.call('appStatus', {});
          set({ version: status.version, network: status.network });
          if (!status.initialised) return set({ phase: 'firstRun' });
          const saved = storage && client.host === 'browser' ? storage.getItem(TOKEN_KEY) : null;
          if (saved) {
            try {
              const { output: me } = await client.call('me', {}, { authToken: saved });
              return set({ authToken: saved, me, phase: 'ready', apiUrl: pageOrigin() });
            } catch {
              remember(null);
            }
          }
          set({ phase: 'login' });
        } catch (err) {
          set({ phase: 'unreachable', startError: (err as Error).message });
        }
      },

      async setup(input) {
        const result = client.vault ? await client.vault.setup(input) : await client.call('setup', input);
        if (client.vault) {
          const { output: status } = await client.call('appStatus', {});
          set({ version: status.version, network: status.network });
        }
        await enter(result.output);
      },

      async login(email, password) {
        const result = get().phase === 'locked' && client.vault ? await client.vault.unlock({ email, password }) : await client.call('login', { email, password });
        if (client.vault && !get().version) {
          const { output: status } = await client.call('appStatus', {});
          set({ version: status.version, network: status.network });
        }
        await enter(result.output);
      },

      async logout() {
        const token = get().authToken;
        remember(null);
        set({ authToken: null, me: null, phase: 'login' });
        if (token) await client.call('logout', {}, { authToken: token }).catch(() => undefined);
      },

      async call(name, input) {
        try {
          return (await client.call(name, input, { authToken: get().authToken ?? undefined, serviceId: get().me?.serviceId })).output;
        } catch (err) {
          if (err instanceof ApiError && err.kind === 'unauthenticated') {
            remember(null);
            set({ authToken: null, me: null, phase: 'login' });
          }
          throw err;
        }
      },

      role() {
        return get().me?.role ?? null;
      },
    };
  });
}

export type SessionStore = ReturnType<typeof createSessionStore>;

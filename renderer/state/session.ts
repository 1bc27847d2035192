import { create } from 'zustand';
import type { AnyContract, InputOf, OutputOf } from '../../shared/operation.js';
import { OPERATIONS, type MeOutput, type SessionOutput } from '../../shared/operations.js';
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
  setup(input: InputOf<typeof OPERATIONS.setup>): Promise<void>;
  /** `otp`: the second factor's code, once the engine asked for it (OTP_REQUIRED). */
  login(email: string, password: string, otp?: string): Promise<void>;
  logout(): Promise<void>;
  /** Calls an operation as the signed-in user; a 401 sends the user back to the login screen. */
  call<C extends AnyContract>(op: C, input: InputOf<C>): Promise<OutputOf<C>>;
  role(): Role | null;
}

const TOKEN_KEY = 'keystead.authToken';

/**
 * The session is the engine's, mirrored here; the token lives in memory (and the tab's sessionStorage in
 * the browser). The client decides how first run and sign-in happen on its host; this store never asks.
 */
export function createSessionStore(client: KeysteadClient, storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null) {
  return create<SessionState>((set, get) => {
    const remember = (token: string | null) => {
      if (!storage || !client.keepsToken) return;
      if (token) storage.setItem(TOKEN_KEY, token);
      else storage.removeItem(TOKEN_KEY);
    };
    const saved = () => (storage && client.keepsToken ? storage.getItem(TOKEN_KEY) : null);

    const enter = async (session: SessionOutput) => {
      remember(session.authToken);
      const { output: me } = await client.call(OPERATIONS.me, {}, { authToken: session.authToken });
      if (!get().version) {
        const { output: status } = await client.call(OPERATIONS.appStatus, {});
        set({ version: status.version, network: status.network });
      }
      set({ authToken: session.authToken, me, phase: 'ready', apiUrl: await client.apiUrl() });
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
          const s = await client.start();
          set({ version: s.version, network: s.network });
          if (s.state === 'firstRun') return set({ phase: 'firstRun' });
          if (s.state === 'locked') return set({ phase: 'locked' });
          const token = saved();
          if (token) {
            try {
              const { output: me } = await client.call(OPERATIONS.me, {}, { authToken: token });
              return set({ authToken: token, me, phase: 'ready', apiUrl: await client.apiUrl() });
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
        await enter(await client.setup(input));
      },

      async login(email, password, otp) {
        await enter(await client.signIn(email, password, get().phase === 'locked', otp));
      },

      async logout() {
        const token = get().authToken;
        remember(null);
        set({ authToken: null, me: null, phase: 'login' });
        if (token) await client.call(OPERATIONS.logout, {}, { authToken: token }).catch(() => undefined);
      },

      async call(op, input) {
        try {
          return (await client.call(op, input, { authToken: get().authToken ?? undefined, serviceId: get().me?.serviceId })).output;
        } catch (err) {
          // OTP_REQUIRED asks for a code for this one action (an approval's vote); the session itself still holds.
          if (err instanceof ApiError && err.kind === 'unauthenticated' && err.code !== 'OTP_REQUIRED') {
            remember(null);
            set({ authToken: null, me: null, phase: 'login' });
          }
          // The role changed since sign-in (an admin demoted this user): the header and the views follow it.
          if (err instanceof ApiError && err.code === 'ROLE_FORBIDDEN') {
            const authToken = get().authToken;
            if (authToken)
              void client
                .call(OPERATIONS.me, {}, { authToken })
                .then(({ output: me }) => get().authToken === authToken && set({ me }))
                .catch(() => undefined);
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

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Role } from '../../shared/roles.js';
import type { Db } from '../store/database.js';
import type { Repos } from '../store/repos/index.js';
import type { Logger } from '../log/logger.js';
import type { LiveEventData, LiveEventType } from '../../shared/events.js';

/** The credentials a call arrived with, whatever the wire (headers, IPC argument). */
export interface Credentials {
  authToken?: string;
  uid?: string;
  apiKey?: string;
  serviceId?: string;
}

/** Facts about the caller's connection that are not credentials. */
export interface CallMeta {
  /** Identifies the client for throttling: the remote address, or `ipc:<window>`. */
  clientId: string;
  /**
   * The route names the organisation by the caller's credential alone (the public service's `/v1` paths of
   * enterprise operations): a `serviceid` header is then optional, but still refused when it names another.
   */
  serviceIdFromCredential?: boolean;
}

export interface Caller {
  uid: string;
  email: string;
  role: Role;
  /** Hash of the session token the call used, when it used one (logout revokes it). */
  sessionHash?: string;
  /** The API key the call used, when it used one. */
  apiKeyId?: string;
  /** That key's lineage: the first key of its rotations (a policy naming any of them names it). */
  apiKeyLineage?: string;
}

export interface EngineConfig {
  version: string;
  network: string;
  /** How long an authToken stays valid. */
  sessionTtlMs: number;
  /** The domain of this Keystead's paymail aliases (alias@domain). */
  paymailDomain: string;
  /** Paymail domains served by known hosts, before DNS (e.g. { "b.test": "http://127.0.0.1:7481" }). */
  paymailHosts?: Readonly<Record<string, string>>;
  /**
   * How long a P2P receiver has to get a payment onto the chain before Keystead broadcasts it itself; also
   * how long a transaction on the books may be missing from the chain before the books are repaired.
   */
  broadcastWindowMs: number;
}

/**
 * What every capability may use. Each capability declares what else it needs in its own services.ts:
 * the repositories its code uses (`repos: Pick<Repos, …>`), database transactions if it groups writes,
 * and its narrow, typed dependencies. The engine builds one object that satisfies them all, and the type
 * check refuses a capability reaching a repository it did not declare.
 */
export interface CoreServices {
  config: EngineConfig;
  now: () => number;
  logger: Logger;
  /** Where capabilities say what changed, for the live event stream. */
  events: EventPublisher;
}

/** The store's repositories, by name: a capability picks the ones it uses (`repos: Pick<Repos, 'wallets' | …>`). */
export type { Repos };

/**
 * For a capability that groups its writes in one database transaction (`db.transaction(fn)()`): the
 * handle's transaction and nothing else, so no capability runs SQL of its own beside its repositories.
 */
export interface TransactionServices {
  db: Pick<Db, 'transaction'>;
}

/** Who may receive an event: every signed-in user, those who may see a wallet, or some roles. */
export type EventAudience = { kind: 'everyone' } | { kind: 'wallet'; walletRow: number } | { kind: 'roles'; roles: readonly Role[] };

export interface EventPublisher {
  publish<T extends LiveEventType>(type: T, data: LiveEventData[T], audience: EventAudience): void;
}

export interface OpContext<S extends CoreServices = CoreServices> {
  services: S;
  caller: Caller | null;
  meta: CallMeta;
}

/** The caller of an authenticated operation; the operations table guarantees it is set. */
export function callerOf(ctx: { caller: Caller | null }): Caller {
  if (!ctx.caller) throw new Error('authenticated operation ran without a caller');
  return ctx.caller;
}

/** An approved request being carried out: the move it makes must be the one its approvers reviewed. */
export interface ApprovedCall {
  approvalId: string;
  /** The reviewed outputs (script, satoshis) and the paymail or URI paid. */
  outputs: readonly { script: string; satoshis: number }[];
  counterparty: string | null;
  /** The network fee the approvers reviewed (null: not shown to them): the move may not pay much more. */
  fee?: number | null;
  /** Set once a move of the call paid the reviewed outputs: any further move is judged by the policy on its own. */
  consumed?: boolean;
}

/** Who an operation call runs for, seen by anything it calls (the policy's check of each move of value). */
export interface CallScope {
  operation: string;
  /** The call's validated input: what a request awaiting approval keeps (without its secrets) to run again. */
  input: unknown;
  caller: Caller | null;
  approval: ApprovedCall | null;
}

/**
 * The call a piece of engine work belongs to. `executeOperation` runs every handler inside it, so the
 * policy's check of a move knows who asked for it and through which operation, whatever the transport,
 * without every value-moving operation passing it along. Work outside any call (none moves value) sees none.
 */
export const callScope = new AsyncLocalStorage<CallScope>();

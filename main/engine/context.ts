import type { Role } from '../../shared/roles.js';
import type { Db } from '../store/database.js';
import type { Repos } from '../store/repos/index.js';
import type { Throttle } from './auth/throttle.js';
import type { LocalNode } from '../chain/local/local-node.js';
import type { ChainProvider } from '../chain/types.js';
import type { WalletSync } from './sync/wallet-sync.js';
import type { PaymailClient } from './paymail/client.js';
import type { PaymailHostMap } from './paymail/host-map.js';
import type { KeyRing } from './payments/keyring.js';
import type { AddressBook } from './wallets/address-book.js';
import type { Logger } from '../log/logger.js';
import type { CompilePool } from './contracts/compile-pool.js';

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
}

export interface Caller {
  uid: string;
  email: string;
  role: Role;
  /** Hash of the session token the call used, when it used one (logout revokes it). */
  sessionHash?: string;
  /** The API key the call used, when it used one. */
  apiKeyId?: string;
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

/** Everything a handler may use; built once per engine. */
export interface Services {
  db: Db;
  repos: Repos;
  config: EngineConfig;
  throttle: Throttle;
  now: () => number;
  logger: Logger;
  addressBook: AddressBook;
  /** Where transactions go and chain facts come from. */
  chain: ChainProvider;
  /** The embedded node, on the local network only (faucet, mining). */
  node: LocalNode | null;
  sync: WalletSync;
  /** Payment attempts being delivered right now, which settling leaves alone. */
  inFlight: Set<string>;
  keyring: KeyRing;
  /** Compiles untrusted contract source off the event loop. */
  compiler: CompilePool;
  paymail: PaymailClient;
  paymailHosts: PaymailHostMap;
  /** The data dir's key for sealing wallet seeds (created on first use, kept in the encrypted database). */
  sealingKey(): Buffer;
}

export interface OpContext {
  services: Services;
  caller: Caller | null;
  meta: CallMeta;
}

/** The caller of an authenticated operation; the operations table guarantees it is set. */
export function callerOf(ctx: OpContext): Caller {
  if (!ctx.caller) throw new Error('authenticated operation ran without a caller');
  return ctx.caller;
}

import { z } from 'zod';
import { ROLES, type Role } from './roles.js';
import type { OperationName } from './operation-names.js';
import { email, givenPassword, id, label, newPassword, organisationName, paging, personName, role } from './schemas.js';
import { boolish, logoUrl, memberList, optionalText, requiredWalletId, walletId, walletPassword, walletType, withWalletId, type WalletTypeName } from './wallet-schemas.js';
import { lookupInput, payInput, quoteInput, type PaymentRequest } from './payment-schemas.js';

export type { PaymentRequest } from './payment-schemas.js';

export { OPERATION_NAMES, type OperationName } from './operation-names.js';

/**
 * The operations table: every capability of Keystead is one entry here, with its input schema and who may
 * call it. REST routes, the UI's RPC over HTTP and the Electron IPC channels are adapters onto this one
 * table, so authorization is written once. `access: 'public'` needs no credentials; otherwise the listed
 * roles. The table is data the renderer also reads, to hide what a role cannot do.
 */
export type Access = 'public' | readonly Role[];

interface OperationDef<I extends z.ZodType> {
  input: I;
  access: Access;
  /** One line for the README and the OpenAPI-ish route list. */
  summary: string;
  /** Whether the call must also carry the organisation's serviceid (the spec's enterprise API). */
  enterprise?: boolean;
  /** Whether each call (success or failure) is written to the audit log. */
  audit?: boolean;
}

const ALL_ROLES = ROLES;
const ADMIN: readonly Role[] = ['admin'];
/** Roles that hold and move money; viewers only look. */
const WALLET_USERS: readonly Role[] = ['admin', 'manager', 'operator', 'api_user'];
/** Exporting a recovery phrase is for people, not scripts. */
const SEED_EXPORTERS: readonly Role[] = ['admin', 'manager', 'operator'];

const walletRef = withWalletId(z.object({ walletId }));

function op<I extends z.ZodType>(def: OperationDef<I>): OperationDef<I> {
  return def;
}

export const OPERATIONS = {
  appStatus: op({
    input: z.object({}),
    access: 'public',
    summary: 'Whether the organisation is set up yet, plus version and network. No credentials.',
  }),
  setup: op({
    input: z.object({
      organisation: organisationName,
      email,
      password: newPassword,
      firstName: personName.optional(),
      lastName: personName.optional(),
    }),
    access: 'public',
    summary: 'First run only: creates the organisation and its first admin, and signs that admin in.',
    audit: true,
  }),
  login: op({
    input: z.object({ email, password: givenPassword }),
    access: 'public',
    summary: 'Signs a user in and returns an authToken.',
    audit: true,
  }),
  logout: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Revokes the authToken the call was made with.',
    audit: true,
  }),
  me: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'The signed-in user, their organisation and serviceId.',
  }),
  changePassword: op({
    input: z.object({ currentPassword: givenPassword, newPassword, keepApiKeys: boolish }),
    access: ALL_ROLES,
    summary: 'Changes your own password; your other sessions are signed out and your API keys revoked (unless keepApiKeys is true).',
    audit: true,
  }),
  createApiKey: op({
    input: z.object({ label: label.optional() }),
    access: ALL_ROLES,
    summary: 'Creates an API key for yourself (for uid + apikey credentials). The key is shown once.',
    audit: true,
  }),
  listApiKeys: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Your active API keys (never the keys themselves).',
  }),
  rotateApiKey: op({
    input: z.object({ keyId: id }),
    access: ALL_ROLES,
    summary: 'Replaces one of your API keys with a new one; the old one stops working at once.',
    audit: true,
  }),
  revokeApiKey: op({
    input: z.object({ keyId: id }),
    access: ALL_ROLES,
    summary: 'Revokes one of your API keys.',
    audit: true,
  }),
  createUser: op({
    input: z.object({
      email,
      password: newPassword,
      role,
      firstName: personName.default(''),
      lastName: personName.default(''),
      title: personName.default(''),
    }),
    access: ADMIN,
    enterprise: true,
    summary: 'Creates a user of the organisation with a role.',
    audit: true,
  }),
  updateUser: op({
    input: z.object({ userId: id, role: role.optional(), firstName: personName.optional(), lastName: personName.optional(), title: personName.optional() }),
    access: ADMIN,
    enterprise: true,
    summary: "Changes a user's role and details. The last admin cannot be demoted.",
    audit: true,
  }),
  deleteUser: op({
    input: z.object({ userId: id }),
    access: ADMIN,
    enterprise: true,
    summary: "Removes a user's access at once (sessions and API keys); their wallets stay with the organisation.",
    audit: true,
  }),
  listUsers: op({
    input: z.object({}),
    access: ADMIN,
    enterprise: true,
    summary: 'The users of the organisation.',
  }),
  auditLog: op({
    input: paging,
    access: ADMIN,
    enterprise: true,
    summary: 'The audit log, newest first, paged.',
  }),
  createWallet: op({
    input: z.object({
      walletTitle: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(100, { error: 'is too long' }),
      mnemonicPhrase: optionalText(1000),
      derivationPath: optionalText(40),
      paymail: optionalText(200),
      paymailActivate: boolish,
      type: walletType,
      walletLogo: logoUrl,
      serviceId: optionalText(100),
      walletPassword,
      members: memberList,
    }),
    access: WALLET_USERS,
    summary: 'Creates an HD wallet (new or from a mnemonic) in your account; walletTitle "default" creates the default wallet.',
    audit: true,
  }),
  listWallets: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Your wallets and the shared wallets you are a member of.',
  }),
  deleteWallet: op({
    input: withWalletId(z.object({ walletId: requiredWalletId, force: boolish })),
    access: WALLET_USERS,
    summary: 'Deletes one of your wallets and its data; refused while it holds coins unless force is true.',
    audit: true,
  }),
  deleteAllWallets: op({
    input: z.object({ force: boolish }),
    access: WALLET_USERS,
    summary: 'Deletes all your wallets; refused while any holds coins unless force is true.',
    audit: true,
  }),
  walletAddresses: op({
    input: walletRef,
    access: ALL_ROLES,
    summary: 'Up to 20 unused receive addresses of a wallet (wallet API).',
  }),
  walletAddress: op({
    input: walletRef,
    access: ALL_ROLES,
    summary: 'The next unused receive address of a wallet and its paymail (wallet API).',
  }),
  addresses: op({
    input: walletRef,
    access: ['manager'],
    summary: 'Up to 20 unused receive addresses of a wallet (the spec\'s address API: manager only).',
  }),
  address: op({
    input: walletRef,
    access: ['manager'],
    summary: 'The next unused receive address and paymail of a wallet (the spec\'s address API: manager only).',
  }),
  exportMnemonic: op({
    input: withWalletId(z.object({ walletId, password: givenPassword, walletPassword })),
    access: SEED_EXPORTERS,
    summary: "Shows a wallet's recovery phrase; needs your account password again (and the wallet password for secure wallets).",
    audit: true,
  }),
  setWalletMembers: op({
    input: withWalletId(z.object({ walletId, members: memberList })),
    access: WALLET_USERS,
    summary: 'Sets who may use a shared wallet (owner only).',
    audit: true,
  }),
  networkStatus: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Which network, its tip, mempool (local), fee policy and the last rate update.',
  }),
  faucet: op({
    input: withWalletId(z.object({
      address: optionalText(64),
      walletId,
      satoshis: z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number of satoshis' }).positive({ error: 'must be positive' }),
    })),
    access: ['admin', 'manager'],
    summary: 'Local network only: sends test coins to an address, or to a wallet\'s next address.',
  }),
  mineBlock: op({
    input: z.object({ blocks: z.coerce.number({ error: 'must be a number' }).int().min(1, { error: 'must be at least 1' }).max(100, { error: 'must be 100 at most' }).default(1) }),
    access: ['admin', 'manager'],
    summary: 'Local network only: mines the mempool into new blocks now.',
  }),
  listRates: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'The exchange-rate table (price of 1 BSV), with each rate\'s source and time.',
  }),
  setRate: op({
    input: z.object({
      currency: z.string({ error: 'must be a string' }).trim().toUpperCase().regex(/^[A-Z]{3,10}$/, { error: 'must be a currency code like EUR' }),
      rate: z.union([z.coerce.number({ error: 'must be a number' }).positive({ error: 'must be positive' }).finite(), z.null()]),
    }),
    access: ['admin', 'manager'],
    summary: 'Sets (or with rate null removes) a rate in the table. On the network USD comes from the provider.',
    audit: true,
  }),
  convertAmount: op({
    input: z.object({
      satoshis: z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number of satoshis' }).min(0, { error: 'must not be negative' }),
      currency: z.string({ error: 'must be a string' }).trim().min(1, { error: 'is required' }).max(10, { error: 'is too long' }),
    }),
    access: ALL_ROLES,
    summary: 'Converts satoshis into a currency of the rate table.',
  }),
  resolveUri: op({
    input: withWalletId(z.object({
      uri: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(2000, { error: 'is too long' }),
      amount: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number of satoshis' }).positive({ error: 'must be positive' }).optional()),
      walletId,
    })),
    access: WALLET_USERS,
    summary: 'Turns a payment URI (payto:, paymail, bitcoin:, address) into a payment request for pay.',
  }),
  quotePayment: op({
    input: withWalletId(quoteInput),
    access: WALLET_USERS,
    summary: 'What a payment request would cost from a wallet, before paying: recipients, fee, who pays it, the balance after, and whether the funds suffice.',
  }),
  pay: op({
    input: withWalletId(payInput),
    access: WALLET_USERS,
    summary: 'Pays a payment request from a wallet: P2P to a paymail peer, or broadcast.',
    audit: true,
  }),
  history: op({
    input: withWalletId(z.object({
      walletId,
      nextPageToken: z.coerce.number({ error: 'must be a number' }).int().min(0, { error: 'must not be negative' }).default(0),
      maxResults: z.coerce.number({ error: 'must be a number' }).int().min(1, { error: 'must be at least 1' }).max(200, { error: 'must be 200 at most' }).default(20),
    })),
    access: ALL_ROLES,
    summary: "A wallet's transactions, newest first, paged.",
  }),
  lookup: op({
    input: lookupInput,
    access: ALL_ROLES,
    summary: 'The BSV (and token) balance held by a private key, converted, filtered and paged.',
  }),
  feeManagerInit: op({
    input: z.object({ mnemonic: optionalText(1000) }),
    access: ['admin', 'manager'],
    enterprise: true,
    summary: "Creates the organisation's fee wallet, which then pays the network fees of its payments.",
    audit: true,
  }),
  feeManagerAddresses: op({
    input: z.object({}),
    access: ['admin', 'manager'],
    enterprise: true,
    summary: "The fee wallet's addresses, to fund it.",
  }),
  feeManagerMetrics: op({
    input: z.object({}),
    access: ['admin', 'manager'],
    enterprise: true,
    summary: "Refreshes and returns the fee wallet's balance and outputs with their states.",
  }),
  listPaymailHosts: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Where paymail domains are looked up before DNS (e.g. local domains).',
  }),
  setPaymailHost: op({
    input: z.object({
      domain: z.string({ error: 'is required' }).trim().toLowerCase().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, { error: 'must be a domain name' }),
      url: z.union([z.string().trim().regex(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { error: 'must be an http(s) origin like http://127.0.0.1:7480' }), z.null()]),
    }),
    access: ['admin'],
    summary: 'Maps a paymail domain to a host URL (null removes it).',
    audit: true,
  }),
  compile: op({
    input: z.object({
      sourceCode: z.string({ error: 'is required (base64 of the sCrypt source)' }).trim().min(1, { error: 'is required' }).max(4_000_000, { error: 'is too large (about 3 MB of source at most)' })
        .regex(/^[A-Za-z0-9+/=\s]+$/, { error: 'must be base64' }),
      optimize: boolish,
      file: optionalText(200),
    }),
    access: ALL_ROLES,
    summary: 'Compiles sCrypt source (base64) to Bitcoin Script: ASM with $placeholders, hex, and the scryptlib artifact.',
  }),
} as const satisfies { [N in OperationName]: OperationDef<z.ZodType> };
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['input']>;

export interface AppStatusOutput {
  initialised: boolean;
  version: string;
  network: string;
}
export interface SessionOutput {
  authToken: string;
  uid: string;
  role: Role;
  serviceId: string;
  expiresAt: string;
}
export interface MeOutput {
  uid: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  title: string;
  serviceId: string;
  organisation: string;
}

export interface UserOutput {
  uid: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}
export interface ApiKeyInfo {
  keyId: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
}
export interface NewApiKey extends ApiKeyInfo {
  uid: string;
  /** Shown once; only its hash is kept. */
  apiKey: string;
}
export interface AuditEntryOutput {
  id: number;
  at: string;
  actorUid: string | null;
  actorEmail: string | null;
  action: string;
  target: string | null;
  outcome: 'success' | 'error';
  code: string | null;
  client: string | null;
}

export interface WalletSummary {
  walletID: string;
  walletTitle: string;
  walletLogo: string | null;
  type: WalletTypeName;
  paymail: string | null;
  paymailActive: boolean;
  derivationPath: string;
  access: 'owner' | 'member';
  owner: string;
  members: string[];
  createdAt: string;
  /** Satoshis, from the wallet's known outputs. */
  balance: { confirmed: number; unconfirmed: number };
}
export interface RateOutput {
  currency: string;
  rate: number | null;
  source: string;
  updatedAt: string | null;
}
export interface NetworkStatusOutput {
  network: string;
  provider: string;
  tip: { height: number; hash: string } | null;
  mempoolSize: number | null;
  feePolicy: { satoshis: number; bytes: number; dustLimit: number } | null;
  faucet: boolean;
  rates: RateOutput | null;
  syncError: string | null;
  error: string | null;
}
export interface AddressesOutput {
  walletID: string;
  addresses: string[];
  /** The public service's spelling, kept for its clients. */
  addressess: string[];
  paymail: string | null;
}

/** What each operation returns inside the envelope's `data`, next to status and msg. */
export interface OperationOutputs {
  appStatus: AppStatusOutput;
  setup: SessionOutput;
  login: SessionOutput;
  logout: { revoked: boolean };
  me: MeOutput;
  changePassword: { signedOutSessions: number; revokedApiKeys: { keyId: string; label: string }[] };
  createApiKey: NewApiKey;
  listApiKeys: { apiKeys: ApiKeyInfo[] };
  rotateApiKey: NewApiKey & { replacedKeyId: string };
  revokeApiKey: { keyId: string };
  createUser: { uid: string; email: string; role: Role };
  updateUser: UserOutput;
  deleteUser: { userId: string };
  listUsers: { users: UserOutput[] };
  auditLog: { entries: AuditEntryOutput[]; meta: { nextPageToken: number | null } };
  createWallet: { walletID: string; paymail: string | null; walletTitle: string; type: WalletTypeName; derivationPath: string };
  listWallets: { wallets: WalletSummary[] };
  deleteWallet: { walletId: string };
  deleteAllWallets: { deleted: string[] };
  walletAddresses: AddressesOutput;
  walletAddress: { walletID: string; address: string; paymail: string | null };
  addresses: AddressesOutput;
  address: { walletID: string; address: string; paymail: string | null };
  exportMnemonic: { walletID: string; mnemonic: string; derivationPath: string };
  setWalletMembers: { walletID: string; members: string[] };
  networkStatus: NetworkStatusOutput;
  faucet: { txid: string; address: string; satoshis: number };
  mineBlock: { height: number; hash: string; blocks: number; txCount: number };
  listRates: { base: 'BSV'; rates: RateOutput[] };
  setRate: RateOutput;
  convertAmount: { satoshis: number; currency: string; amount: number; rate: number; source: string; updatedAt: string | null };
  resolveUri: { data: PaymentRequest };
  quotePayment: QuoteOutput;
  pay: PayOutput;
  history: { walletID: string; history: HistoryEntry[]; meta: { nextPageToken: number | null } };
  lookup: LookupOutput;
  feeManagerInit: { walletID: string; address: string };
  feeManagerAddresses: { addresses: string[] };
  feeManagerMetrics: FeeMetricsOutput;
  listPaymailHosts: { hosts: { domain: string; url: string; source: 'config' | 'admin' | 'self' }[] };
  setPaymailHost: { domain: string; url: string | null };
  compile: CompileOutput;
}

export interface CompileDiagnostic {
  file: string;
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}
export interface CompileOutput {
  /** ASM of the locking-script template, constructor arguments as $name (as the public service returns). */
  scrypt: string;
  hex: string;
  artifact: Record<string, unknown>;
  errors: CompileDiagnostic[];
}

/**
 * Where a transaction stands with the chain: `pending` (not in a block yet; `seenByChain` says whether any
 * provider has it), `confirmed` (in a block; see `confirmations`), or `failed` (refused or vanished; its
 * effect on the books was undone and `failureReason` says why).
 */
export type PaymentState = 'pending' | 'confirmed' | 'failed';

/** A payment request priced against a wallet's spendable coins now (nothing is reserved). */
export interface QuoteOutput {
  walletID: string;
  walletTitle: string;
  /** Each output, with the address it pays when it is a plain P2PKH output. */
  recipients: { address: string | null; script: string; satoshis: number }[];
  /** What the outputs pay, satoshis. */
  amount: number;
  /** The network fee, satoshis (0 when the funds do not suffice). */
  fee: number;
  feePaidBy: 'wallet' | 'feeManager';
  /** What leaves the wallet: the amount plus the fee when the wallet pays it. */
  cost: number;
  /** The wallet's spendable satoshis now, and after this payment. */
  available: number;
  availableAfter: number;
  sufficient: boolean;
  /** Why it cannot be paid now, in plain words; null when it can. */
  problem: string | null;
  /** The USD rate, to show amounts in money (null when the rate table has none). */
  rate: { currency: string; rate: number } | null;
}

export interface PayOutput {
  txid: string;
  fee: number;
  feePaidBy: 'wallet' | 'feeManager';
  delivered: 'p2p' | 'broadcast';
  walletID: string;
  state: PaymentState;
  /** False while a P2P receiver has the transaction but the chain has not shown it (Keystead broadcasts it itself after the window). */
  seenByChain: boolean;
  /** The txid the P2P receiver answered, when it differs from the transaction's own. */
  peerTxid: string | null;
}

export interface HistoryEntry {
  txid: string;
  state: PaymentState;
  seenByChain: boolean;
  failureReason: string | null;
  peerTxid: string | null;
  direction: 'in' | 'out' | 'self';
  /** Net change of the wallet's balance, satoshis (negative when paying). */
  amount: number;
  fee: number | null;
  counterparty: string | null;
  memo: string | null;
  time: string;
  height: number | null;
  confirmations: number;
}
export interface LookupCoin {
  protocol: string;
  balance?: number;
  tokenId?: string;
  splittable?: boolean;
  name?: string;
  address?: string;
  satsPerToken?: number;
  symbol?: string;
  redeemAddr?: string;
  image?: string;
  amount?: number;
  supply?: number;
  decimals?: number;
  sn?: number[];
  txid?: string;
  vout?: number;
  height?: number | null;
}
export interface LookupOutput {
  totalBalance: { currency: string; balance: number };
  coins: LookupCoin[];
  meta: { nextPageToken: number | null };
}
export interface FeeUtxo {
  script: string;
  tx_pos: number;
  address: string | null;
  path: string;
  tx_hash: string;
  value: number;
  createdAt: number | null;
  state: 'available' | 'reserved' | 'dust' | 'spent';
}
export interface FeeMetricsOutput {
  totalBalance: { balance: number; dustBalance: number };
  availableUtxos: FeeUtxo[];
  lowBalance: boolean;
}
export type OperationOutput<N extends OperationName> = OperationOutputs[N];

export function canCall(role: Role | null, name: OperationName): boolean {
  const access = OPERATIONS[name].access;
  if (access === 'public') return true;
  return role !== null && access.includes(role);
}

import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { givenPassword, walletTitle } from '../schemas.js';
import {
  boolish,
  logoUrl,
  memberList,
  optionalText,
  requiredWalletId,
  walletId,
  walletPassword,
  WALLET_TYPES,
  walletType,
  withWalletId,
} from '../wallet-schemas.js';
import { ALL_ROLES, SEED_EXPORTERS, WALLET_USERS } from './access.js';

const walletRef = withWalletId(z.object({ walletId }));

export const walletSummary = z.object({
  walletID: z.string(),
  walletTitle: z.string(),
  walletLogo: z.string().nullable(),
  type: z.enum(WALLET_TYPES),
  paymail: z.string().nullable(),
  paymailActive: z.boolean(),
  derivationPath: z.string(),
  access: z.enum(['owner', 'member']),
  owner: z.string(),
  members: z.array(z.string()),
  createdAt: z.string(),
  /** Satoshis, from the outputs the chain has. */
  balance: z.object({ confirmed: z.number().int(), unconfirmed: z.number().int() }),
});

export const addressesOutput = z.object({
  walletID: z.string(),
  addresses: z.array(z.string()),
  /** The public service's spelling, kept for its clients. */
  addressess: z.array(z.string()),
  paymail: z.string().nullable(),
});
const addressOutput = z.object({ walletID: z.string(), address: z.string(), paymail: z.string().nullable() });

const CREATE_WALLET_FIELDS = [
  'walletTitle',
  'mnemonicPhrase',
  'rootKey',
  'derivationPath',
  'paymail',
  'paymailActivate',
  'type',
  'walletLogo',
  'serviceId',
  'walletPassword',
  'members',
  'gapLimit',
];
/**
 * How many unused addresses in a row end an imported phrase's scan (BIP44's 20 by default). Wider finds
 * coins another wallet put further out: a Keystead's invoices past its gap limit, a shop's many unpaid addresses.
 */
const gapLimit = z.coerce
  .number({ error: 'must be a whole number from 20 to 1000' })
  .int({ error: 'must be a whole number from 20 to 1000' })
  .min(20, { error: 'must be at least 20 (the standard gap limit)' })
  .max(1000, { error: 'must be at most 1000' })
  .optional();
const createWalletInput = z.object({
  walletTitle,
  mnemonicPhrase: optionalText(1000),
  /** A BRC-100 root private key (64 hex digits or WIF): the wallet answers apps with it (standard wallets only). */
  rootKey: optionalText(200),
  derivationPath: optionalText(40),
  paymail: optionalText(200),
  paymailActivate: boolish,
  type: walletType,
  walletLogo: logoUrl,
  serviceId: optionalText(100),
  walletPassword,
  members: memberList,
  gapLimit,
});

const pathFinding = z.object({
  derivationPath: z.string(),
  label: z.string(),
  usedAddresses: z.number().int(),
  transactions: z.number().int(),
  satoshis: z.number().int(),
});

export const WALLET_OPERATIONS = byName(
  defineOperation({
    name: 'createWallet',
    input: createWalletInput,
    output: z.object({
      walletID: z.string(),
      paymail: z.string().nullable(),
      walletTitle: z.string(),
      type: z.enum(WALLET_TYPES),
      derivationPath: z.string(),
    }),
    access: WALLET_USERS,
    summary:
      'Creates an HD wallet (new, from a mnemonic, or from a BRC-100 root private key `rootKey`) in your account; walletTitle "default" creates the default wallet.',
    msg: 'Wallet created successfully.',
    rest: [
      { method: 'GET', path: '/v1/createWallet', headers: CREATE_WALLET_FIELDS },
      { method: 'POST', path: '/v1/createWallet', headers: CREATE_WALLET_FIELDS, body: true },
    ],
    audit: true,
  }),
  defineOperation({
    name: 'listWallets',
    input: z.object({}),
    output: z.object({ wallets: z.array(walletSummary) }),
    access: ALL_ROLES,
    summary: 'Your wallets and the shared wallets you are a member of.',
    msg: 'Wallets fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/wallets' }],
  }),
  defineOperation({
    name: 'deleteWallet',
    input: withWalletId(z.object({ walletId: requiredWalletId, force: boolish })),
    output: z.object({ walletId: z.string() }),
    access: WALLET_USERS,
    summary: 'Deletes one of your wallets and its data; refused while it holds coins unless force is true.',
    msg: 'Wallet deleted successfully.',
    rest: [{ method: 'DELETE', path: '/v1/wallet', wallet: true, headers: ['force'], body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'deleteAllWallets',
    input: z.object({ force: boolish }),
    output: z.object({ deleted: z.array(z.string()) }),
    access: WALLET_USERS,
    summary: 'Deletes all your wallets; refused while any holds coins unless force is true.',
    msg: 'All wallets deleted successfully.',
    rest: [{ method: 'DELETE', path: '/v1/wallets', headers: ['force'], body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'walletAddresses',
    input: walletRef,
    output: addressesOutput,
    access: ALL_ROLES,
    summary: 'Up to 20 unused receive addresses of a wallet (wallet API).',
    msg: 'Wallet addresses fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/allAddresses', wallet: true }],
  }),
  defineOperation({
    name: 'walletAddress',
    input: walletRef,
    output: addressOutput,
    access: ALL_ROLES,
    summary: 'The next unused receive address of a wallet and its paymail (wallet API).',
    msg: 'Wallet address and paymail fetched successfully.',
    rest: [{ method: 'GET', path: '/v1/address', wallet: true }],
  }),
  defineOperation({
    name: 'addresses',
    input: walletRef,
    output: addressesOutput,
    access: ['manager'],
    summary: "Up to 20 unused receive addresses of a wallet (the spec's address API: manager only).",
    msg: 'Wallet addresses fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/addresses', wallet: true }],
  }),
  defineOperation({
    name: 'address',
    input: walletRef,
    output: addressOutput,
    access: ['manager'],
    summary: "The next unused receive address and paymail of a wallet (the spec's address API: manager only).",
    msg: 'Wallet address and paymail fetched successfully.',
    rest: [{ method: 'GET', path: '/api/v1/address', wallet: true }],
  }),
  defineOperation({
    name: 'exportMnemonic',
    input: withWalletId(z.object({ walletId, password: givenPassword.optional(), walletPassword })),
    output: z.object({
      walletID: z.string(),
      /** The recovery phrase; absent for a wallet created from a root key, which has none. */
      mnemonic: z.string().optional(),
      /** The BRC-100 root private key (64 hex digits) of a wallet created from one: its whole backup. */
      rootKey: z.string().optional(),
      derivationPath: z.string(),
    }),
    access: SEED_EXPORTERS,
    summary:
      "Shows a wallet's recovery phrase (or, for a wallet created from a BRC-100 root key, that `rootKey`); needs your account password again in the `password` header (and the wallet password for secure wallets). Without it: 403 PASSWORD_REQUIRED (the public service asks for none; its SDK cannot send one).",
    msg: 'Recovery phrase fetched. Keep it offline and private.',
    rest: [{ method: 'GET', path: '/v1/mnemonic', wallet: true, headers: ['password', 'walletPassword'] }],
    audit: true,
  }),
  defineOperation({
    name: 'setWalletMembers',
    input: withWalletId(z.object({ walletId, members: memberList })),
    output: z.object({ walletID: z.string(), members: z.array(z.string()) }),
    access: WALLET_USERS,
    summary: 'Sets who may use a shared wallet (owner only).',
    msg: 'Wallet members updated.',
    rest: [{ method: 'POST', path: '/v1/walletMembers', wallet: true, body: true }],
    audit: true,
  }),
  defineOperation({
    name: 'scanRecoveryPhrase',
    input: z.object({
      mnemonicPhrase: z.string({ error: 'is required' }).trim().min(1, { error: 'is required' }).max(1000, { error: 'is too long' }),
      derivationPath: optionalText(40),
      gapLimit,
    }),
    output: z.object({ paths: z.array(pathFinding), suggested: z.string() }),
    access: WALLET_USERS,
    summary:
      "Before importing a recovery phrase from another wallet: where its coins are. Walks the common account paths (m/44'/236'/0', m/44'/0'/0', m/0') and the one given, and suggests the path to import with. Nothing is stored.",
    msg: 'Recovery phrase scanned.',
    rest: [{ method: 'POST', path: '/v1/scanPhrase', body: true }],
  }),
);

import { randomUUID } from 'node:crypto';
import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { DEFAULT_WALLET_ID } from '../../../shared/wallet-schemas.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { OpContext } from '../context.js';
import type { WalletServices } from './services.js';
import { callerOf } from '../context.js';
import { DomainError } from '../../../shared/errors.js';
import { accountPathFrom, checkedMnemonic, newMnemonic } from './keys.js';
import { bestPath, scanPhrasePaths } from './path-scan.js';
import { freeNumericAlias, parseAlias, paymailOf } from './paymail-alias.js';
import { seal } from './seal.js';
import { accountNodeOf, checkedRootKey, sealedText, type WalletSecret } from './secret.js';

type CreateInput = ParsedInputOf<typeof OPERATIONS.createWallet>;

/** The associated data that binds a sealed seed to its wallet. */
export const sealAad = (ownerUid: string, walletId: string) => `keystead:wallet:${ownerUid}:${walletId}`;

/** Turns member e-mails or uids into uids of active users other than the owner. */
export function resolveMembers(services: WalletServices, ownerUid: string, members: readonly string[]): string[] {
  const uids = new Set<string>();
  for (const m of members) {
    const user = m.includes('@') ? services.repos.users.activeByEmail(m.toLowerCase()) : services.repos.users.byUid(m);
    if (!user || user.deletedAt !== null) throw new DomainError('VALIDATION_FAILED', `members: there is no user ${m}`);
    if (user.uid !== ownerUid) uids.add(user.uid);
  }
  return [...uids];
}

/** Checks the combination of type, password and members before any key is made. */
function checkKind(input: CreateInput): void {
  if (input.type === 'secure' && !input.walletPassword)
    throw new DomainError('VALIDATION_FAILED', 'walletPassword: is required for a secure wallet');
  if (input.type !== 'secure' && input.walletPassword) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `walletPassword: only secure wallets take a password (this one is ${input.type}); set type to secure`,
    );
  }
  if (input.type !== 'shared' && input.members?.length)
    throw new DomainError('VALIDATION_FAILED', `members: only shared wallets have members (this one is ${input.type})`);
  if (input.rootKey !== undefined && input.mnemonicPhrase !== undefined)
    throw new DomainError('VALIDATION_FAILED', 'rootKey: give either a recovery phrase (mnemonicPhrase) or a root key, not both');
  // A root key is for apps (BRC-100), which reach standard wallets only: a secure wallet's keys need a password apps cannot send.
  if (input.rootKey !== undefined && input.type !== 'standard')
    throw new DomainError('VALIDATION_FAILED', `rootKey: only standard wallets are created from a root key (this one is ${input.type})`);
}

/** The wallet's secret: the root key or phrase given (checked), else a new phrase. */
function secretFor(input: CreateInput): WalletSecret {
  if (input.rootKey !== undefined) return { rootKey: checkedRootKey(input.rootKey) };
  return { mnemonic: input.mnemonicPhrase ? checkedMnemonic(input.mnemonicPhrase) : newMnemonic() };
}

export async function scanRecoveryPhrase(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.scanRecoveryPhrase>,
): Promise<OutputOf<typeof OPERATIONS.scanRecoveryPhrase>> {
  const paths = await scanPhrasePaths(ctx.services.chain, checkedMnemonic(input.mnemonicPhrase), input.derivationPath, input.gapLimit);
  return { paths, suggested: bestPath(paths) };
}

export async function createWalletFor(
  ctx: OpContext<WalletServices>,
  ownerUid: string,
  input: CreateInput,
  fixedWalletId?: string,
): Promise<WalletRow> {
  const { services } = ctx;
  const { repos, db, config } = services;
  checkKind(input);
  if (input.serviceId && input.serviceId !== repos.organisation.get()?.serviceId) {
    throw new DomainError('SERVICE_MISMATCH', 'serviceId does not match this organisation.');
  }
  const isDefault = input.walletTitle.toLowerCase() === 'default';
  const walletId = fixedWalletId ?? (isDefault ? DEFAULT_WALLET_ID : randomUUID());
  const members = resolveMembers(services, ownerUid, input.members ?? []);
  const derivationPath = accountPathFrom(input.derivationPath);
  const secret = secretFor(input);
  const wantsPaymail = input.paymail !== undefined || input.paymailActivate === true;
  let alias = input.paymail !== undefined ? parseAlias(input.paymail, config.paymailDomain) : null;

  const accountXpub = accountNodeOf(secret, derivationPath).toPublic().toString();
  const sealedSeed = await seal(sealedText(secret), sealAad(ownerUid, walletId), {
    sealingKey: services.sealingKey(),
    walletPassword: input.type === 'secure' ? input.walletPassword : undefined,
  });

  return db.transaction(() => {
    if (repos.wallets.own(ownerUid, walletId)) {
      throw new DomainError('CONFLICT', isDefault ? 'Your account already has its default wallet.' : 'A wallet with this id exists.');
    }
    if (wantsPaymail && alias === null) alias = freeNumericAlias(repos.wallets, config.paymailDomain);
    if (alias !== null && repos.wallets.byPaymail(alias, config.paymailDomain)) {
      throw new DomainError('CONFLICT', `The paymail ${alias}@${config.paymailDomain} is taken.`);
    }
    const row: Omit<WalletRow, 'id'> = {
      walletId,
      ownerUid,
      title: isDefault ? 'default' : input.walletTitle,
      logo: input.walletLogo ?? '',
      type: input.type,
      derivationPath,
      accountXpub,
      sealedSeed,
      paymailAlias: alias,
      paymailDomain: alias === null ? null : config.paymailDomain,
      paymailActive: alias !== null && input.paymailActivate !== false,
      createdAt: services.now(),
    };
    const id = repos.wallets.insert(row);
    repos.wallets.setMembers(id, members);
    const wallet = { ...row, id };
    services.addressBook.ensureGap(wallet, 0);
    return wallet;
  })();
}

/**
 * Creates a wallet as the public service does: it gets a paymail alias on the organisation's domain unless
 * the request names none and says `paymailActivate: false`; an imported phrase without a `derivationPath`
 * is looked for under the common account paths (the service's own winning ties), so funds made elsewhere show.
 * With `rootKey` (a BRC-100 root private key), apps see that key as the wallet's identity, and its addresses
 * hang under the account path of an HD seed derived from the key (secret.ts).
 */
export async function createWallet(ctx: OpContext<WalletServices>, input: CreateInput): Promise<OutputOf<typeof OPERATIONS.createWallet>> {
  if (input.paymail === undefined && input.paymailActivate === undefined) input = { ...input, paymailActivate: true };
  if (input.mnemonicPhrase && input.derivationPath === undefined) input = { ...input, derivationPath: 'auto' };
  if (input.derivationPath?.toLowerCase() === 'auto') {
    if (!input.mnemonicPhrase)
      throw new DomainError(
        'VALIDATION_FAILED',
        'derivationPath: auto finds the path of an imported phrase; give mnemonicPhrase too, or leave derivationPath out.',
      );
    // The import uses the path the phrase's coins are under (the default when none holds any).
    const found = await scanPhrasePaths(ctx.services.chain, checkedMnemonic(input.mnemonicPhrase), undefined, input.gapLimit);
    input = { ...input, derivationPath: bestPath(found) };
  }
  const w = await createWalletFor(ctx, callerOf(ctx).uid, input);
  // A root key gives the same addresses wherever it is imported: they may hold coins too.
  if (input.mnemonicPhrase || input.rootKey) {
    // An imported seed may already hold coins: find them (gap-limit scan). Locally that is quick, so the
    // answer waits for it; on the network it runs in the background and the balance fills in.
    const scan = ctx.services.sync.scanWallet(w, input.gapLimit);
    if (ctx.services.chain.events) await scan;
    else scan.catch((err: Error) => (ctx.services.sync.lastError = `scan of ${w.walletId}: ${err.message}`));
  }
  return { walletID: w.walletId, paymail: paymailOf(w), walletTitle: w.title, type: w.type, derivationPath: w.derivationPath };
}

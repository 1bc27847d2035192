import { ProtoWallet, type PrivateKey } from '@bsv/sdk';
import { DEFAULT_WALLET_ID } from '../../../shared/wallet-schemas.js';
import type { AppRow } from '../../store/repos/apps.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import * as a from './args.js';
import { appChanged, appsDefaultWallet } from './manage.js';
import { RootKeys } from './root-key.js';
import type { Brc100Services } from './services.js';
import { invalidOperation, invalidParameter, notImplemented, unauthorized, WalletErr } from './werr.js';

/** Every method of BRC-100's WalletInterface: the ones not served yet answer WERR_NOT_IMPLEMENTED, not a 404. */
export const WALLET_METHODS = [
  'createAction',
  'signAction',
  'abortAction',
  'listActions',
  'internalizeAction',
  'listOutputs',
  'relinquishOutput',
  'getPublicKey',
  'revealCounterpartyKeyLinkage',
  'revealSpecificKeyLinkage',
  'encrypt',
  'decrypt',
  'createHmac',
  'verifyHmac',
  'createSignature',
  'verifySignature',
  'acquireCertificate',
  'listCertificates',
  'proveCertificate',
  'relinquishCertificate',
  'discoverByIdentityKey',
  'discoverByAttributes',
  'isAuthenticated',
  'waitForAuthentication',
  'getHeight',
  'getHeaderForHeight',
  'getNetwork',
  'getVersion',
] as const;
export type WalletMethod = (typeof WALLET_METHODS)[number];

export const isWalletMethod = (m: string): m is WalletMethod => (WALLET_METHODS as readonly string[]).includes(m);

/** Calls that reveal key material or put the wallet's name to something: written to the audit trail with the app. */
const AUDITED = new Set<WalletMethod>(['revealCounterpartyKeyLinkage', 'revealSpecificKeyLinkage', 'decrypt', 'createSignature']);

/** Undecided apps recorded at most: past this a new originator is refused without being recorded. */
export const MAX_PENDING_APPS = 200;

/** Block headers by height (80 bytes, hex), where the chain keeps them: the local node does. */
export type HeaderSource = (height: number) => string | null;

/**
 * The wallet apps reach over BRC-100 (main/server/brc100-server.ts is its HTTP face). Every call is gated by
 * its originator: a new one is recorded as pending and waits for an admin's decision (decideApp), a denied or
 * revoked one is refused at once. An allowed app is answered by one wallet (its own, else the default wallet
 * for apps, in the account of the user who allowed it), with ProtoWallet over that wallet's BRC-100 root key
 * (root-key.ts). Private keys never leave this module.
 */
export class Brc100Host {
  private readonly rootKeys: RootKeys;
  private headers: HeaderSource | null = null;

  constructor(private readonly services: Brc100Services) {
    this.rootKeys = new RootKeys(services);
  }

  /** How long a new app's calls wait for a decision. */
  setWait(ms: number): void {
    this.services.appGate.waitMs = ms;
  }

  /** Where the listener listens (host:port), for listApps. */
  setListening(address: string | null): void {
    this.services.appGate.listening = address;
  }

  /** The listener is closing: waiting calls end now (refused, unless their app was just allowed). */
  closing(): void {
    this.services.appGate.wakeAll();
  }

  /** Where getHeaderForHeight reads headers (the host gives the local node's). */
  useHeaders(source: HeaderSource | null): void {
    this.headers = source;
  }

  /** Answers one call of `method` from `originator` (already checked by the listener), or throws a WalletErr. */
  async call(originator: string, method: string, body: unknown, client: string): Promise<unknown> {
    if (!isWalletMethod(method)) throw invalidParameter('method', `one of BRC-100's wallet methods, not ${method}`);
    const args = a.argsObject(body);
    if (method === 'isAuthenticated') return { authenticated: this.appOf(originator).state === 'allowed' };
    const app = await this.allowed(originator);
    if (method === 'waitForAuthentication') return this.answered(app, { authenticated: true });
    switch (method) {
      case 'getHeight':
        return this.answered(app, { height: (await this.services.chain.getTip()).height });
      case 'getHeaderForHeight':
        return this.answered(app, { header: this.headerAt(a.height(args)) });
      case 'getNetwork':
        // Only the real network is mainnet; the local chain and testnet are both "testnet" to an app.
        return this.answered(app, { network: this.services.config.network === 'mainnet' ? 'mainnet' : 'testnet' });
      case 'getVersion':
        return this.answered(app, { version: `keystead-${this.services.config.version}` });
      case 'getPublicKey':
      case 'revealCounterpartyKeyLinkage':
      case 'revealSpecificKeyLinkage':
      case 'encrypt':
      case 'decrypt':
      case 'createHmac':
      case 'verifyHmac':
      case 'createSignature':
      case 'verifySignature':
        return this.keyCall(app, method, args, client);
      default:
        throw notImplemented(method);
    }
  }

  /** The app's row, recorded as pending (and announced) the first time it calls. */
  private appOf(originator: string): AppRow {
    const { apps } = this.services.repos;
    const known = apps.get(originator);
    if (known) return known;
    // Local software can name any number of apps; the list an admin decides from stays readable.
    if (apps.pendingCount() >= MAX_PENDING_APPS)
      throw unauthorized('Too many apps are waiting to be allowed; an administrator must decide about them first.');
    if (apps.seen(originator, this.services.now())) {
      const row = apps.get(originator)!;
      this.services.logger.info({ originator }, 'a new BRC-100 app is waiting to be allowed');
      appChanged(this.services, row);
      return row;
    }
    return apps.get(originator)!;
  }

  /** The app, once allowed: a pending one waits for the decision (up to the gate's deadline). */
  private async allowed(originator: string): Promise<AppRow> {
    let app = this.appOf(originator);
    if (app.state === 'pending') {
      await this.services.appGate.wait(originator);
      app = this.services.repos.apps.get(originator)!;
    }
    if (app.state === 'allowed') return app;
    if (app.state === 'pending')
      throw unauthorized(`The app ${originator} has not been allowed yet: an administrator must allow it in Keystead (Apps).`);
    throw unauthorized(`The app ${originator} is ${app.state}: Keystead refuses its calls.`);
  }

  private answered<T>(app: AppRow, result: T): T {
    this.services.repos.apps.called(app.originator, this.services.now());
    return result;
  }

  private headerAt(height: number): string {
    if (!this.headers) throw invalidOperation('This chain does not serve block headers to apps (only the local node does, for now).');
    const header = this.headers(height);
    if (!header) throw invalidParameter('height', `the height of a block on this chain; there is no block ${height}`);
    return header;
  }

  /** The wallet that answers the app: its own or the default for apps, in the account of whoever allowed it. */
  private walletOf(app: AppRow): WalletRow {
    const id = app.walletId ?? appsDefaultWallet(this.services) ?? DEFAULT_WALLET_ID;
    const uid = app.decidedBy ?? '';
    const { wallets } = this.services.repos;
    const wallet = wallets.own(uid, id) ?? wallets.sharedWith(id, uid);
    if (!wallet)
      throw invalidOperation(
        `The wallet ${id} that answers ${app.originator} does not exist (any more); allow the app again with a wallet.`,
      );
    return wallet;
  }

  private async keyCall(app: AppRow, method: WalletMethod, args: a.Args, client: string): Promise<unknown> {
    const wallet = this.walletOf(app);
    const audited = AUDITED.has(method);
    try {
      const result = await this.crypto(method, args, await this.rootKeys.of(wallet));
      if (audited) this.audit(app, wallet, method, client, null);
      return this.answered(app, result);
    } catch (err) {
      if (audited) this.audit(app, wallet, method, client, err instanceof WalletErr ? err.name : 'ERROR');
      throw err;
    }
  }

  private audit(app: AppRow, wallet: WalletRow, method: WalletMethod, client: string, code: string | null): void {
    this.services.auditTrail.append({
      at: this.services.now(),
      actorUid: null,
      actorEmail: null,
      action: `brc100.${method}`,
      target: `app ${app.originator} · wallet ${wallet.walletId}`,
      outcome: code === null ? 'success' : 'error',
      code,
      client,
    });
  }

  /** The method, with its arguments checked, on ProtoWallet over the root key (BRC-42/43 derivation). */
  private async crypto(method: WalletMethod, args: a.Args, root: PrivateKey): Promise<unknown> {
    const wallet = new ProtoWallet(root);
    if (a.optionalBoolean(args, 'privileged'))
      throw new WalletErr('WERR_NOT_IMPLEMENTED', 3, 'Privileged keys are not supported yet by this Keystead.');
    const key = () => ({ protocolID: a.protocolID(args), keyID: a.keyID(args) });
    switch (method) {
      case 'getPublicKey':
        if (a.optionalBoolean(args, 'identityKey')) return wallet.getPublicKey({ identityKey: true });
        return wallet.getPublicKey({ ...key(), counterparty: a.counterparty(args, 'self'), forSelf: a.optionalBoolean(args, 'forSelf') });
      case 'revealCounterpartyKeyLinkage':
        return wallet.revealCounterpartyKeyLinkage({
          counterparty: a.publicKeyHex(args, 'counterparty'),
          verifier: a.publicKeyHex(args, 'verifier'),
        });
      case 'revealSpecificKeyLinkage': {
        const counterparty = a.counterparty(args, 'self');
        return wallet.revealSpecificKeyLinkage({ ...key(), counterparty, verifier: a.publicKeyHex(args, 'verifier') });
      }
      case 'encrypt':
        return wallet.encrypt({ ...key(), counterparty: a.counterparty(args, 'self'), plaintext: a.bytes(args, 'plaintext') });
      case 'decrypt':
        return this.refusing(
          () => wallet.decrypt({ ...key(), counterparty: a.counterparty(args, 'self'), ciphertext: a.bytes(args, 'ciphertext') }),
          invalidParameter('ciphertext', 'ciphertext this key decrypts'),
        );
      case 'createHmac':
        return wallet.createHmac({ ...key(), counterparty: a.counterparty(args, 'self'), data: a.bytes(args, 'data') });
      case 'verifyHmac':
        return this.refusing(
          () =>
            wallet.verifyHmac({
              ...key(),
              counterparty: a.counterparty(args, 'self'),
              data: a.bytes(args, 'data'),
              hmac: a.bytes(args, 'hmac', 32),
            }),
          new WalletErr('ERR_INVALID_HMAC', 1, 'HMAC is not valid'),
        );
      case 'createSignature': {
        const data = a.optionalBytes(args, 'data');
        const hashToDirectlySign = a.optionalBytes(args, 'hashToDirectlySign', 32);
        if (!data && !hashToDirectlySign) throw invalidParameter('data', 'given (or hashToDirectlySign)');
        return wallet.createSignature({ ...key(), counterparty: a.counterparty(args, 'anyone'), data, hashToDirectlySign });
      }
      case 'verifySignature': {
        const data = a.optionalBytes(args, 'data');
        const hashToDirectlyVerify = a.optionalBytes(args, 'hashToDirectlyVerify', 32);
        if (!data && !hashToDirectlyVerify) throw invalidParameter('data', 'given (or hashToDirectlyVerify)');
        const signature = a.bytes(args, 'signature');
        const spec = { ...key(), counterparty: a.counterparty(args, 'self'), forSelf: a.optionalBoolean(args, 'forSelf') };
        return this.refusing(
          () => wallet.verifySignature({ ...spec, data, hashToDirectlyVerify, signature }),
          new WalletErr('ERR_INVALID_SIGNATURE', 1, 'Signature is not valid'),
        );
      }
      default:
        throw notImplemented(method);
    }
  }

  /** A check that fails (a wrong HMAC, signature or ciphertext) answers the app's error, not a 500. */
  private async refusing<T>(run: () => Promise<T>, refusal: WalletErr): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof WalletErr) throw err;
      throw refusal;
    }
  }
}

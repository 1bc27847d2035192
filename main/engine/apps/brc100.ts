import { ProtoWallet, type PrivateKey, type WalletProtocol } from '@bsv/sdk';
import { DEFAULT_WALLET_ID } from '../../../shared/wallet-schemas.js';
import type { AppRow } from '../../store/repos/apps.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import * as a from './args.js';
import { isWalletMethod, type WalletMethod } from './methods.js';
import { actionsMethods } from './actions/index.js';
import type { AppCall, MethodHandler } from './call.js';
import { certificatesMethods } from './certificates/index.js';
import { allowerOf } from './allower.js';
import { appChanged, appsDefaultWallet } from './manage.js';
import { outputsMethods } from './outputs/index.js';
import { protocolUse } from './permissions/key-use.js';
import { permitOf } from './permissions/permit.js';
import { RootKeys } from './root-key.js';
import type { Brc100Services } from './services.js';
import { invalidOperation, invalidParameter, notImplemented, unauthorized, WalletErr } from './werr.js';
import { isWalletPaymentProtocol } from './permissions/scope.js';

/** Calls that reveal key material or put the wallet's name to something: written to the audit trail with the app. */
const AUDITED = new Set<WalletMethod>(['revealCounterpartyKeyLinkage', 'revealSpecificKeyLinkage', 'decrypt', 'createSignature']);

/** What a privileged identity key request is granted as (a protocol name no app can use for everyday keys: level 0 is open). */
const PRIVILEGED_IDENTITY: WalletProtocol = [0, 'identity key'];

/** Methods answered by their group's handlers (the keys, crypto and chain methods are answered here). */
const HANDLERS: Partial<Record<WalletMethod, MethodHandler>> = { ...actionsMethods, ...outputsMethods, ...certificatesMethods };

/** Undecided apps recorded at most: past this a new originator is refused without being recorded. */
export const MAX_PENDING_APPS = 200;

/**
 * The wallet apps reach over BRC-100 (main/server/brc100-server.ts is its HTTP face). Every call is gated by
 * its originator: a new one is recorded as pending and waits for an admin's decision (decideApp), a denied or
 * revoked one is refused at once. An allowed app is answered by one wallet (its own, else the default wallet
 * for apps, in the account of the user who allowed it), with ProtoWallet over that wallet's BRC-100 root key
 * (root-key.ts). Private keys never leave this module.
 */
export class Brc100Host {
  private readonly rootKeys: RootKeys;

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
        return this.answered(app, { header: await this.headerAt(a.height(args)) });
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
      default: {
        const handler = HANDLERS[method];
        if (!handler) throw notImplemented(method);
        return this.answered(app, await handler(this.callOf(app, args, client)));
      }
    }
  }

  /** What a group's handler receives for one call of an allowed app. */
  private callOf(app: AppRow, args: a.Args, client: string): AppCall {
    const wallet = this.walletOf(app);
    return {
      services: this.services,
      app,
      wallet,
      args,
      client,
      rootKey: () => this.rootKeys.of(wallet),
      audit: (what, code, detail) => this.audit(app, wallet, what, client, code, detail),
      permit: permitOf(this.services, app),
    };
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
    if (app.state === 'allowed') {
      allowerOf(this.services.repos, app); // still on the authority of an admin or manager
      return app;
    }
    if (app.state === 'pending')
      throw unauthorized(`The app ${originator} has not been allowed yet: an administrator must allow it in Keystead (Apps).`);
    throw unauthorized(`The app ${originator} is ${app.state}: Keystead refuses its calls.`);
  }

  private answered<T>(app: AppRow, result: T): T {
    this.services.repos.apps.called(app.originator, this.services.now());
    return result;
  }

  /** From the configured chain: the local node's own, or the network's (checked: network/woc-header.ts). */
  private async headerAt(height: number): Promise<string> {
    const header = await this.services.chain.getBlockHeader(height);
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
    const privileged = a.optionalBoolean(args, 'privileged') === true;
    // Every use of the privileged keys is audited, with the reason the app gave.
    const audited = AUDITED.has(method) || privileged;
    const detail = privileged ? `privileged: ${a.privilegedReason(args) ?? 'no reason given'}` : undefined;
    try {
      if (privileged && method === 'revealCounterpartyKeyLinkage')
        throw invalidParameter('privileged', 'false for revealCounterpartyKeyLinkage: it reveals every key shared with the counterparty');
      // The organisation's grant of the protocol (level 0 is open, except for privileged keys; permissions/permit.ts)
      // before any key is derived. The privileged identity key is granted as protocol [0, "identity key"].
      const use = protocolUse(method, args) ?? (privileged ? { protocolID: PRIVILEGED_IDENTITY, counterparty: 'self' } : null);
      if (use)
        await permitOf(this.services, app).protocol(use.protocolID, use.counterparty, detail ? `${method}, ${detail}` : method, privileged);
      const result = await this.crypto(method, args, await this.rootKeys.of(wallet, privileged));
      if (audited) this.audit(app, wallet, method, client, null, detail);
      return this.answered(app, result);
    } catch (err) {
      if (audited) this.audit(app, wallet, method, client, err instanceof WalletErr ? err.name : 'ERROR', detail);
      throw err;
    }
  }

  private audit(app: AppRow, wallet: WalletRow, what: string, client: string, code: string | null, detail?: string): void {
    this.services.auditTrail.append({
      at: this.services.now(),
      // On whose authority the app acts: the user who allowed it (the app itself is named in the target).
      actorUid: app.decidedBy,
      actorEmail: app.decidedBy ? (this.services.repos.users.byUid(app.decidedBy)?.email ?? null) : null,
      action: `brc100.${what}`,
      target: `app ${app.originator} · wallet ${wallet.walletId}${detail ? ` · ${detail}` : ''}`,
      outcome: code === null ? 'success' : 'error',
      code,
      client,
    });
  }

  /**
   * The method, with its arguments checked, on ProtoWallet over the root key (BRC-42/43 derivation): the
   * everyday root key, or the privileged key for a `privileged` call (root-key.ts).
   */
  private async crypto(method: WalletMethod, args: a.Args, root: PrivateKey): Promise<unknown> {
    const wallet = new ProtoWallet(root);
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
        const spec = key();
        if (isWalletPaymentProtocol(spec.protocolID[1]))
          throw unauthorized(
            'The wallet payment protocol (BRC-29) signs only for the wallet: its keys hold the coins paid into it. Spend them with createAction.',
          );
        return wallet.createSignature({ ...spec, counterparty: a.counterparty(args, 'anyone'), data, hashToDirectlySign });
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

import { BigNumber, KeyDeriver, PrivateKey, UnlockingScript, type Transaction, type WalletProtocol } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { WalletServices } from '../wallets/services.js';
import { ChildKey, childPrivateKey, childPublicKey, childTweak, type ChainNodePublic } from '../wallets/child-key.js';
import type { SignTask } from '../wallets/key-worker.js';
import { KeyWorkers, KeyWorkUnavailable } from '../wallets/key-workers.js';
import { openSeed } from '../wallets/open-seed.js';
import { walletSecretOf } from '../wallets/secret.js';
import { IDENTITY_CHAIN } from '../wallets/identity-key.js';

/** Child keys kept per open account: enough for a busy wallet's recent coins, bounded for the biggest. */
const KEYS_PER_ACCOUNT = 4096;

/** An open chain node (`<account>/0`, `/1`, `/2`): its private key beside its public parts. */
interface ChainNode extends ChainNodePublic {
  key: BigNumber;
}

interface OpenAccount {
  chains: Map<number, ChainNode>;
  keys: Map<string, ChildKey>;
  /** The BRC-100 root key (apps/root-key.ts): the imported root key itself, else `<account>/3'`. */
  brc100Root?: BigNumber;
}

/**
 * The wallet's BRC-100 root key, `<account>/3'` (apps/root-key.ts): opened with the account so that coins
 * an app's BRC-29 payment brought in (utxos.brc29) are signed with their BRC-42 child of it.
 */
const BRC100_ROOT_CHAIN = 0x80000003;

/** The chains an open account keeps: receive, change, the paymail identity, and the BRC-100 root. */
const OPEN_CHAINS = [0, 1, IDENTITY_CHAIN, BRC100_ROOT_CHAIN];

/** BRC-29's protocol: a payment's key is `[2, '3241645161d8']`, key id `<prefix> <suffix>`, counterparty the sender. */
export const BRC29_PROTOCOL: WalletProtocol = [2, '3241645161d8'];

/** What a BRC-29 payment's coin is derived from (utxos.brc29, JSON). */
export interface Brc29Remittance {
  senderIdentityKey: string;
  derivationPrefix: string;
  derivationSuffix: string;
}

/** A wallet coin as signing needs it: at an HD address (chain, idx), or a BRC-29 payment's (brc29 JSON). */
export interface CoinKeyRef {
  chain: number | null;
  idx: number | null;
  brc29?: string | null;
}

const unavailable = (what: string, err: KeyWorkUnavailable) =>
  new DomainError('BUSY', `${what}: ${err.message}. Nothing was sent; try again.`);

/**
 * Opens wallet seeds to sign. Account nodes of standard, escrow and shared wallets are kept in memory
 * once opened (never on disk); a secure wallet's is derived for each payment from its password and
 * dropped after. Opening and signing run on the key workers when other work waits for the event loop
 * (key-workers.ts, which also says what crosses to them).
 */
export class KeyRing {
  private readonly accounts = new Map<number, { xpub: string; account: OpenAccount }>();

  constructor(
    private readonly services: Pick<WalletServices, 'sealingKey' | 'throttle'>,
    private readonly workers: KeyWorkers = KeyWorkers.shared(),
  ) {}

  async open(wallet: WalletRow, walletPassword?: string): Promise<SigningAccount> {
    const cached = this.accounts.get(wallet.id);
    if (cached && cached.xpub === wallet.accountXpub && wallet.type !== 'secure') return new SigningAccount(cached.account, this.workers);
    const opened = await openSeed(this.services, wallet, walletPassword);
    let chains;
    let rootKey: string | undefined;
    try {
      const secret = walletSecretOf(opened);
      rootKey = secret.rootKey;
      chains = await (secret.rootKey !== undefined
        ? this.workers.openAccount(secret.rootKey, wallet.derivationPath, OPEN_CHAINS, 'rootKey')
        : this.workers.openAccount(secret.mnemonic, wallet.derivationPath, OPEN_CHAINS));
    } catch (err) {
      if (err instanceof KeyWorkUnavailable) throw unavailable('The wallet could not be opened', err);
      throw err;
    }
    const account: OpenAccount = { chains: new Map(), keys: new Map() };
    chains.forEach(({ secret, node }, i) => {
      account.chains.set(OPEN_CHAINS[i], { ...node, key: new BigNumber([...secret]) });
      secret.fill(0);
    });
    // A wallet made from a BRC-100 root key answers apps with that key (apps/root-key.ts), not with `<account>/3'`.
    account.brc100Root = rootKey !== undefined ? new BigNumber(rootKey, 16) : account.chains.get(BRC100_ROOT_CHAIN)!.key;
    if (wallet.type !== 'secure') this.accounts.set(wallet.id, { xpub: wallet.accountXpub, account });
    return new SigningAccount(account, this.workers);
  }

  /**
   * An address's public key, derived elsewhere (the address book derives addresses ahead, on the key
   * workers): while the wallet's account is open here, its private key is kept beside it, so signing for
   * the address later costs no multiplication. Nothing when the account is not open.
   */
  remember(wallet: Pick<WalletRow, 'id' | 'accountXpub'>, chain: number, idx: number, pub: Uint8Array): void {
    const cached = this.accounts.get(wallet.id);
    // The account must be this wallet's (a row id can be reused after a deletion).
    if (cached && cached.xpub === wallet.accountXpub) new SigningAccount(cached.account, this.workers).learn(chain, idx, pub);
  }

  forget(walletRow: number): void {
    this.accounts.delete(walletRow);
  }
}

/** One input to sign: whose key, and the output it spends. */
export interface P2pkhSpend {
  account: SigningAccount;
  chain: number;
  idx: number;
  /** Set for a BRC-29 payment's coin (utxos.brc29): its key is derived from that, not from chain/idx. */
  brc29?: string | null;
  satoshis: number;
  script: string;
}

export class SigningAccount {
  constructor(
    private readonly account: OpenAccount,
    private readonly workers: KeyWorkers,
  ) {}

  private node(chain: number): ChainNode {
    const node = this.account.chains.get(chain);
    if (!node) throw new RangeError(`chain ${chain} is not open`);
    return node;
  }

  private keep(chain: number, idx: number, key: ChildKey): ChildKey {
    const { keys } = this.account;
    if (keys.size >= KEYS_PER_ACCOUNT) keys.delete(keys.keys().next().value!);
    keys.set(`${chain}/${idx}`, key);
    return key;
  }

  /** The private key of `<account>/chain/idx`, derived once (on this thread) while the account stays open. */
  key(chain: number, idx: number): ChildKey {
    const known = this.account.keys.get(`${chain}/${idx}`);
    if (known) return known;
    const node = this.node(chain);
    const tweak = childTweak(node, idx);
    return this.keep(chain, idx, ChildKey.of(childPrivateKey(node.key, tweak), childPublicKey(node.pub, tweak)));
  }

  /** The private key of a BRC-29 payment's coin: the BRC-42 child of the BRC-100 root key (kept while the account is open). */
  brc29Key(r: Brc29Remittance): ChildKey {
    const id = `brc29:${r.senderIdentityKey} ${r.derivationPrefix} ${r.derivationSuffix}`;
    const known = this.account.keys.get(id);
    if (known) return known;
    const root = new PrivateKey((this.account.brc100Root ?? this.node(BRC100_ROOT_CHAIN).key).toArray('be', 32));
    const child = new KeyDeriver(root).derivePrivateKey(BRC29_PROTOCOL, `${r.derivationPrefix} ${r.derivationSuffix}`, r.senderIdentityKey);
    const key = ChildKey.of(new BigNumber(child.toArray('be', 32)), child.toPublicKey());
    const { keys } = this.account;
    if (keys.size >= KEYS_PER_ACCOUNT) keys.delete(keys.keys().next().value!);
    keys.set(id, key);
    return key;
  }

  /** The private key that spends a wallet coin, wherever it came from. */
  keyFor(coin: CoinKeyRef): ChildKey {
    if (coin.brc29) return this.brc29Key(JSON.parse(coin.brc29) as Brc29Remittance);
    return this.key(coin.chain ?? 0, coin.idx ?? 0);
  }

  /** Keeps the private key of an address whose public key was derived elsewhere. */
  learn(chain: number, idx: number, pub: Uint8Array): void {
    if (this.account.keys.has(`${chain}/${idx}`) || !this.account.chains.has(chain)) return;
    const node = this.node(chain);
    this.keep(chain, idx, ChildKey.of(childPrivateKey(node.key, childTweak(node, idx)), pub));
  }

  identityKey(): ChildKey {
    return this.key(IDENTITY_CHAIN, 0);
  }

  /**
   * What a key worker needs to sign with `<account>/chain/idx`: the private key (a scalar sum, no
   * multiplication), and its public key when known; else the public tweak and parent the worker derives
   * it from. `learn` keeps the key with the public key the worker answers.
   */
  private forWorker(
    chain: number,
    idx: number,
    brc29?: string | null,
  ): { secret: number[]; public: SignTask['publics'][number]; learn: (pub: Uint8Array) => void } {
    if (brc29) {
      const k = this.keyFor({ chain, idx, brc29 });
      return { secret: k.toArray('be', 32), public: { pub: k.compressedPublicKey() }, learn: () => {} };
    }
    const known = this.account.keys.get(`${chain}/${idx}`);
    if (known) return { secret: known.toArray('be', 32), public: { pub: known.compressedPublicKey() }, learn: () => {} };
    const node = this.node(chain);
    const tweak = childTweak(node, idx);
    const key = childPrivateKey(node.key, tweak);
    return {
      secret: key.toArray('be', 32),
      public: { tweak, parent: node.pub },
      learn: (pub) => void this.keep(chain, idx, ChildKey.of(key, pub)),
    };
  }

  /**
   * Signs `tx`'s inputs, all P2PKH (`spends[i]` for input i); `tx` is complete and not yet serialized. On a
   * key worker when the event loop is busy: it serves others meanwhile, and payments sign side by side.
   * Only the private keys of these inputs cross to the worker (see key-workers.ts). A worker that fails
   * fails the signing with BUSY, and nothing is signed.
   */
  static async signP2pkh(tx: Transaction, spends: readonly P2pkhSpend[]): Promise<void> {
    if (spends.length !== tx.inputs.length || spends.length === 0) throw new Error('one spend per input');
    const workers = spends[0].account.workers;
    const slots = new Map<string, number>();
    const keys: ReturnType<SigningAccount['forWorker']>[] = [];
    const accounts: SigningAccount[] = [];
    const inputs = spends.map((s, i) => {
      let at = accounts.indexOf(s.account);
      if (at < 0) at = accounts.push(s.account) - 1;
      const id = s.brc29 ? `${at}:brc29:${s.brc29}` : `${at}:${s.chain}/${s.idx}`;
      let key = slots.get(id);
      if (key === undefined) {
        slots.set(id, (key = keys.length));
        keys.push(s.account.forWorker(s.chain, s.idx, s.brc29));
      }
      const input = tx.inputs[i];
      return {
        txid: input.sourceTXID!,
        vout: input.sourceOutputIndex,
        sequence: input.sequence ?? 0xffffffff,
        satoshis: s.satoshis,
        script: s.script,
        key,
      };
    });
    const secrets = new Uint8Array(32 * keys.length);
    keys.forEach((k, i) => {
      secrets.set(k.secret, 32 * i);
      k.secret.fill(0);
    });
    const task: SignTask = {
      version: tx.version,
      lockTime: tx.lockTime,
      inputs,
      outputs: tx.outputs.map((o) => ({ script: o.lockingScript.toHex(), satoshis: o.satoshis! })),
      secrets: secrets.buffer,
      publics: keys.map((k) => k.public),
    };
    let signed;
    try {
      signed = await workers.sign(task);
    } catch (err) {
      if (err instanceof KeyWorkUnavailable) throw unavailable('The transaction could not be signed', err);
      throw err;
    }
    keys.forEach((k, i) => k.learn(signed.pubs[i]));
    tx.inputs.forEach((input, i) => (input.unlockingScript = UnlockingScript.fromHex(signed.unlockingScripts[i])));
  }
}

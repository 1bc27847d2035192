import { BigNumber, UnlockingScript, type Transaction } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { WalletRow } from '../../store/repos/wallets.js';
import type { WalletServices } from '../wallets/services.js';
import { ChildKey, childPrivateKey, childPublicKey, childTweak, type ChainNodePublic } from '../wallets/child-key.js';
import type { SignTask } from '../wallets/key-worker.js';
import { KeyWorkers, KeyWorkUnavailable } from '../wallets/key-workers.js';
import { openSeed } from '../wallets/open-seed.js';
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
}

/** The chains an open account keeps: receive, change, and the paymail identity. */
const OPEN_CHAINS = [0, 1, IDENTITY_CHAIN];

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
    try {
      chains = await this.workers.openAccount((JSON.parse(opened) as { mnemonic: string }).mnemonic, wallet.derivationPath, OPEN_CHAINS);
    } catch (err) {
      if (err instanceof KeyWorkUnavailable) throw unavailable('The wallet could not be opened', err);
      throw err;
    }
    const account: OpenAccount = { chains: new Map(), keys: new Map() };
    chains.forEach(({ secret, node }, i) => {
      account.chains.set(OPEN_CHAINS[i], { ...node, key: new BigNumber([...secret]) });
      secret.fill(0);
    });
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
  ): { secret: number[]; public: SignTask['publics'][number]; learn: (pub: Uint8Array) => void } {
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
      const id = `${at}:${s.chain}/${s.idx}`;
      let key = slots.get(id);
      if (key === undefined) {
        slots.set(id, (key = keys.length));
        keys.push(s.account.forWorker(s.chain, s.idx));
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

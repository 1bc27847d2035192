import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { othersWaiting } from '../../chain/others-waiting.js';
import { nativeCurve } from '../../crypto/secp256k1.js';
import type { ChainNodePublic } from './child-key.js';
import {
  openAccount,
  signInputs,
  type DeriveTask,
  type DerivedAddress,
  type OpenTask,
  type SignedInputs,
  type SignTask,
} from './key-worker.js';

/** The worker entry: beside this file under tsx (tests), beside the bundle in dist/. */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), here.endsWith('.ts') ? 'key-worker.ts' : 'key-worker.js');
}

/** A key worker failed or the pool is closed: the work was not done, and says nothing about the keys. */
export class KeyWorkUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyWorkUnavailable';
  }
}

const isBytes = (b: unknown, length: number) => b instanceof Uint8Array && b.length === length;

/**
 * The wallet keys' costly arithmetic on worker threads, one per core: deriving addresses ahead of need,
 * and, while other work waits for the event loop, opening accounts (seed and chain nodes) and signing
 * payments. Payments arriving together then sign side by side, beside the thread that serves them. With
 * libsecp256k1 loaded (crypto/secp256k1.ts) a signature costs 0.07 ms and opening an account a few
 * milliseconds, less than a hand-over: both then run on the calling thread, and the workers only derive
 * ahead. Where it does not load, @bsv/sdk's JavaScript does the arithmetic, and the hand-over pays.
 *
 * What crosses to a worker, and why that is safe: the workers are threads of this process running our
 * own code (key-worker.ts); nothing is serialized to disk or leaves the process. Only what a task needs is
 * sent: to open an account, its phrase; to sign, the private keys of the inputs being signed (never an
 * account or chain key). Secrets travel as bytes in a buffer moved to the worker (the sender's copy is
 * detached) and zeroed by the worker once read; opened chain keys come back through shared memory the
 * caller zeroes once read. Keys are never logged; a failed task's error carries only the worker's
 * message, which names no key.
 */
export class KeyWorkers {
  private static process: KeyWorkers | undefined;

  /**
   * The pool every engine of this process uses unless given its own (tests run many engines in one
   * process). Its threads start together with it and stay: each loads @bsv/sdk once (about a quarter of a
   * second), and a payment never waits for a thread to start. Idle, they do not keep the process alive.
   */
  static shared(): KeyWorkers {
    return (KeyWorkers.process ??= new KeyWorkers());
  }

  private pool: Piscina | null = null;
  private closed = false;
  private running = 0;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    /** The worker entry; another only in tests (a worker that fails). */
    private readonly file = workerFile(),
    private readonly threads = Math.max(1, os.availableParallelism()),
    /** When opening an account or signing goes to a worker: when other work waits for this thread, or always (tests). */
    private readonly handOver: 'when-busy' | 'always' = 'when-busy',
  ) {}

  private get workers(): Piscina {
    if (!this.pool) {
      // `name`: the function a starting worker loads first (the entry has no default export); each task names its own.
      const pool = new Piscina({ filename: this.file, name: 'signInputs', minThreads: this.threads, maxThreads: this.threads });
      // A worker failing outside any task (none of ours does) must not end the process: piscina replaces it.
      pool.on('error', () => {});
      this.pool = pool;
    }
    return this.pool;
  }

  private async run(name: string, task: object, transferList: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) throw new KeyWorkUnavailable('the key workers are closed');
    // Piscina keeps a worker that is still starting unreferenced, and a task waits for it unseen: while
    // tasks are out, a timer keeps the process alive for their answers.
    if (this.running++ === 0) this.keepAlive = setInterval(() => {}, 2 ** 30);
    try {
      return await this.workers.run(task, { name, transferList });
    } catch (err) {
      throw new KeyWorkUnavailable(`a key worker failed: ${(err as Error).message}`);
    } finally {
      if (--this.running === 0) clearInterval(this.keepAlive);
    }
  }

  /**
   * Whether costly key work goes to a worker now: when other work waited for this thread during a turn of
   * the event loop (others-waiting.ts); on an idle thread it runs here, where a hand-over would only add
   * to the wait.
   */
  private async handOverNow(): Promise<boolean> {
    if (this.handOver === 'always') return true;
    // With libsecp256k1, opening an account (a PBKDF2 in node:crypto and four multiplications) or
    // signing a payment costs less than handing it over (crypto/secp256k1.ts).
    if (nativeCurve) return false;
    return othersWaiting();
  }

  /** The chain nodes of an account, from its phrase (or root key, secret.ts): each one's private key (32 bytes) and public parts. */
  async openAccount(
    phrase: string,
    accountPath: string,
    chains: number[],
    kind: OpenTask['kind'] = 'mnemonic',
  ): Promise<{ secret: Uint8Array; node: ChainNodePublic }[]> {
    const bytes = Buffer.from(phrase, 'utf8');
    const moved = new Uint8Array(bytes.length);
    moved.set(bytes);
    bytes.fill(0);
    const secretsOut = new SharedArrayBuffer(32 * chains.length);
    const out = new Uint8Array(secretsOut);
    try {
      const task: OpenTask = { phrase: moved.buffer, kind, accountPath, chains, secretsOut };
      const nodes = (await this.handOverNow())
        ? ((await this.run('openAccount', task, [moved.buffer])) as ChainNodePublic[])
        : openAccount(task);
      if (!Array.isArray(nodes) || nodes.length !== chains.length || !nodes.every((n) => isBytes(n.chainCode, 32) && isBytes(n.pub, 33))) {
        throw new KeyWorkUnavailable('a key worker answered something other than the chain nodes');
      }
      return nodes.map((node, i) => ({ secret: out.slice(32 * i, 32 * i + 32), node }));
    } finally {
      out.fill(0);
    }
  }

  /** Addresses `from` … `to - 1` of a chain node, by public derivation. */
  async deriveAddresses(node: ChainNodePublic, from: number, to: number): Promise<DerivedAddress[]> {
    const task: DeriveTask = { node, from, to };
    const out = (await this.run('deriveAddresses', task)) as DerivedAddress[];
    if (!Array.isArray(out) || out.length !== to - from || !out.every((a) => typeof a.address === 'string' && isBytes(a.pub, 33))) {
      throw new KeyWorkUnavailable('a key worker answered something other than addresses');
    }
    return out;
  }

  /** Signs a P2PKH transaction's inputs. On a worker, `task.secrets` is moved there (detached here); either way it is zeroed once used. */
  async sign(task: SignTask): Promise<SignedInputs> {
    if (!(await this.handOverNow())) return signInputs(task);
    const out = (await this.run('signInputs', task, [task.secrets])) as SignedInputs;
    if (
      !out ||
      !Array.isArray(out.unlockingScripts) ||
      out.unlockingScripts.length !== task.inputs.length ||
      !out.unlockingScripts.every((s) => typeof s === 'string' && /^[0-9a-f]+$/.test(s)) ||
      !Array.isArray(out.pubs) ||
      out.pubs.length !== task.publics.length ||
      !out.pubs.every((p) => isBytes(p, 33))
    ) {
      throw new KeyWorkUnavailable('a key worker answered something other than signatures');
    }
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}

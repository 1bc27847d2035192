import { Transaction } from '@bsv/sdk';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { silentLogger, type Logger } from '../../log/logger.js';
import type { FeePolicy } from '../types.js';
import { nodeCalls, type LocalChain, type MinedBlock, type NodeCall } from './local-chain.js';
import type { FromNodeThread, NodeThreadData, ToNodeThread } from './node-thread-protocol.js';

/**
 * The thread's entry: beside the bundle in dist/; under tsx (tests), a CommonJS file that requires the
 * TypeScript entry, since tsx compiles what a worker requires, not a worker's own entry module.
 */
function entryFile(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), here.endsWith('.ts') ? 'node-thread-entry.cjs' : 'node-thread.js');
}

/** The node thread stopped, or never started: the call was not answered, and says nothing about the chain. */
export class NodeThreadUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeThreadUnavailable';
  }
}

export interface NodeThreadOptions {
  dataDir: string;
  password: string;
  policy?: FeePolicy;
  nativeBinding?: string;
  /** Mines every so many ms while transactions wait; 0 mines only on demand. */
  miningIntervalMs?: number;
  logger?: Logger;
  /** The first pause before a thread that stopped unasked is started again (tests shorten it). */
  restartDelayMs?: number;
}

/** A thread that stops is started again after 1 s, then 2, 4… up to a minute while it keeps stopping. */
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 60_000;
/** A thread that ran this long before stopping starts again after the first pause. */
const RESET_RESTART_AFTER_MS = 60_000;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/**
 * The local node on a thread of its own, as a real node runs on another machine: checking and recording
 * a transaction (its scripts, its ledger's encrypted commit) and mining then use the second core, beside
 * the thread that serves the API, and a busy node never holds up a request that does not need it.
 *
 * What crosses: the ledger's password once, at start (the thread is this process's own code; nothing
 * leaves the process); then calls by name (only those in NODE_CALLS are answered), their answers, and the
 * node's transactions (raw hex) and blocks, posted in the order they happened, each transaction before
 * the answer of the broadcast that made it, as listeners on one thread saw them.
 *
 * A thread that stops unasked (a crash, a worker out of memory) refuses the calls waiting on it (a
 * broadcast's outcome is then unknown, so the payment keeps its coins reserved), and is started again on
 * the same ledger; until it runs, calls are refused at once rather than left waiting.
 */
export class LocalNodeThread implements LocalChain {
  /** Starts the thread and opens the node's ledger in it; rejects with the node's own error if it cannot. */
  static async start(opts: NodeThreadOptions): Promise<LocalNodeThread> {
    const logger = opts.logger ?? silentLogger();
    const data: NodeThreadData = {
      dataDir: opts.dataDir,
      password: opts.password,
      policy: opts.policy,
      nativeBinding: opts.nativeBinding,
      miningIntervalMs: opts.miningIntervalMs ?? 0,
      logLevel: logger.level,
    };
    const { worker, faucetAddress, policy } = await launch(data, logger);
    return new LocalNodeThread(worker, data, faucetAddress, policy, logger, opts.restartDelayMs ?? FIRST_RESTART_DELAY_MS);
  }

  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly txListeners: ((e: { txid: string; tx: Transaction }) => void)[] = [];
  private readonly blockListeners: ((e: MinedBlock) => void)[] = [];
  /** Why calls are refused for good: set once close() was called. */
  private closedReason: string | null = null;
  /** Why calls are refused for now: the thread stopped unasked and is being started again. */
  private down: string | null = null;
  private restartDelay: number;
  private upSince = Date.now();
  private closing: Promise<void> | null = null;
  private onClosed: (() => void) | null = null;

  private constructor(
    private worker: Worker,
    /** What the thread starts with, kept to start it again (its mining interval follows setMiningInterval). */
    private readonly data: NodeThreadData,
    readonly faucetAddress: string,
    readonly policy: FeePolicy,
    private readonly logger: Logger,
    private readonly firstRestartDelay: number,
  ) {
    this.restartDelay = firstRestartDelay;
    this.attach(worker);
    Object.assign(
      this,
      nodeCalls((name, args) => this.call(name, args)),
    );
  }

  private attach(worker: Worker): void {
    this.worker = worker;
    this.upSince = Date.now();
    // An idle node does not keep the process alive (as the in-process node's mining timer did not); a
    // call waiting for its answer does.
    if (this.pending.size === 0) worker.unref();
    worker.on('message', (m: FromNodeThread) => this.received(m));
    worker.on('error', (err) => this.lost(worker, `the local node's thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      this.lost(worker, `the local node's thread stopped (exit ${code})`);
      if (this.closedReason !== null) this.onClosed?.();
    });
  }

  /**
   * The thread stopped: every waiting call is refused (its outcome unknown), and unless the node is closing,
   * the thread is started again on the same ledger, after a pause that doubles while it keeps failing.
   */
  private lost(worker: Worker, reason: string): void {
    if (worker !== this.worker) return;
    this.refuseWaiting(this.closedReason ?? reason);
    if (this.closedReason !== null || this.down !== null) return;
    this.down = reason;
    this.logger.error({ reason }, 'the local node stopped; starting it again');
    if (Date.now() - this.upSince > RESET_RESTART_AFTER_MS) this.restartDelay = this.firstRestartDelay;
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = this.restartDelay;
    this.restartDelay = Math.min(this.restartDelay * 2, MAX_RESTART_DELAY_MS);
    setTimeout(() => void this.restart(), delay).unref();
  }

  private async restart(): Promise<void> {
    if (this.closedReason !== null) return;
    try {
      const { worker } = await launch(this.data, this.logger);
      if (this.closedReason !== null) {
        await worker.terminate();
        return;
      }
      this.down = null;
      this.attach(worker);
      this.logger.info('the local node is running again');
    } catch (err) {
      this.logger.error({ err: (err as Error).message }, 'the local node could not be started again');
      this.scheduleRestart();
    }
  }

  declare accept: LocalChain['accept'];
  declare submit: LocalChain['submit'];
  declare faucet: LocalChain['faucet'];
  declare mine: LocalChain['mine'];
  declare mineBlocks: LocalChain['mineBlocks'];
  declare mempoolSize: LocalChain['mempoolSize'];
  declare tip: LocalChain['tip'];
  declare headerAt: LocalChain['headerAt'];
  declare blockAt: LocalChain['blockAt'];
  declare utxos: LocalChain['utxos'];
  declare heldScripts: LocalChain['heldScripts'];
  declare spentBy: LocalChain['spentBy'];
  declare balance: LocalChain['balance'];
  declare history: LocalChain['history'];
  declare txHex: LocalChain['txHex'];
  declare txStatus: LocalChain['txStatus'];
  declare setMiningInterval: LocalChain['setMiningInterval'];

  onTransaction(listener: (e: { txid: string; tx: Transaction }) => void): void {
    this.txListeners.push(listener);
  }

  onBlock(listener: (e: MinedBlock) => void): void {
    this.blockListeners.push(listener);
  }

  private call(name: NodeCall, args: unknown[]): Promise<unknown> {
    const refused = this.closedReason ?? this.down;
    if (refused !== null) return Promise.reject(new NodeThreadUnavailable(refused));
    if (name === 'setMiningInterval') this.data.miningIntervalMs = Number(args[0]);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ type: 'call', id, name, args });
    });
  }

  private post(m: ToNodeThread): void {
    this.worker.postMessage(m);
  }

  private received(m: FromNodeThread): void {
    switch (m.type) {
      case 'answer': {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (this.pending.size === 0) this.worker.unref();
        if (m.ok) p.resolve(m.value);
        else p.reject(new Error(m.message));
        return;
      }
      case 'batch':
        for (const one of m.messages) this.received(one);
        return;
      case 'tx': {
        // Parsed here when a listener first reads it, once for all of them: the wallets skip their own
        // broadcasts (booked with the pay), so most announcements are never parsed on this thread.
        let tx: Transaction | undefined;
        const raw = m.raw;
        const event = {
          txid: m.txid,
          get tx(): Transaction {
            return (tx ??= Transaction.fromBinary([...Buffer.from(raw, 'hex')]));
          },
        };
        this.tell(this.txListeners, event, 'tx');
        return;
      }
      case 'block':
        this.tell(this.blockListeners, m.block, 'block');
        return;
      case 'log':
        relayLog(this.logger, m.line);
        return;
      case 'closed':
        // The ledger is closed: end the thread (its script workers with it); 'exit' then resolves close().
        void this.worker.terminate();
        return;
      default:
        return;
    }
  }

  /** Tells listeners; their failure never turns an accepted transaction or a mined block into an error. */
  private tell<E>(listeners: ((e: E) => void)[], e: E, event: string): void {
    for (const listener of listeners) {
      try {
        listener(e);
      } catch (err) {
        this.logger.error({ event, err: (err as Error).message }, 'a local node listener failed');
      }
    }
  }

  private refuseWaiting(reason: string): void {
    for (const p of this.pending.values()) p.reject(new NodeThreadUnavailable(reason));
    this.pending.clear();
  }

  /** Closes the node's ledger on its thread and ends the thread; calls after this are refused. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.closedReason = 'the local node is closed';
      this.refuseWaiting(this.closedReason);
      if (this.down !== null || this.worker.threadId === -1) return resolve();
      this.onClosed = resolve;
      this.worker.ref();
      this.post({ type: 'close' });
    });
    return this.closing;
  }
}

/** Starts a thread on the ledger and waits until its node is open: its first answer is 'ready' or 'failed'. */
function launch(data: NodeThreadData, logger: Logger): Promise<{ worker: Worker; faucetAddress: string; policy: FeePolicy }> {
  const worker = new Worker(entryFile(), { workerData: data });
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromNodeThread) => {
      if (m.type === 'log') relayLog(logger, m.line);
      else if (m.type === 'ready') done(() => resolve({ worker, faucetAddress: m.faucetAddress, policy: m.policy }));
      else if (m.type === 'failed') done(() => reject(Object.assign(new Error(m.message), { name: m.name })));
    };
    const onError = (err: Error) => done(() => reject(new NodeThreadUnavailable(`the local node's thread failed: ${err.message}`)));
    const onExit = (code: number) => done(() => reject(new NodeThreadUnavailable(`the local node's thread stopped (exit ${code})`)));
    const done = (settle: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      settle();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** A log line of the node's thread (pino JSON, secrets already redacted there), to the starter's logger. */
function relayLog(logger: Logger, line: string): void {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const { level, msg, time: _time, name: _name, ...fields } = entry;
  const label = pino.levels.labels[Number(level)] as 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | undefined;
  if (label) logger[label]({ ...fields, thread: 'local-node' }, typeof msg === 'string' ? msg : '');
}

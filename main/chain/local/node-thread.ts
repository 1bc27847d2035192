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
}

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
    const worker = new Worker(entryFile(), { workerData: data });
    const ready = await new Promise<{ faucetAddress: string; policy: FeePolicy }>((resolve, reject) => {
      const onMessage = (m: FromNodeThread) => {
        if (m.type === 'log') relayLog(logger, m.line);
        else if (m.type === 'ready') done(() => resolve(m));
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
    return new LocalNodeThread(worker, ready.faucetAddress, ready.policy, logger);
  }

  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly txListeners: ((e: { txid: string; tx: Transaction }) => void)[] = [];
  private readonly blockListeners: ((e: MinedBlock) => void)[] = [];
  /** Why calls are refused: set once the thread stopped or was asked to close. */
  private stopped: string | null = null;
  private closing: Promise<void> | null = null;
  private onClosed: (() => void) | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly faucetAddress: string,
    readonly policy: FeePolicy,
    private readonly logger: Logger,
  ) {
    // An idle node does not keep the process alive (as the in-process node's mining timer did not); a
    // call waiting for its answer does.
    worker.unref();
    worker.on('message', (m: FromNodeThread) => this.received(m));
    worker.on('error', (err) => this.stop(`the local node's thread failed: ${err.message}`));
    worker.on('exit', (code) => {
      this.stop(`the local node's thread stopped (exit ${code})`);
      this.onClosed?.();
    });
    Object.assign(
      this,
      nodeCalls((name, args) => this.call(name, args)),
    );
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
    if (this.stopped !== null) return Promise.reject(new NodeThreadUnavailable(this.stopped));
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
      case 'tx': {
        // Parsed here, once for every listener: the event's transaction as the node took it.
        const tx = Transaction.fromBinary([...Buffer.from(m.raw, 'hex')]);
        this.tell(this.txListeners, { txid: m.txid, tx }, 'tx');
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

  private stop(reason: string): void {
    if (this.stopped === null) this.stopped = reason;
    for (const p of this.pending.values()) p.reject(new NodeThreadUnavailable(reason));
    this.pending.clear();
  }

  /** Closes the node's ledger on its thread and ends the thread; calls after this are refused. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.worker.threadId === -1) return resolve();
      this.onClosed = resolve;
      this.worker.ref();
      this.stop('the local node is closed');
      this.post({ type: 'close' });
    });
    return this.closing;
  }
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

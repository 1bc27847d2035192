import { Utils } from '@bsv/sdk';
import type { Args } from '../args.js';
import { invalidParameter } from '../werr.js';

/**
 * The arguments of createAction, signAction and abortAction checked as the reference wallet checks them
 * (@bsv/wallet-toolbox's validateCreateActionArgs: the same defaults, limits and WERR_INVALID_PARAMETER
 * names), plus the type checks a JSON body needs, so a malformed call is a 400 naming the parameter, never a crash.
 */
export interface ActionInput {
  txid: string;
  vout: number;
  inputDescription: string;
  unlockingScript?: string;
  unlockingScriptLength: number;
  sequenceNumber: number;
}

export interface ActionOutput {
  lockingScript: string;
  satoshis: number;
  outputDescription: string;
  basket?: string;
  customInstructions?: string;
  tags: string[];
}

export interface ActionOptions {
  signAndProcess: boolean;
  acceptDelayedBroadcast: boolean;
  knownTxids: string[];
  returnTXIDOnly: boolean;
  noSend: boolean;
  noSendChange: { txid: string; vout: number }[];
  sendWith: string[];
  randomizeOutputs: boolean;
}

export interface CreateArgs {
  description: string;
  inputBEEF?: number[];
  inputs: ActionInput[];
  outputs: ActionOutput[];
  lockTime: number;
  version: number;
  labels: string[];
  options: ActionOptions;
  /** Whether the app must finish it with signAction: an input without its unlocking script, or signAndProcess false. */
  isSignAction: boolean;
}

const utf8Bytes = (s: string) => Utils.toArray(s, 'utf8').length;
const HEX = /^[0-9a-fA-F]*$/;
const TXID = /^[0-9a-fA-F]{64}$/;

function str(v: unknown, name: string, min: number, max: number): string {
  if (typeof v !== 'string') throw invalidParameter(name, 'a string');
  const n = utf8Bytes(v);
  if (n < min) throw invalidParameter(name, `at least ${min} length.`);
  if (n > max) throw invalidParameter(name, `no more than ${max} length.`);
  return v;
}

/** Baskets, labels and tags: trimmed, lower case, 1 to 300 bytes (the reference's identifiers). */
function identifier(v: unknown, name: string): string {
  if (typeof v !== 'string') throw invalidParameter(name, 'a string');
  return str(v.trim().toLowerCase(), name, 1, 300);
}

function hex(v: unknown, name: string): string {
  if (typeof v !== 'string') throw invalidParameter(name, 'a hexadecimal string');
  const s = v.trim().toLowerCase();
  if (s.length % 2 === 1) throw invalidParameter(name, `even length, not ${s.length}.`);
  if (!HEX.test(s)) throw invalidParameter(name, 'hexadecimal string.');
  return s;
}

function integer(v: unknown, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidParameter(name, 'an integer');
  if (v < min) throw invalidParameter(name, `at least ${min} length.`);
  if (v > max) throw invalidParameter(name, `no more than ${max} length.`);
  return v;
}

function bool(v: unknown, name: string, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw invalidParameter(name, 'true or false');
  return v;
}

function list(v: unknown, name: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidParameter(name, 'an array');
  return v;
}

/** "txid.vout" as BRC-100 writes an outpoint. */
export function outpoint(v: unknown, name: string): { txid: string; vout: number } {
  const m = typeof v === 'string' ? /^([0-9a-fA-F]{64})\.(\d{1,10})$/.exec(v) : null;
  if (!m) throw invalidParameter(name, 'an outpoint "txid.vout" (a 64-character txid, a dot and an output index)');
  return { txid: m[1].toLowerCase(), vout: Number(m[2]) };
}

function txids(v: unknown, name: string): string[] {
  return list(v, name).map((t) => {
    if (typeof t !== 'string' || !TXID.test(t)) throw invalidParameter(name, 'an array of txids (64 hexadecimal characters each)');
    return t.toLowerCase();
  });
}

export function bytes(v: unknown, name: string): number[] {
  if (!Array.isArray(v) || !v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) throw invalidParameter(name, 'an array of bytes');
  return v as number[];
}

function object(v: unknown, name: string): Args {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParameter(name, 'an object');
  return v as Args;
}

function input(v: unknown): ActionInput {
  const i = object(v, 'inputs');
  if (i.unlockingScript === undefined && i.unlockingScriptLength === undefined)
    throw invalidParameter('unlockingScript, unlockingScriptLength', 'at least one valid value.');
  const unlockingScript = i.unlockingScript === undefined ? undefined : hex(i.unlockingScript, 'unlockingScript');
  const unlockingScriptLength = integer(
    i.unlockingScriptLength,
    'unlockingScriptLength',
    (unlockingScript?.length ?? 0) / 2,
    0,
    10_000_000,
  );
  if (unlockingScript !== undefined && unlockingScriptLength !== unlockingScript.length / 2)
    throw invalidParameter('unlockingScriptLength', 'length unlockingScript if both valid.');
  return {
    ...outpoint(i.outpoint, 'outpoint'),
    inputDescription: str(i.inputDescription, 'inputDescription', 5, 2000),
    unlockingScript,
    unlockingScriptLength,
    sequenceNumber: integer(i.sequenceNumber, 'sequenceNumber', 0xffffffff, 0, 0xffffffff),
  };
}

function output(v: unknown): ActionOutput {
  const o = object(v, 'outputs');
  const satoshis = o.satoshis;
  if (typeof satoshis !== 'number' || !Number.isInteger(satoshis) || satoshis < 0 || satoshis > 21e14)
    throw invalidParameter('satoshis', 'a valid number of satoshis');
  if (o.customInstructions !== undefined && typeof o.customInstructions !== 'string')
    throw invalidParameter('customInstructions', 'a string');
  return {
    lockingScript: hex(o.lockingScript, 'lockingScript'),
    satoshis,
    outputDescription: str(o.outputDescription, 'outputDescription', 5, 2000),
    basket: o.basket === undefined ? undefined : identifier(o.basket, 'basket'),
    customInstructions: o.customInstructions as string | undefined,
    tags: list(o.tags, 'tags').map((t) => identifier(t, 'tag')),
  };
}

function options(v: unknown): ActionOptions {
  const o = object(v, 'options');
  if (o.trustSelf !== undefined && o.trustSelf !== null && o.trustSelf !== 'known') throw invalidParameter('trustSelf', '"known"');
  return {
    signAndProcess: bool(o.signAndProcess, 'signAndProcess', true),
    acceptDelayedBroadcast: bool(o.acceptDelayedBroadcast, 'acceptDelayedBroadcast', true),
    knownTxids: txids(o.knownTxids, 'knownTxids'),
    returnTXIDOnly: bool(o.returnTXIDOnly, 'returnTXIDOnly', false),
    noSend: bool(o.noSend, 'noSend', false),
    noSendChange: list(o.noSendChange, 'noSendChange').map((x) => outpoint(x, 'noSendChange')),
    sendWith: txids(o.sendWith, 'sendWith'),
    randomizeOutputs: bool(o.randomizeOutputs, 'randomizeOutputs', true),
  };
}

export function createArgs(args: Args): CreateArgs {
  const inputs = list(args.inputs, 'inputs').map(input);
  const outputs = list(args.outputs, 'outputs').map(output);
  const opts = options(args.options);
  const isNewTx = inputs.length > 0 || outputs.length > 0;
  return {
    description: str(args.description, 'description', 5, 2000),
    inputBEEF: args.inputBEEF === undefined || args.inputBEEF === null ? undefined : bytes(args.inputBEEF, 'inputBEEF'),
    inputs,
    outputs,
    lockTime: integer(args.lockTime, 'lockTime', 0, 0, 0xffffffff),
    version: integer(args.version, 'version', 1, 0, 0xffffffff),
    labels: list(args.labels, 'labels').map((l) => identifier(l, 'label')),
    options: opts,
    isSignAction: isNewTx && (!opts.signAndProcess || inputs.some((i) => i.unlockingScript === undefined)),
  };
}

export interface SignArgs {
  reference: string;
  spends: Map<number, { unlockingScript: string; sequenceNumber?: number }>;
  options: Pick<ActionOptions, 'acceptDelayedBroadcast' | 'returnTXIDOnly' | 'noSend' | 'sendWith'>;
}

/** The reference's base64 (BRC-100 `Base64String`). */
export function reference(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 1000 || !/^[A-Za-z0-9+/]+={0,2}$/.test(v) || v.length % 4 !== 0)
    throw invalidParameter('reference', 'a base64 string');
  return v;
}

export function signArgs(args: Args): SignArgs {
  const spendsIn = object(args.spends, 'spends');
  const spends = new Map<number, { unlockingScript: string; sequenceNumber?: number }>();
  for (const [k, v] of Object.entries(spendsIn)) {
    if (!/^\d{1,6}$/.test(k)) throw invalidParameter('spends', 'an object keyed by input index');
    const s = object(v, 'spends');
    spends.set(Number(k), {
      unlockingScript: hex(s.unlockingScript, 'unlockingScript'),
      sequenceNumber: s.sequenceNumber === undefined ? undefined : integer(s.sequenceNumber, 'sequenceNumber', 0, 0, 0xffffffff),
    });
  }
  const o = object(args.options, 'options');
  return {
    reference: reference(args.reference),
    spends,
    options: {
      acceptDelayedBroadcast: bool(o.acceptDelayedBroadcast, 'acceptDelayedBroadcast', true),
      returnTXIDOnly: bool(o.returnTXIDOnly, 'returnTXIDOnly', false),
      noSend: bool(o.noSend, 'noSend', false),
      sendWith: txids(o.sendWith, 'sendWith'),
    },
  };
}

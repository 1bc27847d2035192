import { BigNumber, LockingScript, Transaction, TransactionSignature, UnlockingScript, type SignatureHashCache } from '@bsv/sdk';
import type { ScriptTemplateUnlock } from '@bsv/sdk';
import { createHash } from 'node:crypto';
import { signDigest } from '../../crypto/secp256k1.js';
import { addressOfPublicKey, childPublicKey, childTweak, ChildKey, type ChainNodePublic } from './child-key.js';
import { chainNodes } from './bip32.js';
import { seedOf } from './keys.js';
import { rootKeySeed } from './secret.js';

/**
 * The key workers' entry (key-workers.ts runs it on worker threads): the costly arithmetic of wallet keys.
 * Every function here is pure, so it also runs on the calling thread when a test asks.
 */

/** Opens an account: the phrase's (or root key's) seed, the account node, and the chain nodes asked for. */
export interface OpenTask {
  /** The phrase, UTF-8, moved to this thread; zeroed once read. For a wallet made from a root key: its 64 hex digits. */
  phrase: ArrayBuffer;
  /** What `phrase` holds (secret.ts): a BIP39 phrase unless said otherwise. */
  kind?: 'mnemonic' | 'rootKey';
  accountPath: string;
  chains: number[];
  /** Where the chain nodes' private keys go, 32 bytes each in `chains` order: shared memory the caller zeroes once read. */
  secretsOut: SharedArrayBuffer;
}

/** The opened chain nodes' public parts, in `chains` order (their private keys are in `secretsOut`). */
export function openAccount(task: OpenTask): ChainNodePublic[] {
  const phrase = new Uint8Array(task.phrase);
  try {
    const text = Buffer.from(phrase).toString('utf8');
    const seed = task.kind === 'rootKey' ? rootKeySeed(text) : seedOf(text);
    let opened;
    try {
      opened = chainNodes(seed, task.accountPath, task.chains);
    } finally {
      seed.fill(0);
    }
    const out = new Uint8Array(task.secretsOut);
    return opened.map(({ key, node }, i) => {
      out.set(key, 32 * i);
      key.fill(0);
      return node;
    });
  } finally {
    phrase.fill(0);
  }
}

/** Addresses `from` … `to - 1` of a chain, by public derivation (no secret), with their compressed public keys. */
export interface DeriveTask {
  node: ChainNodePublic;
  from: number;
  to: number;
}

export interface DerivedAddress {
  address: string;
  pub: Uint8Array;
}

export function deriveAddresses(task: DeriveTask): DerivedAddress[] {
  const out: DerivedAddress[] = [];
  for (let idx = task.from; idx < task.to; idx++) {
    const pub = childPublicKey(task.node.pub, childTweak(task.node, idx));
    out.push({ address: addressOfPublicKey(pub), pub });
  }
  return out;
}

/** A P2PKH-only transaction to sign, described in plain data. */
export interface SignTask {
  version: number;
  lockTime: number;
  inputs: { txid: string; vout: number; sequence: number; satoshis: number; script: string; key: number }[];
  outputs: { script: string; satoshis: number }[];
  /** The private keys of the inputs (`key` indexes them), 32 bytes each, moved to this thread; zeroed once used. */
  secrets: ArrayBuffer;
  /** Per key: its compressed public key, or (not derived yet) the public tweak and parent it follows from. */
  publics: ({ pub: Uint8Array } | { tweak: Uint8Array; parent: Uint8Array })[];
}

export interface SignedInputs {
  /** Per input, hex. */
  unlockingScripts: string[];
  /** Per key, compressed: the caller keeps those it did not know. */
  pubs: Uint8Array[];
}

const SIGHASH_ALL_FORKID = TransactionSignature.SIGHASH_ALL | TransactionSignature.SIGHASH_FORKID;

/**
 * @bsv/sdk's P2PKH unlocking template (`new P2PKH().unlock(key, 'all', false, satoshis, script)`), byte for
 * byte, with three savings: the public key is pushed as the compressed bytes it is known by (no square root
 * to decode a point), the sighash's shared hashes (prevouts, sequences, outputs) are computed once per
 * transaction instead of once per input, and the signature is libsecp256k1's when it loads (the same RFC 6979
 * bytes as @bsv/sdk's, 70 times faster: crypto/secp256k1.ts).
 */
export function p2pkhUnlock(
  key: ChildKey,
  satoshis: number,
  lockingScript: LockingScript,
  cache: SignatureHashCache,
): ScriptTemplateUnlock {
  return {
    sign: async (tx: Transaction, i: number) => {
      const input = tx.inputs[i];
      const preimage = TransactionSignature.formatBytes({
        sourceTXID: input.sourceTXID!,
        sourceOutputIndex: input.sourceOutputIndex,
        sourceSatoshis: satoshis,
        transactionVersion: tx.version,
        otherInputs: tx.inputs.filter((_, j) => j !== i),
        inputIndex: i,
        outputs: tx.outputs,
        inputSequence: input.sequence!,
        subscript: lockingScript,
        lockTime: tx.lockTime,
        scope: SIGHASH_ALL_FORKID,
        cache,
      });
      const digest = createHash('sha256').update(createHash('sha256').update(preimage).digest()).digest();
      const secret = key.secretBytes();
      let raw;
      try {
        raw = signDigest(digest, secret);
      } finally {
        secret.fill(0);
      }
      const sig = new TransactionSignature(new BigNumber([...raw.r]), new BigNumber([...raw.s]), SIGHASH_ALL_FORKID).toChecksigFormat();
      const pub = [...key.compressedPublicKey()];
      return new UnlockingScript([
        { op: sig.length, data: sig },
        { op: pub.length, data: pub },
      ]);
    },
    estimateLength: async () => 108,
  };
}

export async function signInputs(task: SignTask): Promise<SignedInputs> {
  const secrets = new Uint8Array(task.secrets);
  try {
    const keys = task.publics.map((p, i) => {
      const k = new BigNumber([...secrets.subarray(32 * i, 32 * i + 32)]);
      return ChildKey.of(k, 'pub' in p ? p.pub : childPublicKey(p.parent, p.tweak));
    });
    const tx = new Transaction(task.version, [], [], task.lockTime);
    const cache: SignatureHashCache = {};
    for (const input of task.inputs) {
      tx.addInput({
        sourceTXID: input.txid,
        sourceOutputIndex: input.vout,
        sequence: input.sequence,
        unlockingScriptTemplate: p2pkhUnlock(keys[input.key], input.satoshis, LockingScript.fromHex(input.script), cache),
      });
    }
    for (const o of task.outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    await tx.sign();
    return { unlockingScripts: tx.inputs.map((i) => i.unlockingScript!.toHex()), pubs: keys.map((k) => k.compressedPublicKey()) };
  } finally {
    secrets.fill(0);
  }
}

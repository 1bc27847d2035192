import { LockingScript, P2PKH, type PrivateKey, Transaction, UnlockingScript } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import { requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import { p2pkhScript, withOwner } from '../token-templates/script-bytes.js';
import type { TokenTemplate } from '../token-templates/template.js';

/** A token output being spent, with its owner's key and (for merges) its parent transaction. */
export interface SpentToken {
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  key: PrivateKey;
  /** Raw hex of the transaction that created it: the other input of a merge proves its value with it. */
  parentHex: string | null;
}

/** The one P2PKH coin that pays the fee (the last input), and where its change goes. */
export interface Funding {
  txid: string;
  vout: number;
  satoshis: number;
  script: string;
  key: PrivateKey;
  changeOwner: string;
}

export interface TokenSpend {
  template: TokenTemplate;
  kind: 'transfer' | 'merge' | 'redeem';
  inputs: SpentToken[];
  /** Token outputs in order: each the input's script with another owner. */
  tokenOutputs: { owner: string; satoshis: number }[];
  /** A redeem's first output: P2PKH to the redemption key hash. */
  redeem: { owner: string; satoshis: number } | null;
  funding: Funding;
  policy: FeePolicy;
}

const TX_VERSION = 1; // as the STAS family signs, so their scripts' strict rules (minimal pushes, low S, clean stack) hold

/**
 * Builds and signs a token spend: the token inputs first (a KST input must be the first, or the first two
 * in a merge; STAS expects input 0), then the funding coin. Outputs: the redemption, the token outputs,
 * the change. The change is in the unlocking scripts and the signed preimages, so the fee is found by
 * building, measuring and building again until what is paid covers the size.
 */
export async function buildTokenSpend(s: TokenSpend): Promise<{ tx: Transaction; fee: number }> {
  const tokenTotal = s.inputs.reduce((n, i) => n + i.satoshis, 0);
  const out = s.tokenOutputs.reduce((n, o) => n + o.satoshis, 0) + (s.redeem?.satoshis ?? 0);
  if (out !== tokenTotal) throw new Error(`token outputs (${out}) must add up to the token inputs (${tokenTotal})`);
  let change = s.funding.satoshis;
  for (let round = 0; round < 6; round++) {
    const tx = await assemble(s, change);
    const size = tx.toBinary().length;
    const fee = requiredFee(size, s.policy);
    const paid = s.funding.satoshis - change;
    if (paid >= fee && (change === 0 || paid - fee < 4)) return { tx, fee: paid };
    const next = s.funding.satoshis - fee - (round > 2 ? round : 0);
    if (next < 0) {
      throw new DomainError(
        'INSUFFICIENT_FUNDS',
        `The fee of this token transaction is ${fee} satoshis; its funding coin has ${s.funding.satoshis}.`,
        { missing: fee - s.funding.satoshis },
      );
    }
    change = next >= s.policy.dustLimit ? next : 0;
  }
  throw new Error('the token transaction fee did not settle');
}

async function assemble(s: TokenSpend, change: number): Promise<Transaction> {
  const tx = new Transaction(TX_VERSION, [], [], 0);
  for (const i of s.inputs)
    tx.addInput({ sourceTXID: i.txid, sourceOutputIndex: i.vout, sequence: 0xffffffff, unlockingScript: new UnlockingScript() });
  const f = s.funding;
  tx.addInput({
    sourceTXID: f.txid,
    sourceOutputIndex: f.vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: new P2PKH().unlock(f.key, 'all', false, f.satoshis, LockingScript.fromHex(f.script)),
  });
  if (s.redeem) tx.addOutput({ lockingScript: LockingScript.fromHex(p2pkhScript(s.redeem.owner)), satoshis: s.redeem.satoshis });
  for (const o of s.tokenOutputs)
    tx.addOutput({ lockingScript: LockingScript.fromHex(withOwner(s.inputs[0].script, o.owner)), satoshis: o.satoshis });
  const changeOut = change > 0 ? { owner: f.changeOwner, satoshis: change } : null;
  if (changeOut) tx.addOutput({ lockingScript: LockingScript.fromHex(p2pkhScript(changeOut.owner)), satoshis: changeOut.satoshis });
  s.inputs.forEach((input, index) => {
    const other = s.inputs[1 - index];
    tx.inputs[index].unlockingScript = UnlockingScript.fromHex(
      s.template.unlock({
        tx,
        inputIndex: index,
        script: input.script,
        satoshis: input.satoshis,
        key: input.key,
        kind: s.kind,
        tokenOutputs: s.tokenOutputs,
        redeem: s.redeem,
        change: changeOut,
        funding: { txid: f.txid, vout: f.vout },
        otherParent: s.kind === 'merge' ? (other?.parentHex ?? null) : null,
      }),
    );
  });
  await tx.sign();
  return tx;
}

import type { Bsv21Balance } from '../../../shared/contracts/ordinals.js';
import { formatUnits } from './bsv21-amount.js';

/** The validity badge's word and colour: the contract's 'pending' reads "unverified" to people. */
export const VALIDITY_BADGE = {
  valid: { label: 'valid', color: 'teal' },
  pending: { label: 'unverified', color: 'yellow' },
  invalid: { label: 'invalid', color: 'red' },
} as const;

/** Why a balance has the validity it has, in a sentence (the amount shown counts valid outputs only). */
export function validityWords(b: Bsv21Balance): string {
  const sym = b.sym ?? 'units';
  const parts: string[] = [];
  if (b.validity === 'valid') parts.push("Every output held traces back to the token's deploy+mint through valid transfers.");
  if (b.pendingAmount !== '0')
    parts.push(`${formatUnits(b.pendingAmount, b.dec)} ${sym} in outputs not traced yet; not counted until they are.`);
  if (b.invalidAmount !== '0')
    parts.push(`${formatUnits(b.invalidAmount, b.dec)} ${sym} in outputs that do not trace back to the deploy+mint; never counted.`);
  if (!parts.length) parts.push('Nothing held traces back to the deploy+mint yet.');
  return parts.join(' ');
}

/** Who decided validity: Keystead's own index on the local chain, or the configured 1Sat indexer. */
export const sourceWords = (source: string) =>
  source === 'local'
    ? "Validity checked by Keystead's own index of the local chain."
    : `Validity as answered by the 1Sat indexer at ${source}.`;

import { compileScrypt } from '../../main/contracts/scrypt/compile.js';

/**
 * A template in the licensed STAS templates' format, written for the tests (the licensed bytes never ship):
 * `76a914[destinationPublicKeyHash]88ac69`, a body that checks the BIP143 preimage on top of the stack in
 * script (OP_PUSH_TX, compiled by our compiler) and then clears whatever the STAS unlocking layout left
 * below it (the amount/key-hash pairs, slots, funding outpoint, spending type), then
 * `6a14[redemptionPublicKeyHash]`. It proves the builders' unlocking scripts leave the preimage and the
 * owner's signature where a STAS template reads them (each family's bytes differ by a dropped tag), and that every spend validates under
 * Spend.
 */
export function stasFormatTemplate(family = 'STAS-20'): string {
  const r = compileScrypt(
    'contract StasFormat { public function unlock(SigHashPreimage txPreimage) { require(Tx.checkPreimage(txPreimage)); } }',
    { file: 'StasFormat.scrypt', optimize: true },
  );
  if (!r.hex) throw new Error(JSON.stringify(r.diagnostics));
  // OP_DEPTH OP_2 OP_GREATERTHANOREQUAL OP_IF OP_NIP OP_ENDIF, enough times to leave only the result.
  const clear = '7452a2637768'.repeat(64);
  // Each family's template is different bytes, as the real ones are: a push of its name, dropped.
  const tag = Buffer.from(family).toString('hex');
  return `76a914[destinationPublicKeyHash]88ac69${(tag.length / 2).toString(16).padStart(2, '0')}${tag}75${r.hex}${clear}6a14[redemptionPublicKeyHash]`;
}

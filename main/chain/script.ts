import { Utils } from '@bsv/sdk';

/** The P2PKH address a locking script pays, or null for any other script. */
export function p2pkhAddressOf(scriptHex: string): string | null {
  const m = /^76a914([0-9a-f]{40})88ac$/.exec(scriptHex);
  return m ? Utils.toBase58Check(Utils.toArray(m[1], 'hex'), [0]) : null;
}

/**
 * The address that holds an output whose script starts with a P2PKH (a token output: the STAS family and
 * Keystead's own template put the owner's P2PKH first), or null. Plain P2PKH outputs are not included.
 */
export function holderAddressOf(scriptHex: string): string | null {
  const m = /^76a914([0-9a-f]{40})88ac/.exec(scriptHex);
  return m && scriptHex.length > 50 ? Utils.toBase58Check(Utils.toArray(m[1], 'hex'), [0]) : null;
}

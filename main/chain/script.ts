import { Utils } from '@bsv/sdk';

/** The P2PKH address a locking script pays, or null for any other script. */
export function p2pkhAddressOf(scriptHex: string): string | null {
  const m = /^76a914([0-9a-f]{40})88ac$/.exec(scriptHex);
  return m ? Utils.toBase58Check(Utils.toArray(m[1], 'hex'), [0]) : null;
}

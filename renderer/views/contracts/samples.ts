/** What the Contracts view's editors start with, one per language. */

export const SCRYPT_SAMPLE = `contract P2PKH {
  Ripemd160 pubKeyHash;

  public function unlock(Sig sig, PubKey pubKey) {
    require(hash160(pubKey) == this.pubKeyHash);
    require(checkSig(sig, pubKey));
  }
}
`;

export const SCRYPT_TS_SAMPLE = `import { assert, hash256, method, prop, SmartContract } from 'scrypt-ts';

/** A stateful counter: each spend re-creates the contract with \`count\` one higher. */
export class Counter extends SmartContract {
  @prop(true)
  count: bigint;

  constructor(count: bigint) {
    super(...arguments);
    this.count = count;
  }

  @method()
  public increment() {
    this.count++;
    const output = this.buildStateOutput(this.ctx.utxo.value);
    assert(this.ctx.hashOutputs == hash256(output), 'hashOutputs mismatch');
  }
}
`;

export type SourceLanguage = 'scrypt' | 'scrypt-ts';

/** The language a file's name says: scrypt-ts for `.ts`, as the compile API decides by default. */
export const languageOfFile = (file: string): SourceLanguage => (/\.ts$/i.test(file) ? 'scrypt-ts' : 'scrypt');

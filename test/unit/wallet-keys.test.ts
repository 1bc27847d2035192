import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HD, Mnemonic, Utils } from '@bsv/sdk';
import fc from 'fast-check';
import { accountNode, accountPathFrom, checkedMnemonic, DERIVATION_SCHEMES, newMnemonic } from '../../main/engine/wallets/keys.js';
import { DomainError } from '../../shared/errors.js';
import { oracleAddress, seedFromMnemonic } from '../helpers/bip32-oracle.js';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describe('BIP39 (published test vectors, passphrase TREZOR)', () => {
  const vectors: [string, string][] = [
    [
      ABANDON,
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    ],
    [
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
      '2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607',
    ],
    [
      'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
      'd71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8',
    ],
    [
      'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
      'ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069',
    ],
  ];
  for (const [phrase, seed] of vectors) {
    it(`${phrase.split(' ').slice(0, 2).join(' ')}…`, () => {
      assert.equal(checkedMnemonic(phrase.toUpperCase().replace(/ /g, '  ')), phrase, 'normalised and accepted');
      assert.equal(Buffer.from(Mnemonic.fromString(phrase).toSeed('TREZOR')).toString('hex'), seed);
      assert.equal(seedFromMnemonic(phrase, 'TREZOR').toString('hex'), seed, 'the oracle agrees');
    });
  }

  it('rejects bad phrases with a clear 400', () => {
    for (const bad of [
      ABANDON.replace('about', 'abandon'),
      'abandon abandon',
      ABANDON.replace('about', 'notaword'),
      `${ABANDON} abandon`,
    ]) {
      assert.throws(
        () => checkedMnemonic(bad),
        (e: DomainError) => e.code === 'VALIDATION_FAILED' && /mnemonicPhrase/.test(e.message),
      );
    }
  });

  it('generates valid 12-word phrases', () => {
    const m = newMnemonic();
    assert.equal(m.split(' ').length, 12);
    assert.equal(checkedMnemonic(m), m);
    assert.notEqual(newMnemonic(), m);
  });
});

describe('BIP32 (published test vector 1)', () => {
  it('derives the published extended keys', () => {
    const master = HD.fromSeed(Utils.toArray('000102030405060708090a0b0c0d0e0f', 'hex'));
    assert.equal(
      master.toString(),
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
    );
    assert.equal(
      master.toPublic().toString(),
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    );
    assert.equal(
      master.derive("m/0'").toString(),
      'xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7',
    );
  });
});

describe('derivation schemes', () => {
  it('accepts scheme names and account paths, and rejects others', () => {
    assert.equal(accountPathFrom(undefined), "m/44'/236'/0'");
    assert.equal(accountPathFrom('bip44-btc'), "m/44'/0'/0'");
    assert.equal(accountPathFrom("m/44'/236'/3'"), "m/44'/236'/3'");
    assert.equal(accountPathFrom('m/44h/0h/1h'), "m/44'/0'/1'");
    // Other wallets' accounts, as their users give them.
    assert.equal(accountPathFrom("m/0'"), "m/0'");
    assert.equal(accountPathFrom(" m/44'/145'/0' "), "m/44'/145'/0'");
    assert.equal(accountPathFrom('m/0'), 'm/0');
    for (const bad of ['m', "m/44'/x'/0'", "44'/0'/0'", 'bip49', "m/44'/0'/99999999999'", 'm/1/2/3/4/5/6', "m//0'"])
      assert.throws(() => accountPathFrom(bad), DomainError, bad);
  });

  it('matches the independent oracle for both schemes, public derivation from the account xpub', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.constantFrom(...Object.values(DERIVATION_SCHEMES)),
        fc.nat(50),
        (entropy, path, idx) => {
          const phrase = Mnemonic.fromEntropy([...entropy]).toString();
          const xpub = HD.fromString(accountNode(phrase, path).toPublic().toString());
          const ours = xpub.deriveChild(0).deriveChild(idx).pubKey.toAddress();
          assert.equal(ours, oracleAddress(phrase, `${path}/0/${idx}`));
        },
      ),
      { numRuns: 12 },
    );
  });

  it("restores the public service's addresses from its path (m/44'/0'/0')", () => {
    // The widely published first BIP44 address of the all-"abandon" phrase.
    assert.equal(oracleAddress(ABANDON, "m/44'/0'/0'/0/0"), '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA');
    const xpub = HD.fromString(accountNode(ABANDON, "m/44'/0'/0'").toPublic().toString());
    assert.equal(xpub.deriveChild(0).deriveChild(0).pubKey.toAddress(), '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA');
  });
});

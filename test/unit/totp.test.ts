import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, stepAt, totp, type TotpAlgorithm } from '../../main/engine/auth/totp.js';
import { hashRecoveryCode, newRecoveryCode, normaliseRecoveryCode } from '../../main/engine/auth/second-factor.js';

// RFC 6238 Appendix B: the seeds are the ASCII digits repeated to each hash's length.
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, Record<TotpAlgorithm, string>][] = [
  [59, { sha1: '94287082', sha256: '46119246', sha512: '90693936' }],
  [1111111109, { sha1: '07081804', sha256: '68084774', sha512: '25091201' }],
  [1111111111, { sha1: '14050471', sha256: '67062674', sha512: '99943326' }],
  [1234567890, { sha1: '89005924', sha256: '91819424', sha512: '93441116' }],
  [2000000000, { sha1: '69279037', sha256: '90698825', sha512: '38618901' }],
  [20000000000, { sha1: '65353130', sha256: '77737706', sha512: '47863826' }],
];

describe('TOTP (RFC 6238) and HOTP (RFC 4226)', () => {
  it('matches every RFC 6238 Appendix B vector', () => {
    for (const [seconds, expected] of VECTORS)
      for (const algorithm of ['sha1', 'sha256', 'sha512'] as const)
        assert.equal(totp(SEEDS[algorithm], seconds * 1000, { algorithm, digits: 8 }), expected[algorithm], `${algorithm} at T=${seconds}`);
  });

  it('matches the RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => assert.equal(hotp(SEEDS.sha1, counter), code, `counter ${counter}`));
  });

  it('defaults to what authenticator apps use: SHA-1, 6 digits, 30 s', () => {
    // The 8-digit RFC value at T=59 ends in the 6-digit one (both are the same truncation modulo 10^n).
    assert.equal(totp(SEEDS.sha1, 59_000), '287082');
    assert.equal(stepAt(59_000), 1);
    assert.equal(stepAt(60_000), 2);
  });

  it('accepts one step of drift either way, no more', () => {
    const t = 1_111_111_111_000;
    const step = stepAt(t);
    const at = (s: number) => totp(SEEDS.sha1, s * 30_000);
    assert.equal(matchTotp(SEEDS.sha1, at(step), t), step);
    assert.equal(matchTotp(SEEDS.sha1, at(step - 1), t), step - 1);
    assert.equal(matchTotp(SEEDS.sha1, at(step + 1), t), step + 1);
    assert.equal(matchTotp(SEEDS.sha1, at(step - 2), t), null);
    assert.equal(matchTotp(SEEDS.sha1, at(step + 2), t), null);
  });

  it('refuses a code of a step already used, or older', () => {
    const t = 1_234_567_890_000;
    const step = stepAt(t);
    const code = totp(SEEDS.sha1, t);
    assert.equal(matchTotp(SEEDS.sha1, code, t, { afterStep: step - 1 }), step);
    assert.equal(matchTotp(SEEDS.sha1, code, t, { afterStep: step }), null);
    assert.equal(matchTotp(SEEDS.sha1, totp(SEEDS.sha1, t - 30_000), t, { afterStep: step }), null);
  });

  it('refuses what is not a code of the right length', () => {
    const t = 1_234_567_890_000;
    const code = totp(SEEDS.sha1, t);
    for (const bad of ['', code.slice(1), `${code}0`, ` ${code}`, 'abcdef', `${code.slice(0, 5)}x`])
      assert.equal(matchTotp(SEEDS.sha1, bad, t), null, JSON.stringify(bad));
  });
});

describe('base32 (RFC 4648) and the enrolment URI', () => {
  it('encodes the RFC 4648 test vectors (without padding) and reads them back', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of cases) {
      assert.equal(base32Encode(Buffer.from(plain)), encoded);
      assert.equal(base32Decode(encoded).toString(), plain);
    }
    assert.equal(base32Encode(SEEDS.sha1), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    assert.equal(base32Decode('gezd gnbv-gy3t qojq gezd gnbv gy3t qojq====').toString(), '12345678901234567890');
    assert.throws(() => base32Decode('GEZ1'));
  });

  it('builds an otpauth:// URI authenticator apps read', () => {
    const uri = otpauthUri({ issuer: 'Keystead (Acme: Ltd)', account: 'ann@acme.io', secret: 'GEZDGNBV' });
    const u = new URL(uri);
    assert.equal(u.protocol, 'otpauth:');
    assert.equal(u.host, 'totp');
    assert.equal(decodeURIComponent(u.pathname.slice(1)), 'Keystead (Acme: Ltd):ann@acme.io');
    assert.equal(u.searchParams.get('secret'), 'GEZDGNBV');
    assert.equal(u.searchParams.get('issuer'), 'Keystead (Acme: Ltd)');
    assert.equal(u.searchParams.get('algorithm'), 'SHA1');
    assert.equal(u.searchParams.get('digits'), '6');
    assert.equal(u.searchParams.get('period'), '30');
    assert.ok(!uri.includes('+'), 'spaces are %20, not +');
  });
});

describe('recovery codes', () => {
  it('are 12 unambiguous characters in three groups, read back in any case and spacing', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const c = newRecoveryCode();
      assert.match(c, /^[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}$/);
      assert.doesNotMatch(c, /[01ilo]/);
      seen.add(c);
      assert.equal(normaliseRecoveryCode(` ${c.toUpperCase().replace(/-/g, ' ')} `), c.replace(/-/g, ''));
    }
    assert.equal(seen.size, 200);
    assert.equal(normaliseRecoveryCode('123456'), null);
    assert.equal(normaliseRecoveryCode('abcd-efgh-ijk1'), null);
  });

  it('are stored as a hash salted by the user', () => {
    const a = hashRecoveryCode('uid-a', 'abcdefghjkmn');
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, hashRecoveryCode('uid-b', 'abcdefghjkmn'));
    assert.equal(a, hashRecoveryCode('uid-a', 'abcdefghjkmn'));
  });
});

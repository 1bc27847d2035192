import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Hash, LockingScript, PrivateKey, Spend, Transaction, TransactionSignature, UnlockingScript, Utils } from '@bsv/sdk';
import { DomainError } from '../../shared/errors.js';
import { minimalNumber, minimalPush } from '../../main/engine/token-templates/script-bytes.js';
import { StasTemplate } from '../../main/engine/token-templates/stas.js';
import {
  askedOutputProblem,
  readMakerOffer,
  STAS_SIGHASH_SINGLE_ACP_FORKID,
  swapLayoutProblem,
  takerPaymentUnlocking,
  type SpentOutput,
} from '../../main/engine/token-templates/stas-swap.js';
import type { StasProtocol } from '../../main/engine/token-templates/template.js';
import { stasFormatTemplate } from '../helpers/stas-format-template.js';

/**
 * STAS atomic swaps (stas-swap.ts) checked under @bsv/sdk's Spend, input by input, as a node would.
 *
 * Two sets of templates:
 * - the stand-in (test/helpers/stas-format-template.ts): the family's P2PKH prefix and in-script preimage
 *   check, nothing else. It proves what the maker's SINGLE|ANYONECANPAY signature protects (its P2PKH
 *   prefix is the real templates' prefix) and that the unlocking scripts leave the preimage and signature
 *   where a STAS template reads them. Always run.
 * - the published template bytes (licensed: never in this repository), from the directory named by
 *   KEYSTEAD_TEST_STAS_TEMPLATES (STAS.hex, STAS-20.hex, STAS-789.hex, the format of --token-templates).
 *   Only they enforce the swap's token rules (which token pays, where the offered tokens go), so those
 *   forgery tests run only when the bytes are given, and are skipped (saying so) otherwise.
 */

const PROTOCOLS: StasProtocol[] = ['STAS', 'STAS-20', 'STAS-789'];
const realDir = process.env.KEYSTEAD_TEST_STAS_TEMPLATES;
const realTemplates: Record<StasProtocol, string> | null =
  realDir && PROTOCOLS.every((p) => existsSync(path.join(realDir, `${p}.hex`)))
    ? (Object.fromEntries(PROTOCOLS.map((p) => [p, readFileSync(path.join(realDir, `${p}.hex`), 'utf8').trim()])) as Record<
        StasProtocol,
        string
      >)
    : null;
const NO_REAL = 'the published STAS template bytes are not given (KEYSTEAD_TEST_STAS_TEMPLATES): the stand-in enforces no token rule';

const pkhOf = (k: PrivateKey) => Utils.toHex(k.toPublicKey().toHash() as number[]);
const p2pkh = (pkh: string) => `76a914${pkh}88ac`;
const owned = (script: string, pkh: string) => `76a914${pkh}${script.slice(46)}`;
const hexOf = (s: string) => Buffer.from(s).toString('hex');

let parents = 0;
/**
 * A parent transaction paying these outputs, shaped like a token transaction's: a first input with a
 * 1,700-byte unlocking script (as a STAS input's is) and a funding input, so a template reading the parent
 * meets multi-byte lengths.
 */
function parent(outs: SpentOutput[]): Transaction {
  const t = new Transaction();
  t.version = 1;
  const id = ++parents;
  t.addInput({
    sourceTXID: id.toString(16).padStart(64, '0'),
    sourceOutputIndex: 0,
    unlockingScript: UnlockingScript.fromHex(minimalPush('ab'.repeat(1_700))),
    sequence: 0xffffffff,
  });
  t.addInput({
    sourceTXID: id.toString(16).padStart(64, '1'),
    sourceOutputIndex: 3,
    unlockingScript: UnlockingScript.fromHex('00'),
    sequence: 0xffffffff,
  });
  for (const o of outs) t.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  // And outputs after the ones spent (a note and change), so the spent output is not the parent's last.
  t.addOutput({ lockingScript: LockingScript.fromHex(`006a${minimalPush('cd'.repeat(300))}`), satoshis: 0 });
  t.addOutput({ lockingScript: LockingScript.fromHex(p2pkh('22'.repeat(20))), satoshis: 123 });
  return t;
}

const spentBy = (tx: Transaction, i: number) => {
  const input = tx.inputs[i];
  const o = input.sourceTransaction!.outputs[input.sourceOutputIndex];
  return { script: o.lockingScript.toHex(), satoshis: o.satoshis! };
};

/** Runs input i of a transaction under Spend: true, or the interpreter's reason. */
function verify(tx: Transaction, i: number): true | string {
  const input = tx.inputs[i];
  const src = input.sourceTransaction!.outputs[input.sourceOutputIndex];
  try {
    const ok = new Spend({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: src.satoshis!,
      lockingScript: src.lockingScript,
      transactionVersion: tx.version,
      otherInputs: tx.inputs.filter((_, k) => k !== i),
      unlockingScript: input.unlockingScript!,
      inputSequence: input.sequence ?? 0xffffffff,
      inputIndex: i,
      outputs: tx.outputs,
      lockTime: tx.lockTime,
    }).validate();
    return ok ? true : 'refused';
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}

/** A P2PKH input's unlocking script (SIGHASH_ALL|FORKID). */
function p2pkhUnlock(tx: Transaction, i: number, key: PrivateKey): UnlockingScript {
  const spent = spentBy(tx, i);
  const input = tx.inputs[i];
  const preimage = TransactionSignature.format({
    sourceTXID: input.sourceTXID!,
    sourceOutputIndex: input.sourceOutputIndex,
    sourceSatoshis: spent.satoshis,
    transactionVersion: tx.version,
    otherInputs: tx.inputs.filter((_, k) => k !== i),
    inputIndex: i,
    outputs: tx.outputs,
    inputSequence: input.sequence ?? 0xffffffff,
    subscript: LockingScript.fromHex(spent.script),
    lockTime: tx.lockTime,
    scope: 0x41,
  });
  const raw = key.sign(Hash.sha256(preimage));
  const sig = Utils.toHex(new TransactionSignature(raw.r, raw.s, 0x41).toChecksigFormat());
  return UnlockingScript.fromHex(minimalPush(sig) + minimalPush(key.toPublicKey().toString()));
}

const addInput = (tx: Transaction, source: Transaction, vout: number) =>
  tx.addInput({ sourceTransaction: source, sourceTXID: source.id('hex'), sourceOutputIndex: vout, sequence: 0xffffffff });
const addOutput = (tx: Transaction, o: SpentOutput) =>
  tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });

const keys = () => ({
  issuerA: PrivateKey.fromRandom(),
  issuerB: PrivateKey.fromRandom(),
  maker: PrivateKey.fromRandom(),
  taker: PrivateKey.fromRandom(),
  funder: PrivateKey.fromRandom(),
  eve: PrivateKey.fromRandom(),
});

/** What a scenario may change between a fair offer and the swap transaction the taker builds. */
interface Tamper {
  /** Replaces the outputs the taker builds (from the fair ones). */
  outputs?: (fair: SpentOutput[]) => SpentOutput[];
  /** The maker's offered output the swap spends instead of the one the offer signed (vout in the maker's parent). */
  spendVout?: number;
  /** What the taker pays with instead of the fair payment output. */
  payWith?: SpentOutput;
  /** Unlocks the taker's token input with the bare layout function, past the rule's checks. */
  unguardedPayment?: boolean;
}

/**
 * One swap: the maker offers `makerSats` of token A (protocol `a`) for `asked` (a payment or a token B
 * output, written by `b`'s template, to the maker); the taker completes it. Returns each input's result
 * under Spend.
 */
function swap(
  templates: Record<StasProtocol, string>,
  a: StasProtocol,
  b: StasProtocol | 'BSV',
  opts: { makerSats?: number; askedSats?: number; takerSats?: number } & Tamper = {},
) {
  const k = keys();
  const tA = new StasTemplate(a, templates[a]);
  const tB = b === 'BSV' ? null : new StasTemplate(b, templates[b]);
  const lockA = (owner: string) =>
    tA.lock({ owner, redemption: pkhOf(k.issuerA), symbol: 'AAA', data: a === 'STAS-789' ? [hexOf('SN:1')] : [], splittable: true });
  const lockB = (owner: string, symbol = 'BBB') =>
    tB!.lock({ owner, redemption: pkhOf(k.issuerB), symbol, data: b === 'STAS-789' ? [hexOf('SN:7')] : [], splittable: true });
  const makerSats = opts.makerSats ?? 1_000;
  const askedSats = opts.askedSats ?? 7_000;
  const takerSats = opts.takerSats ?? askedSats;

  // The maker's side: two outputs of the same token and value (vout 1 and 2), offering vout 1.
  const makerParent = parent([
    { script: p2pkh(pkhOf(k.issuerA)), satoshis: 5 },
    { script: lockA(pkhOf(k.maker)), satoshis: makerSats },
    { script: lockA(pkhOf(k.maker)), satoshis: makerSats },
  ]);
  const asked: SpentOutput = { script: tB ? lockB(pkhOf(k.maker)) : p2pkh(pkhOf(k.maker)), satoshis: askedSats };
  const offer = new Transaction();
  offer.version = 1;
  addInput(offer, makerParent, 1);
  addOutput(offer, asked);
  const rule = tA.swap!;
  const makerPart = rule.offer({
    tx: offer,
    inputIndex: 0,
    script: makerParent.outputs[1].lockingScript.toHex(),
    satoshis: makerSats,
    key: k.maker,
  });
  offer.inputs[0].unlockingScript = UnlockingScript.fromHex(makerPart);

  // The taker's side: what it pays with, the funding, and the whole swap.
  const payment = opts.payWith ?? { script: tB ? lockB(pkhOf(k.taker)) : p2pkh(pkhOf(k.taker)), satoshis: takerSats };
  const takerParent = parent([{ script: p2pkh(pkhOf(k.taker)), satoshis: 1 }, payment]);
  const fundingParent = parent([{ script: p2pkh(pkhOf(k.funder)), satoshis: 50_000 }]);
  const tx = new Transaction();
  tx.version = 1;
  addInput(tx, makerParent, opts.spendVout ?? 1);
  addInput(tx, takerParent, 1);
  addInput(tx, fundingParent, 0);
  const offered = spentBy(tx, 0);
  const fair: SpentOutput[] = [
    { script: offer.outputs[0].lockingScript.toHex(), satoshis: offer.outputs[0].satoshis! },
    { script: owned(offered.script, pkhOf(k.taker)), satoshis: offered.satoshis },
    ...(takerSats > askedSats ? [{ script: owned(payment.script, pkhOf(k.taker)), satoshis: takerSats - askedSats }] : []),
  ];
  const outs = opts.outputs ? opts.outputs(fair) : fair;
  for (const o of outs) addOutput(tx, o);
  const fee = 500;
  const change = makerSats + payment.satoshis + 50_000 - outs.reduce((s, o) => s + o.satoshis, 0) - fee;
  addOutput(tx, { script: p2pkh(pkhOf(k.funder)), satoshis: change });
  const layout = swapLayoutProblem(
    tx,
    [0, 1, 2].map((i) => spentBy(tx, i)),
  );

  tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
    rule.complete({
      tx,
      inputIndex: 0,
      script: offered.script,
      satoshis: offered.satoshis,
      makerPart: offer.inputs[0].unlockingScript!.toHex(),
      tokenOutputs: [{ owner: pkhOf(k.taker), satoshis: offered.satoshis }],
      firstTokenOutput: 1,
    }),
  );
  const payer = tB && tB.parse(payment.script) ? tB : null;
  tx.inputs[1].unlockingScript =
    payer && opts.unguardedPayment
      ? UnlockingScript.fromHex(
          takerPaymentUnlocking({
            protocol: payer.protocol as StasProtocol,
            slots: { afterFirstPair: payer.protocol === 'STAS-789', afterPairs: payer.protocol === 'STAS-20' },
            tx,
            spent: payment,
            otherParent: makerParent.toHex(),
            key: k.taker,
          }),
        )
      : payer
        ? UnlockingScript.fromHex(
            payer.swap!.unlockPayment({
              tx,
              inputIndex: 1,
              script: payment.script,
              satoshis: payment.satoshis,
              key: k.taker,
              kind: 'transfer',
              tokenOutputs: [],
              redeem: null,
              change: null,
              funding: { txid: fundingParent.id('hex'), vout: 0 },
              otherParent: makerParent.toHex(),
              firstTokenOutput: 0,
            }),
          )
        : p2pkhUnlock(tx, 1, k.taker);
  tx.inputs[2].unlockingScript = p2pkhUnlock(tx, 2, k.funder);
  return { maker: verify(tx, 0), taker: verify(tx, 1), funding: verify(tx, 2), layout, tx, k, offer, makerPart, makerParent };
}

const standIn = Object.fromEntries(PROTOCOLS.map((p) => [p, stasFormatTemplate(p)])) as Record<StasProtocol, string>;

for (const [name, templates] of [
  ['stand-in templates', standIn],
  ['published templates', realTemplates],
] as const) {
  describe(`STAS swaps under Spend: ${name}`, { skip: templates ? false : NO_REAL }, () => {
    const t = templates ?? standIn;
    const real = templates !== standIn;

    for (const a of PROTOCOLS) {
      it(`${a} for BSV: the maker's offer and the taker's completion validate, input by input`, () => {
        const r = swap(t, a, 'BSV');
        assert.equal(r.layout, null);
        assert.deepEqual([r.maker, r.taker, r.funding], [true, true, true]);
        // The maker's part is its SINGLE|ANYONECANPAY|FORKID signature and key, nothing else.
        const part = readMakerOffer(r.makerPart);
        assert.ok(part);
        assert.equal(parseInt(part.signature.slice(-2), 16), STAS_SIGHASH_SINGLE_ACP_FORKID);
        assert.equal(part.publicKey, r.k.maker.toPublicKey().toString());
        // The completed unlocking: pairs for the 3 outputs (+ the protocol's slots), funding, other vout, parent, OP_1, preimage, sig, key.
        const chunks = r.tx.inputs[0].unlockingScript!.chunks;
        const slots = a === 'STAS' ? 0 : 1;
        assert.equal(chunks.length, 6 + slots + 2 + 2 + 1 + 3);
        assert.equal(chunks[6 + slots + 4].op, 0x51, 'spending type OP_1 (swap)');
        assert.equal(Utils.toHex(chunks[6 + slots + 3].data!), r.tx.inputs[1].sourceTransaction!.toHex(), "the taker's parent, whole");
      });

      it(`${a} for BSV from a bigger coin: the taker's change of it follows the offered tokens`, () => {
        const r = swap(t, a, 'BSV', { takerSats: 9_000 });
        assert.equal(r.layout, null);
        assert.deepEqual([r.maker, r.taker, r.funding], [true, true, true]);
        assert.equal(r.tx.outputs.length, 4);
      });

      for (const b of PROTOCOLS) {
        it(`${a} for ${b}: both token inputs validate (each in its own template's layout)`, () => {
          // A fungible payment from a bigger output returns the taker's change of it; an NFT pays whole.
          const r = swap(t, a, b, { takerSats: b === 'STAS-789' ? 7_000 : 9_000 });
          assert.equal(r.layout, null);
          assert.deepEqual([r.maker, r.taker, r.funding], [true, true, true]);
        });
      }
    }

    // The maker's signature: refused whatever template, since the P2PKH prefix checks it.
    for (const a of PROTOCOLS) {
      it(`${a}: paying less than asked fails (the maker's signature commits output 0's value)`, () => {
        const r = swap(t, a, 'BSV', {
          takerSats: 9_000,
          outputs: ([o0, o1, o2]) => [{ ...o0, satoshis: o0.satoshis - 1 }, o1, { ...o2, satoshis: o2.satoshis + 1 }],
        });
        assert.equal(r.layout, null, 'the layout alone does not show it');
        assert.notEqual(r.maker, true);
        assert.match(String(r.maker), /OP_VERIFY|truthy|CHECKSIG/i);
      });

      it(`${a}: paying another address fails (the maker's signature commits output 0's script)`, () => {
        const r = swap(t, a, 'BSV', { outputs: ([o0, o1]) => [{ ...o0, script: p2pkh(pkhOf(PrivateKey.fromRandom())) }, o1] });
        assert.notEqual(r.maker, true);
      });

      it(`${a}: changing the asked-for output to another token fails`, () => {
        // The taker pays token C (same issuer, other symbol) and writes output 0 as C to the maker.
        const k2 = PrivateKey.fromRandom();
        const tB = new StasTemplate('STAS-20', t['STAS-20']);
        const c = tB.lock({ owner: pkhOf(k2), redemption: pkhOf(k2), symbol: 'CCC', data: [], splittable: true });
        const r = swap(t, a, 'STAS-20', {
          payWith: { script: c, satoshis: 7_000 },
          outputs: ([o0, o1]) => [{ script: owned(c, o0.script.slice(6, 46)), satoshis: o0.satoshis }, o1],
        });
        assert.notEqual(r.maker, true);
      });

      it(`${a}: the maker's signature cannot spend another of its outputs (it commits the outpoint)`, () => {
        const r = swap(t, a, 'BSV', { spendVout: 2 });
        assert.equal(r.layout, null, 'same script and value: only the outpoint differs');
        assert.notEqual(r.maker, true);
      });
    }

    // The template's own swap rules: only the published bytes enforce them.
    for (const a of PROTOCOLS) {
      it(`${a}: swapping in another token fails (output 0 as asked, but the taker pays token C)`, { skip: !real && NO_REAL }, () => {
        const k2 = PrivateKey.fromRandom();
        const c = new StasTemplate('STAS-20', t['STAS-20']).lock({
          owner: pkhOf(k2),
          redemption: pkhOf(k2),
          symbol: 'CCC',
          data: [],
          splittable: true,
        });
        const r = swap(t, a, 'STAS-20', { payWith: { script: c, satoshis: 7_000 } });
        assert.match(String(r.layout), /output 0 must be what input 1 holds/);
        assert.notEqual(r.maker, true, "the offered input's template refuses: output 0 is not input 1's token");
        assert.notEqual(r.taker, true, "token C's template refuses: output 0 is not token C");
      });

      it(`${a}: paying with plain satoshis for an asked token fails`, { skip: !real && NO_REAL }, () => {
        const r = swap(t, a, 'STAS-20', { payWith: { script: p2pkh('11'.repeat(20)), satoshis: 7_000 } });
        assert.notEqual(r.layout, null);
        assert.notEqual(r.maker, true);
      });

      it(`${a}: the offered tokens cannot become satoshis or be split off to a third party`, { skip: !real && NO_REAL }, () => {
        const eve = pkhOf(PrivateKey.fromRandom());
        const toSats = swap(t, a, 'BSV', { outputs: ([o0, o1]) => [o0, { script: p2pkh(eve), satoshis: o1.satoshis }] });
        assert.notEqual(toSats.layout, null);
        assert.notEqual(toSats.maker, true);
        const split = swap(t, a, 'BSV', {
          outputs: ([o0, o1]) => [o0, { ...o1, satoshis: 600 }, { script: owned(o1.script, eve), satoshis: 400 }],
        });
        assert.notEqual(split.layout, null);
        assert.notEqual(split.maker, true);
      });

      it(`${a}: the taker's change must return all of what it pays with`, { skip: !real && NO_REAL }, () => {
        const r = swap(t, a, 'BSV', { takerSats: 9_000, outputs: ([o0, o1]) => [o0, o1] });
        assert.match(String(r.layout), /exactly input 1's 9000 satoshis/);
        assert.notEqual(r.maker, true);
      });

      it(`${a}: a fake parent for the taker's input fails (the template hashes it to the outpoint)`, { skip: !real && NO_REAL }, () => {
        const r = swap(t, a, 'BSV');
        const other = parent([{ script: p2pkh(pkhOf(PrivateKey.fromRandom())), satoshis: 1 }, spentBy(r.tx, 1)]);
        const chunks = r.tx.inputs[0].unlockingScript!.chunks;
        const at = chunks.findIndex((c) => c.data && Utils.toHex(c.data) === r.tx.inputs[1].sourceTransaction!.toHex());
        const forged = chunks.map((c, i) => (i === at ? minimalPush(other.toHex()) : new UnlockingScript([c]).toHex())).join('');
        r.tx.inputs[0].unlockingScript = UnlockingScript.fromHex(forged);
        assert.notEqual(verify(r.tx, 0), true);
      });
    }

    it('an NFT (STAS-789) paying for an offer cannot be split into change: Keystead refuses it', () => {
      assert.throws(
        () => swap(t, 'STAS-20', 'STAS-789', { takerSats: 9_000 }),
        (err: unknown) => err instanceof DomainError && /NFT pays whole/.test(err.message),
      );
    });

    it('an NFT (STAS-789) paying for an offer cannot be split into change: its template refuses it', { skip: !real && NO_REAL }, () => {
      const r = swap(t, 'STAS-20', 'STAS-789', { takerSats: 9_000, unguardedPayment: true });
      assert.equal(r.maker, true);
      assert.notEqual(r.taker, true);
    });

    it(
      'why an offer may not ask to be paid at the redemption address: its signature would redeem the tokens',
      { skip: !real && NO_REAL },
      () => {
        // The issuer holds its own tokens (owner = redemption key hash) and signs SINGLE|ACP for "400 satoshis to me":
        // a redeem-split pays exactly that output, and hands the other 600 to whoever builds it.
        for (const a of ['STAS', 'STAS-20'] as const) {
          const issuer = PrivateKey.fromRandom();
          const thief = PrivateKey.fromRandom();
          const tA = new StasTemplate(a, t[a]);
          const script = tA.lock({ owner: pkhOf(issuer), redemption: pkhOf(issuer), symbol: 'AAA', data: [], splittable: true });
          assert.equal(
            askedOutputProblem(script, tA.parse(script)!, { script: p2pkh(pkhOf(issuer)), satoshis: 400 })?.includes('redemption'),
            true,
          );
          const src = parent([{ script, satoshis: 1_000 }]);
          const funding = parent([{ script: p2pkh(pkhOf(thief)), satoshis: 10_000 }]);
          const offer = new Transaction();
          offer.version = 1;
          addInput(offer, src, 0);
          addOutput(offer, { script: p2pkh(pkhOf(issuer)), satoshis: 400 });
          // Signed by hand: Keystead's offer() refuses to make this signature (next test).
          const pre = TransactionSignature.format({
            sourceTXID: src.id('hex'),
            sourceOutputIndex: 0,
            sourceSatoshis: 1_000,
            transactionVersion: 1,
            otherInputs: [],
            inputIndex: 0,
            outputs: offer.outputs,
            inputSequence: 0xffffffff,
            subscript: LockingScript.fromHex(script),
            lockTime: 0,
            scope: STAS_SIGHASH_SINGLE_ACP_FORKID,
          });
          const raw = issuer.sign(Hash.sha256(pre));
          const sig = Utils.toHex(new TransactionSignature(raw.r, raw.s, STAS_SIGHASH_SINGLE_ACP_FORKID).toChecksigFormat());
          const tx = new Transaction();
          tx.version = 1;
          addInput(tx, src, 0);
          addInput(tx, funding, 0);
          addOutput(tx, { script: p2pkh(pkhOf(issuer)), satoshis: 400 });
          addOutput(tx, { script: owned(script, pkhOf(thief)), satoshis: 600 });
          addOutput(tx, { script: p2pkh(pkhOf(thief)), satoshis: 9_500 });
          let u = '';
          tx.outputs.forEach((o) => (u += minimalNumber(o.satoshis!) + minimalPush(o.lockingScript.toHex().slice(6, 46))));
          if (a === 'STAS-20') u += minimalPush('');
          u += minimalNumber(0) + minimalPush(Buffer.from(funding.id('hex'), 'hex').reverse().toString('hex')) + minimalNumber(0);
          const all = TransactionSignature.format({
            sourceTXID: src.id('hex'),
            sourceOutputIndex: 0,
            sourceSatoshis: 1_000,
            transactionVersion: 1,
            otherInputs: tx.inputs.slice(1),
            inputIndex: 0,
            outputs: tx.outputs,
            inputSequence: 0xffffffff,
            subscript: LockingScript.fromHex(script),
            lockTime: 0,
            scope: 0x41,
          });
          u += minimalPush(Utils.toHex(all)) + minimalPush(sig) + minimalPush(issuer.toPublicKey().toString());
          tx.inputs[0].unlockingScript = UnlockingScript.fromHex(u);
          tx.inputs[1].unlockingScript = p2pkhUnlock(tx, 1, thief);
          assert.equal(verify(tx, 0), true, `${a}: the redeem-split with the maker's offer signature is valid`);
        }
      },
    );
  });
}

describe('STAS swaps: what Keystead refuses before signing', () => {
  const tA = new StasTemplate('STAS-20', standIn['STAS-20']);
  const maker = PrivateKey.fromRandom();
  const issuer = PrivateKey.fromRandom();
  const script = tA.lock({ owner: pkhOf(maker), redemption: pkhOf(issuer), symbol: 'AAA', data: [], splittable: true });
  const src = parent([{ script, satoshis: 1_000 }]);
  const offerAsking = (asked: SpentOutput, sequence = 0xffffffff) => {
    const offer = new Transaction();
    offer.version = 1;
    offer.addInput({ sourceTransaction: src, sourceTXID: src.id('hex'), sourceOutputIndex: 0, sequence });
    addOutput(offer, asked);
    return () => tA.swap!.offer({ tx: offer, inputIndex: 0, script, satoshis: 1_000, key: maker });
  };
  const refused = (f: () => unknown, why: RegExp) =>
    assert.throws(f, (err: unknown) => err instanceof DomainError && err.code === 'VALIDATION_FAILED' && why.test(err.message));

  it('every STAS protocol has a swap rule (each published template accepts the swap spending type)', () => {
    for (const p of PROTOCOLS) assert.ok(new StasTemplate(p, standIn[p]).swap, p);
    assert.equal(tA.swap!.canOffer(script), true);
    assert.equal(tA.swap!.canOffer(p2pkh(pkhOf(maker))), false);
  });

  it('an offer asking to be paid at the redemption address (its signature would let anyone redeem the tokens)', () => {
    const own = tA.lock({ owner: pkhOf(issuer), redemption: pkhOf(issuer), symbol: 'AAA', data: [], splittable: true });
    const s = parent([{ script: own, satoshis: 1_000 }]);
    const offer = new Transaction();
    offer.version = 1;
    offer.addInput({ sourceTransaction: s, sourceTXID: s.id('hex'), sourceOutputIndex: 0, sequence: 0xffffffff });
    addOutput(offer, { script: p2pkh(pkhOf(issuer)), satoshis: 1_000 });
    refused(() => tA.swap!.offer({ tx: offer, inputIndex: 0, script: own, satoshis: 1_000, key: issuer }), /redemption address/);
    refused(offerAsking({ script: p2pkh(pkhOf(issuer)), satoshis: 1_000 }), /redemption address/);
  });

  it('an offer asking for its own token, for nothing, or for a script the template cannot pay', () => {
    refused(offerAsking({ script: owned(script, pkhOf(maker)), satoshis: 500 }), /very token it offers/);
    refused(offerAsking({ script: p2pkh(pkhOf(maker)), satoshis: 0 }), /at least 1 satoshi/);
    refused(offerAsking({ script: '006a', satoshis: 10 }), /P2PKH payment or a STAS-family token/);
    refused(offerAsking({ script: p2pkh(pkhOf(maker)), satoshis: 10 }, 0xfffffffe), /final sequence/);
    assert.doesNotThrow(offerAsking({ script: p2pkh(pkhOf(maker)), satoshis: 10 }));
  });

  it('a completion without the maker signature, splitting the offered tokens, or without the taker parent', () => {
    const r = swap(standIn, 'STAS-20', 'BSV');
    const c = {
      tx: r.tx,
      inputIndex: 0,
      script: spentBy(r.tx, 0).script,
      satoshis: 1_000,
      makerPart: r.makerPart,
      tokenOutputs: [{ owner: pkhOf(r.k.taker), satoshis: 1_000 }],
      firstTokenOutput: 1,
    };
    const rule = new StasTemplate('STAS-20', standIn['STAS-20']).swap!;
    refused(() => rule.complete({ ...c, makerPart: '' }), /no maker signature/);
    refused(
      () =>
        rule.complete({
          ...c,
          tokenOutputs: [
            { owner: pkhOf(r.k.taker), satoshis: 600 },
            { owner: pkhOf(r.k.eve), satoshis: 400 },
          ],
        }),
      /all the offered tokens/,
    );
    const bare = Transaction.fromHex(r.tx.toHex());
    refused(() => rule.complete({ ...c, tx: bare }), /whole parent transaction of input 1/);
    refused(() => rule.complete({ ...c, tx: bare, otherParent: r.makerParent.toHex() } as never), /not the other swap input's/);
    assert.equal(
      rule.complete({ ...c, tx: bare, otherParent: r.tx.inputs[1].sourceTransaction!.toHex() } as never),
      r.tx.inputs[0].unlockingScript!.toHex(),
    );
  });

  it('the layout check names what is wrong', () => {
    const r = swap(standIn, 'STAS', 'BSV', { takerSats: 9_000 });
    const spent = [0, 1, 2].map((i) => spentBy(r.tx, i));
    assert.equal(swapLayoutProblem(r.tx, spent), null);
    assert.match(String(swapLayoutProblem(r.tx, spent.slice(0, 2))), /three inputs/);
    assert.match(String(swapLayoutProblem(r.tx, [spent[0], { script: '006a', satoshis: 9_000 }, spent[2]])), /input 1 must be/);
    const changeless = Transaction.fromHex(r.tx.toHex());
    changeless.outputs[3].lockingScript = LockingScript.fromHex(owned(spent[0].script, pkhOf(r.k.eve)));
    assert.match(String(swapLayoutProblem(changeless, spent)), /taker's change of input 1|last output/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hash, LockingScript, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { DEFAULT_FEE_POLICY } from '../../main/chain/policy.js';
import { validateTransaction, type KnownOutput } from '../../main/chain/local/validate.js';
import { buildTokenSpend } from '../../main/engine/tokens/build.js';
import { KST_SWAP_SEQUENCE } from '../../main/engine/token-templates/kst-swap.js';
import { KST20, KST789, KST_RELEASES, KstTemplate } from '../../main/engine/token-templates/kst.js';
import { KST_CODE_V2 } from '../../main/engine/token-templates/kst/legacy-code.js';
import { TemplateRegistry } from '../../main/engine/token-templates/registry.js';
import { withOwner } from '../../main/engine/token-templates/script-bytes.js';
import type { TokenTemplate } from '../../main/engine/token-templates/template.js';

/**
 * The open template's SWAP kind (release 3) under Spend: every input's script is run as the local node runs
 * it. A maker offers tokens (input 0) for the output it asks for (output 0), signed SINGLE|ANYONECANPAY; a
 * taker completes it. Each forgery is what a hostile taker would try.
 */
class Ledger {
  readonly outputs = new Map<string, KnownOutput>();
  add(tx: Transaction): string {
    const txid = tx.id('hex');
    tx.outputs.forEach((o, vout) =>
      this.outputs.set(`${txid}:${vout}`, { satoshis: o.satoshis!, script: o.lockingScript.toHex(), spentBy: null }),
    );
    tx.inputs.forEach((i) => {
      const spent = this.outputs.get(`${i.sourceTXID}:${i.sourceOutputIndex}`);
      if (spent) spent.spentBy = txid;
    });
    return txid;
  }
  check(tx: Transaction) {
    return validateTransaction(tx, tx.toBinary().length, (t, v) => this.outputs.get(`${t}:${v}`) ?? null, DEFAULT_FEE_POLICY);
  }
}

const pkh = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));
const p2pkh = (k: PrivateKey) => new P2PKH().lock(k.toAddress()).toHex();
const goldIssuer = PrivateKey.fromRandom();
const silverIssuer = PrivateKey.fromRandom();
const maker = PrivateKey.fromRandom();
const taker = PrivateKey.fromRandom();
const thief = PrivateKey.fromRandom();

type Out = { script: string; satoshis: number };
type Held = { txid: string; vout: number; script: string; satoshis: number; key: PrivateKey };

function mint(ledger: Ledger, outputs: Out[]): Transaction {
  const tx = new Transaction(1, [], [], 0);
  tx.addInput({
    sourceTXID: Utils.toHex(Hash.sha256(Utils.toArray(String(Math.random()), 'utf8'))),
    sourceOutputIndex: 0,
    unlockingScript: new UnlockingScript(),
    sequence: 0xffffffff,
  });
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  ledger.add(tx);
  return tx;
}

function token(
  ledger: Ledger,
  t: TokenTemplate,
  owner: PrivateKey,
  issuer: PrivateKey,
  symbol: string,
  satoshis: number,
  data: string[] = [],
): Held {
  const script = t.lock({ owner: pkh(owner), redemption: pkh(issuer), symbol, data, splittable: t.fungible });
  const tx = mint(ledger, [{ script, satoshis }]);
  return { txid: tx.id('hex'), vout: 0, script, satoshis, key: owner };
}

function coin(ledger: Ledger, owner: PrivateKey, satoshis = 100_000): Held {
  const script = p2pkh(owner);
  const tx = mint(ledger, [{ script, satoshis }]);
  return { txid: tx.id('hex'), vout: 0, script, satoshis, key: owner };
}

/** The maker's offer: its token as input 0 (swap sequence), the asked-for output as output 0, its SINGLE|ACP part. */
function offer(t: TokenTemplate, held: Held, asked: Out): { asked: Out; makerPart: string; held: Held } {
  const tx = new Transaction(1, [], [], 0);
  tx.addInput({ sourceTXID: held.txid, sourceOutputIndex: held.vout, sequence: KST_SWAP_SEQUENCE, unlockingScript: new UnlockingScript() });
  tx.addOutput({ lockingScript: LockingScript.fromHex(asked.script), satoshis: asked.satoshis });
  const makerPart = t.swap!.offer({ tx, inputIndex: 0, script: held.script, satoshis: held.satoshis, key: held.key });
  return { asked, makerPart, held };
}

interface Take {
  /** Outputs of the swap transaction, output 0 first (a forgery may change it). */
  outputs: Out[];
  /** Where the offered tokens' outputs start, and what they are (as the taker claims them). */
  first: number;
  claimed: { owner: string; satoshis: number }[];
  /** A taker's token input paying for a token-for-token offer: its claimed outputs from output 0. */
  payment?: { held: Held; template: TokenTemplate; claimed: { owner: string; satoshis: number }[] };
  funding: Held;
  /** The offered input's sequence and kind, when a forgery changes them. */
  sequence?: number;
}

async function take(t: TokenTemplate, o: ReturnType<typeof offer>, k: Take): Promise<Transaction> {
  const tx = new Transaction(1, [], [], 0);
  tx.addInput({
    sourceTXID: o.held.txid,
    sourceOutputIndex: o.held.vout,
    sequence: k.sequence ?? KST_SWAP_SEQUENCE,
    unlockingScript: new UnlockingScript(),
  });
  if (k.payment)
    tx.addInput({
      sourceTXID: k.payment.held.txid,
      sourceOutputIndex: k.payment.held.vout,
      sequence: KST_SWAP_SEQUENCE,
      unlockingScript: new UnlockingScript(),
    });
  tx.addInput({
    sourceTXID: k.funding.txid,
    sourceOutputIndex: k.funding.vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: new P2PKH().unlock(k.funding.key, 'all', false, k.funding.satoshis, LockingScript.fromHex(k.funding.script)),
  });
  for (const out of k.outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(out.script), satoshis: out.satoshis });
  tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
    t.swap!.complete({
      tx,
      inputIndex: 0,
      script: o.held.script,
      satoshis: o.held.satoshis,
      makerPart: o.makerPart,
      tokenOutputs: k.claimed,
      firstTokenOutput: k.first,
    }),
  );
  if (k.payment) {
    const p = k.payment;
    tx.inputs[1].unlockingScript = UnlockingScript.fromHex(
      p.template.swap!.unlockPayment({
        tx,
        inputIndex: 1,
        script: p.held.script,
        satoshis: p.held.satoshis,
        key: p.held.key,
        kind: 'transfer',
        tokenOutputs: p.claimed,
        redeem: null,
        change: null,
        funding: null,
        otherParent: null,
        firstTokenOutput: 0,
      }),
    );
  }
  await tx.sign();
  return tx;
}

/** The node refuses it: by its scripts (`bad-signature`, the default), or as a double spend. */
const failsScript = (ledger: Ledger, tx: Transaction, why: string, reason = 'bad-signature') => {
  const r = ledger.check(tx);
  assert.equal(r.ok, false, `${why}: the forged swap was accepted`);
  assert.equal((r as { reason?: string }).reason, reason, `${why}: ${JSON.stringify(r)}`);
  return r;
};
const passes = (ledger: Ledger, tx: Transaction) => {
  const r = ledger.check(tx);
  assert.equal(r.ok, true, JSON.stringify(r));
};

describe('KST swaps under Spend (release 3, the SWAP kind)', () => {
  it('token for BSV: the taker pays the asked output 0 and takes the offered tokens (split as it likes); the maker gets exactly what it asked', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const o = offer(KST20, gold, { script: p2pkh(maker), satoshis: 5000 });
    const funding = coin(ledger, taker);
    const tx = await take(KST20, o, {
      outputs: [
        o.asked,
        { script: withOwner(gold.script, pkh(taker)), satoshis: 600 },
        { script: withOwner(gold.script, pkh(taker)), satoshis: 400 },
        { script: p2pkh(taker), satoshis: 94_000 },
      ],
      first: 1,
      claimed: [
        { owner: pkh(taker), satoshis: 600 },
        { owner: pkh(taker), satoshis: 400 },
      ],
      funding,
    });
    passes(ledger, tx);
  });

  it('an NFT serial for BSV', async () => {
    const ledger = new Ledger();
    const nft = token(ledger, KST789, maker, goldIssuer, 'ART', 1, ['01']);
    const o = offer(KST789, nft, { script: p2pkh(maker), satoshis: 20_000 });
    const tx = await take(KST789, o, {
      outputs: [o.asked, { script: withOwner(nft.script, pkh(taker)), satoshis: 1 }, { script: p2pkh(taker), satoshis: 79_000 }],
      first: 1,
      claimed: [{ owner: pkh(taker), satoshis: 1 }],
      funding: coin(ledger, taker),
    });
    passes(ledger, tx);
  });

  it('refuses a taker paying less, paying another address, or moving or dropping the asked output', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const o = offer(KST20, gold, { script: p2pkh(maker), satoshis: 5000 });
    const mine = { script: withOwner(gold.script, pkh(taker)), satoshis: 1000 };
    const change = { script: p2pkh(taker), satoshis: 90_000 };
    const claimed = [{ owner: pkh(taker), satoshis: 1000 }];
    const cases: [string, Take][] = [
      ['one satoshi less', { outputs: [{ ...o.asked, satoshis: 4999 }, mine, change], first: 1, claimed, funding: coin(ledger, taker) }],
      [
        'paid to another address',
        { outputs: [{ script: p2pkh(thief), satoshis: 5000 }, mine, change], first: 1, claimed, funding: coin(ledger, taker) },
      ],
      ['asked output moved to index 1', { outputs: [mine, o.asked, change], first: 0, claimed, funding: coin(ledger, taker) }],
      [
        'asked output dropped',
        { outputs: [{ script: p2pkh(taker), satoshis: 1 }, mine, change], first: 1, claimed, funding: coin(ledger, taker) },
      ],
    ];
    for (const [why, k] of cases) failsScript(ledger, await take(KST20, o, k), why);
  });

  it('refuses a taker taking more tokens than offered, or fewer into token outputs (the rest as plain satoshis), or another token script', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const o = offer(KST20, gold, { script: p2pkh(maker), satoshis: 5000 });
    const change = { script: p2pkh(taker), satoshis: 90_000 };
    const cases: [string, Take][] = [
      [
        'inflated',
        {
          outputs: [o.asked, { script: withOwner(gold.script, pkh(taker)), satoshis: 1100 }, change],
          first: 1,
          claimed: [{ owner: pkh(taker), satoshis: 1100 }],
          funding: coin(ledger, taker),
        },
      ],
      [
        'claims 1000 but writes 900 and takes 100 as satoshis',
        {
          outputs: [
            o.asked,
            { script: withOwner(gold.script, pkh(taker)), satoshis: 900 },
            { script: p2pkh(taker), satoshis: 100 },
            change,
          ],
          first: 1,
          claimed: [{ owner: pkh(taker), satoshis: 1000 }],
          funding: coin(ledger, taker),
        },
      ],
      [
        'tokens turned into another token',
        {
          outputs: [
            o.asked,
            {
              script: KST20.lock({ owner: pkh(taker), redemption: pkh(thief), symbol: 'GOLD', data: [], splittable: true }),
              satoshis: 1000,
            },
            change,
          ],
          first: 1,
          claimed: [{ owner: pkh(taker), satoshis: 1000 }],
          funding: coin(ledger, taker),
        },
      ],
      [
        'claims the asked output as its token output (empty before)',
        {
          outputs: [{ script: withOwner(gold.script, pkh(taker)), satoshis: 1000 }, o.asked, change],
          first: 0,
          claimed: [{ owner: pkh(taker), satoshis: 1000 }],
          funding: coin(ledger, taker),
        },
      ],
    ];
    for (const [why, k] of cases) failsScript(ledger, await take(KST20, o, k), why);
  });

  it("the maker's SINGLE|ANYONECANPAY signature serves a SWAP only: not a transfer, nor a redeem that pays the asked satoshis out of the maker's own tokens", async () => {
    const ledger = new Ledger();
    // The issuer offers its own KST-20: a redeem's first output is a P2PKH to the issuer, like the asked one.
    const gold = token(ledger, KST20, goldIssuer, goldIssuer, 'GOLD', 10_000);
    const o = offer(KST20, gold, { script: p2pkh(goldIssuer), satoshis: 5000 });
    for (const kind of ['redeem', 'transfer'] as const) {
      for (const sequence of [KST_SWAP_SEQUENCE, 0xffffffff]) {
        const tx = new Transaction(1, [], [], 0);
        tx.addInput({ sourceTXID: gold.txid, sourceOutputIndex: 0, sequence, unlockingScript: new UnlockingScript() });
        const f = coin(ledger, thief);
        tx.addInput({
          sourceTXID: f.txid,
          sourceOutputIndex: 0,
          sequence: 0xffffffff,
          unlockingScriptTemplate: new P2PKH().unlock(thief, 'all', false, f.satoshis, LockingScript.fromHex(f.script)),
        });
        const tokens = kind === 'redeem' ? [{ owner: pkh(thief), satoshis: 5000 }] : [{ owner: pkh(thief), satoshis: 10_000 }];
        if (kind === 'redeem') tx.addOutput({ lockingScript: LockingScript.fromHex(o.asked.script), satoshis: 5000 });
        for (const t of tokens)
          tx.addOutput({ lockingScript: LockingScript.fromHex(withOwner(gold.script, t.owner)), satoshis: t.satoshis });
        tx.addOutput({ lockingScript: LockingScript.fromHex(p2pkh(thief)), satoshis: 90_000 });
        // The code's parameters as the kind needs them, the maker's signature and key from the offer.
        const sig = KST20.swap!.readOffer(o.makerPart)!;
        const { preimageAndSignature } = await import('../../main/engine/token-templates/preimage.js');
        const { preimage } = preimageAndSignature({ tx, inputIndex: 0, script: gold.script, satoshis: gold.satoshis, key: thief });
        const { minimalPush } = await import('../../main/engine/token-templates/script-bytes.js');
        tx.inputs[0].unlockingScript = UnlockingScript.fromHex(
          KST20.unlockingScript(
            {
              tx,
              tokenOutputs: tokens,
              redeem: kind === 'redeem' ? { owner: pkh(goldIssuer), satoshis: 5000 } : null,
              change: null,
              otherParent: null,
            },
            kind === 'redeem' ? 2 : 0,
            { before: '', after: '' },
            preimage,
            minimalPush(sig.signature) + minimalPush(sig.publicKey),
          ),
        );
        await tx.sign();
        failsScript(ledger, tx, `${kind} with sequence ${sequence.toString(16)}`);
      }
    }
  });

  it('token for token: the taker pays the wanted tokens to the maker at output 0 (its change next) and takes the offered ones', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const silver = token(ledger, KST20, taker, silverIssuer, 'SILVER', 500);
    const wanted = { script: withOwner(silver.script, pkh(maker)), satoshis: 300 };
    const o = offer(KST20, gold, wanted);
    const build = (asked: Out, payClaim: { owner: string; satoshis: number }[], payOutputs: Out[]) =>
      take(KST20, o, {
        outputs: [
          asked,
          ...payOutputs,
          { script: withOwner(gold.script, pkh(taker)), satoshis: 1000 },
          { script: p2pkh(taker), satoshis: 90_000 },
        ],
        first: 1 + payOutputs.length,
        claimed: [{ owner: pkh(taker), satoshis: 1000 }],
        payment: { held: silver, template: KST20, claimed: payClaim },
        funding: coin(ledger, taker),
      });
    const change = { script: withOwner(silver.script, pkh(taker)), satoshis: 200 };
    passes(
      ledger,
      await build(
        wanted,
        [
          { owner: pkh(maker), satoshis: 300 },
          { owner: pkh(taker), satoshis: 200 },
        ],
        [change],
      ),
    );

    // Fewer wanted tokens (the rest kept as change), and another token (a look-alike by another issuer).
    const fewer = { ...wanted, satoshis: 299 };
    failsScript(
      ledger,
      await build(
        fewer,
        [
          { owner: pkh(maker), satoshis: 299 },
          { owner: pkh(taker), satoshis: 201 },
        ],
        [{ ...change, satoshis: 201 }],
      ),
      'fewer wanted tokens',
    );
    const fake = token(ledger, KST20, taker, thief, 'SILVER', 500);
    const forged = await take(KST20, o, {
      outputs: [
        { script: withOwner(fake.script, pkh(maker)), satoshis: 300 },
        { script: withOwner(fake.script, pkh(taker)), satoshis: 200 },
        { script: withOwner(gold.script, pkh(taker)), satoshis: 1000 },
        { script: p2pkh(taker), satoshis: 90_000 },
      ],
      first: 2,
      claimed: [{ owner: pkh(taker), satoshis: 1000 }],
      payment: {
        held: fake,
        template: KST20,
        claimed: [
          { owner: pkh(maker), satoshis: 300 },
          { owner: pkh(taker), satoshis: 200 },
        ],
      },
      funding: coin(ledger, taker),
    });
    failsScript(ledger, forged, 'another token');
  });

  it('no output is counted twice: a paying input cannot claim the offered tokens, nor an offered input the paid ones', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const silver = token(ledger, KST20, taker, silverIssuer, 'SILVER', 1300);
    const wanted = { script: withOwner(silver.script, pkh(maker)), satoshis: 300 };
    const o = offer(KST20, gold, wanted);
    // The paying SILVER input (1300) claims the GOLD output (1000) as its own: the tails differ, so the outputs do not hash.
    const tx = await take(KST20, o, {
      outputs: [wanted, { script: withOwner(gold.script, pkh(taker)), satoshis: 1000 }, { script: p2pkh(taker), satoshis: 90_000 }],
      first: 1,
      claimed: [{ owner: pkh(taker), satoshis: 1000 }],
      payment: {
        held: silver,
        template: KST20,
        claimed: [
          { owner: pkh(maker), satoshis: 300 },
          { owner: pkh(taker), satoshis: 1000 },
        ],
      },
      funding: coin(ledger, taker),
    });
    failsScript(ledger, tx, 'a paying input claiming the offered output');
  });

  it('an offer cannot be taken once withdrawn: the offered output is spent, and the node refuses the swap', async () => {
    const ledger = new Ledger();
    const gold = token(ledger, KST20, maker, goldIssuer, 'GOLD', 1000);
    const o = offer(KST20, gold, { script: p2pkh(maker), satoshis: 5000 });
    const mf = coin(ledger, maker);
    const withdraw = await buildTokenSpend({
      template: KST20,
      kind: 'transfer',
      inputs: [{ ...gold, parentHex: null }],
      tokenOutputs: [{ owner: pkh(maker), satoshis: 1000 }],
      redeem: null,
      funding: { ...mf, changeOwner: pkh(maker) },
      policy: DEFAULT_FEE_POLICY,
    });
    passes(ledger, withdraw.tx);
    ledger.add(withdraw.tx);
    const tx = await take(KST20, o, {
      outputs: [o.asked, { script: withOwner(gold.script, pkh(taker)), satoshis: 1000 }, { script: p2pkh(taker), satoshis: 90_000 }],
      first: 1,
      claimed: [{ owner: pkh(taker), satoshis: 1000 }],
      funding: coin(ledger, taker),
    });
    failsScript(ledger, tx, 'a withdrawn offer (refused because its output is spent)', 'double-spend');
  });

  it('outputs of release 2 (the code before the SWAP kind) are still recognised and moved with their own code', async () => {
    const ledger = new Ledger();
    const v2 = new KstTemplate('KST-20', true, KST_CODE_V2);
    const held = token(ledger, v2, maker, goldIssuer, 'GOLD', 1000);
    assert.notEqual(
      held.script,
      KST20.lock({ owner: pkh(maker), redemption: pkh(goldIssuer), symbol: 'GOLD', data: [], splittable: true }),
    );
    const registry = new TemplateRegistry(() => []);
    const mover = registry.forOutputs('KST-20', [held.script])!;
    assert.equal((mover as KstTemplate).release, 2);
    const f = coin(ledger, maker);
    const split = await buildTokenSpend({
      template: mover,
      kind: 'transfer',
      inputs: [{ ...held, parentHex: null }],
      tokenOutputs: [
        { owner: pkh(taker), satoshis: 600 },
        { owner: pkh(maker), satoshis: 400 },
      ],
      redeem: null,
      funding: { ...f, changeOwner: pkh(maker) },
      policy: DEFAULT_FEE_POLICY,
    });
    passes(ledger, split.tx);
    assert.equal(split.tx.outputs[0].lockingScript.toHex(), withOwner(held.script, pkh(taker)), 'kept its own code');
  });

  it('earlier releases have no swap path; the current one has', () => {
    assert.ok(KST20.swap && KST789.swap);
    const old = KST_RELEASES.filter((t) => t !== KST20 && t !== KST789);
    assert.ok(old.length >= 4);
    for (const t of old) assert.equal(t.swap, undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Hash, LockingScript, P2PKH, PrivateKey, Transaction, UnlockingScript, Utils } from '@bsv/sdk';
import { DEFAULT_FEE_POLICY } from '../../main/chain/policy.js';
import { validateTransaction, type KnownOutput } from '../../main/chain/local/validate.js';
import { buildTokenSpend, type Funding, type SpentToken } from '../../main/engine/tokens/build.js';
import { KST_CODE_V1 } from '../../main/engine/token-templates/kst/legacy-code.js';
import { KST20, KST789, KstTemplate } from '../../main/engine/token-templates/kst.js';
import { TemplateRegistry } from '../../main/engine/token-templates/registry.js';
import { withOwner } from '../../main/engine/token-templates/script-bytes.js';
import type { TokenTemplate } from '../../main/engine/token-templates/template.js';

/** A tiny ledger: outputs by outpoint, so whole transactions are checked as the local node checks them (every input under Spend). */
class Ledger {
  readonly outputs = new Map<string, KnownOutput>();
  add(tx: Transaction): string {
    const txid = tx.id('hex');
    tx.outputs.forEach((o, vout) =>
      this.outputs.set(`${txid}:${vout}`, { satoshis: o.satoshis!, script: o.lockingScript.toHex(), spentBy: null }),
    );
    return txid;
  }
  check(tx: Transaction) {
    return validateTransaction(tx, tx.toBinary().length, (t, v) => this.outputs.get(`${t}:${v}`) ?? null, DEFAULT_FEE_POLICY);
  }
}

const pkh = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));
const issuer = PrivateKey.fromRandom();
const alice = PrivateKey.fromRandom();
const bob = PrivateKey.fromRandom();

/** A parent transaction creating the given outputs (its own input is never checked here). */
function mint(ledger: Ledger, outputs: { script: string; satoshis: number }[]): Transaction {
  const tx = new Transaction(
    1,
    [
      {
        sourceTXID: Utils.toHex(Hash.sha256(Utils.toArray(String(Math.random()), 'utf8'))),
        sourceOutputIndex: 0,
        unlockingScript: new UnlockingScript(),
        sequence: 0xffffffff,
      },
    ],
    [],
    0,
  );
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  ledger.add(tx);
  return tx;
}

function fundingFor(ledger: Ledger, key: PrivateKey, satoshis = 50_000): Funding {
  const script = new P2PKH().lock(key.toAddress()).toHex();
  const tx = mint(ledger, [{ script, satoshis }]);
  return { txid: tx.id('hex'), vout: 0, satoshis, script, key, changeOwner: pkh(key) };
}

function tokenOf(ledger: Ledger, t: TokenTemplate, owner: PrivateKey, satoshis: number, data: string[] = []): SpentToken {
  const script = t.lock({ owner: pkh(owner), redemption: pkh(issuer), symbol: 'GOLD', data, splittable: t.fungible });
  const parent = mint(ledger, [{ script, satoshis }]);
  return { txid: parent.id('hex'), vout: 0, satoshis, script, key: owner, parentHex: parent.toHex() };
}

type Claim = {
  tokenOutputs: { owner: string; satoshis: number }[];
  redeem: { owner: string; satoshis: number } | null;
  change: { owner: string; satoshis: number } | null;
};

/**
 * A transaction that says one thing in its unlocking scripts (`claim`) and may do another in its outputs:
 * how an attacker would try. Signed by `signer` (the owner, unless the owner is what is being forged).
 */
async function forge(
  t: TokenTemplate,
  kind: 'transfer' | 'merge' | 'redeem',
  inputs: SpentToken[],
  claim: Claim,
  outputs: { script: string; satoshis: number }[],
  funding: Funding,
): Promise<Transaction> {
  const tx = new Transaction(1, [], [], 0);
  for (const i of inputs)
    tx.addInput({ sourceTXID: i.txid, sourceOutputIndex: i.vout, sequence: 0xffffffff, unlockingScript: new UnlockingScript() });
  tx.addInput({
    sourceTXID: funding.txid,
    sourceOutputIndex: funding.vout,
    sequence: 0xffffffff,
    unlockingScriptTemplate: new P2PKH().unlock(funding.key, 'all', false, funding.satoshis, LockingScript.fromHex(funding.script)),
  });
  for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
  inputs.forEach((input, index) => {
    tx.inputs[index].unlockingScript = UnlockingScript.fromHex(
      t.unlock({
        tx,
        inputIndex: index,
        script: input.script,
        satoshis: input.satoshis,
        key: input.key,
        kind,
        ...claim,
        funding: { txid: funding.txid, vout: funding.vout },
        otherParent: kind === 'merge' ? inputs[1 - index].parentHex : null,
      }),
    );
  });
  await tx.sign();
  return tx;
}

const p2pkh = (k: PrivateKey) => new P2PKH().lock(k.toAddress()).toHex();

/** A KST-789 that would let a test ask for two token outputs (the real one refuses to build that). */
class LaxNft extends KstTemplate {
  override readonly maxTokenOutputs = 4;
}

describe('KST token scripts under Spend', () => {
  it('lays out like STAS: owner P2PKH first, then the code, the redemption hash, symbol and data; parses back', () => {
    const script = KST789.lock({
      owner: pkh(alice),
      redemption: pkh(issuer),
      symbol: 'ART',
      data: [Buffer.from('sn-1').toString('hex')],
      splittable: false,
    });
    assert.ok(script.startsWith(`76a914${pkh(alice)}88ac69`));
    assert.equal(script.slice(KST789.redeemAt * 2 - 2, KST789.redeemAt * 2 + 40), `14${pkh(issuer)}`);
    assert.deepEqual(KST789.parse(script), {
      protocol: 'KST-789',
      owner: pkh(alice),
      redemption: pkh(issuer),
      symbol: 'ART',
      data: [Buffer.from('sn-1').toString('hex')],
      splittable: false,
    });
    assert.equal(KST20.parse(script), null, 'another protocol is not this one');
  });

  it('KST-20: transfer, split and merge are valid when they conserve the token satoshis', async () => {
    const ledger = new Ledger();
    const t = tokenOf(ledger, KST20, alice, 1000);
    const split = await buildTokenSpend({
      template: KST20,
      kind: 'transfer',
      inputs: [t],
      tokenOutputs: [
        { owner: pkh(bob), satoshis: 600 },
        { owner: pkh(alice), satoshis: 400 },
      ],
      redeem: null,
      funding: fundingFor(ledger, alice),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.deepEqual(ledger.check(split.tx), {
      ok: true,
      fee: split.fee,
      spent: split.tx.inputs.map((i) => ({ txid: i.sourceTXID, vout: i.sourceOutputIndex })),
    });
    const splitId = ledger.add(split.tx);
    const [b1, a1] = [0, 1].map((vout): SpentToken => ({
      txid: splitId,
      vout,
      satoshis: split.tx.outputs[vout].satoshis!,
      script: split.tx.outputs[vout].lockingScript.toHex(),
      key: vout === 0 ? bob : alice,
      parentHex: split.tx.toHex(),
    }));
    // Alice sends hers to Bob too, then Bob merges both.
    const move = await buildTokenSpend({
      template: KST20,
      kind: 'transfer',
      inputs: [a1],
      tokenOutputs: [{ owner: pkh(bob), satoshis: 400 }],
      redeem: null,
      funding: fundingFor(ledger, alice),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.equal(ledger.check(move.tx).ok, true);
    const moveId = ledger.add(move.tx);
    const b2: SpentToken = {
      txid: moveId,
      vout: 0,
      satoshis: 400,
      script: move.tx.outputs[0].lockingScript.toHex(),
      key: bob,
      parentHex: move.tx.toHex(),
    };
    const merge = await buildTokenSpend({
      template: KST20,
      kind: 'merge',
      inputs: [b1, b2],
      tokenOutputs: [{ owner: pkh(bob), satoshis: 1000 }],
      redeem: null,
      funding: fundingFor(ledger, bob),
      policy: DEFAULT_FEE_POLICY,
    });
    const v = ledger.check(merge.tx);
    assert.equal(v.ok, true, JSON.stringify(v));
  });

  it('redeem: the issuer redeems KST-20 (part of it, the rest stays a token); any holder redeems a KST-789; the satoshis go to the redemption hash', async () => {
    const ledger = new Ledger();
    const own = tokenOf(ledger, KST20, issuer, 1000);
    const part = await buildTokenSpend({
      template: KST20,
      kind: 'redeem',
      inputs: [own],
      tokenOutputs: [{ owner: pkh(issuer), satoshis: 300 }],
      redeem: { owner: pkh(issuer), satoshis: 700 },
      funding: fundingFor(ledger, issuer),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.equal(ledger.check(part.tx).ok, true, JSON.stringify(ledger.check(part.tx)));
    assert.equal(part.tx.outputs[0].lockingScript.toHex(), p2pkh(issuer));
    const nft = tokenOf(ledger, KST789, alice, 1, [Buffer.from('1').toString('hex')]);
    const r = await buildTokenSpend({
      template: KST789,
      kind: 'redeem',
      inputs: [nft],
      tokenOutputs: [],
      redeem: { owner: pkh(issuer), satoshis: 1 },
      funding: fundingFor(ledger, alice),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.equal(ledger.check(r.tx).ok, true, JSON.stringify(ledger.check(r.tx)));
  });

  it('refuses forged spends: wrong owner, inflated amount, changed token script, plain satoshis, a non-issuer redeeming KST-20, two inputs counting one output, an NFT split, a merge with a made-up value', async () => {
    const ledger = new Ledger();
    const token = () => tokenOf(ledger, KST20, alice, 1000);
    const fund = () => fundingFor(ledger, alice);
    const refused = async (what: string, tx: Promise<Transaction>) => {
      const v = ledger.check(await tx);
      assert.equal(v.ok, false, `${what} was accepted`);
      assert.equal(v.ok === false && v.reason, 'bad-signature', `${what}: ${JSON.stringify(v)}`);
    };
    const honest = (t: SpentToken, sats = t.satoshis): Claim => ({
      tokenOutputs: [{ owner: pkh(bob), satoshis: sats }],
      redeem: null,
      change: null,
    });

    let t = token();
    await refused(
      'a spend signed by someone else',
      forge(KST20, 'transfer', [{ ...t, key: bob }], honest(t), [{ script: withOwner(t.script, pkh(bob)), satoshis: 1000 }], fund()),
    );
    t = token();
    await refused(
      'an inflated amount',
      forge(KST20, 'transfer', [t], honest(t, 1500), [{ script: withOwner(t.script, pkh(bob)), satoshis: 1500 }], fund()),
    );
    t = token();
    const renamed = KST20.lock({ owner: pkh(bob), redemption: pkh(issuer), symbol: 'GOLE', data: [], splittable: true });
    await refused('a changed token script', forge(KST20, 'transfer', [t], honest(t), [{ script: renamed, satoshis: 1000 }], fund()));
    t = token();
    await refused(
      'turning a token into plain satoshis',
      forge(KST20, 'transfer', [t], honest(t), [{ script: p2pkh(bob), satoshis: 1000 }], fund()),
    );
    t = token();
    await refused(
      'a holder (not the issuer) redeeming KST-20',
      forge(
        KST20,
        'redeem',
        [t],
        { tokenOutputs: [], redeem: { owner: pkh(issuer), satoshis: 1000 }, change: null },
        [{ script: p2pkh(issuer), satoshis: 1000 }],
        fund(),
      ),
    );
    t = token();
    await refused(
      'a redeem paying someone other than the redemption hash',
      forge(
        KST20,
        'redeem',
        [{ ...t, key: alice }],
        { tokenOutputs: [], redeem: { owner: pkh(alice), satoshis: 1000 }, change: null },
        [{ script: p2pkh(alice), satoshis: 1000 }],
        fund(),
      ),
    );
    const [x, y] = [token(), token()];
    // Each input alone would see "1000 in, 1000 out"; together 1000 token satoshis would leave as plain change.
    await refused(
      'two token inputs counting the same output',
      forge(
        KST20,
        'transfer',
        [x, y],
        { tokenOutputs: [{ owner: pkh(bob), satoshis: 1000 }], redeem: null, change: { owner: pkh(alice), satoshis: 1000 } },
        [
          { script: withOwner(x.script, pkh(bob)), satoshis: 1000 },
          { script: p2pkh(alice), satoshis: 1000 },
        ],
        fund(),
      ),
    );
    const lax = new LaxNft('KST-789', false);
    const nft = tokenOf(ledger, KST789, alice, 2, ['01']);
    await refused(
      'an NFT split in two',
      forge(
        lax,
        'transfer',
        [nft],
        {
          tokenOutputs: [
            { owner: pkh(bob), satoshis: 1 },
            { owner: pkh(alice), satoshis: 1 },
          ],
          redeem: null,
          change: null,
        },
        [
          { script: withOwner(nft.script, pkh(bob)), satoshis: 1 },
          { script: withOwner(nft.script, pkh(alice)), satoshis: 1 },
        ],
        fund(),
      ),
    );
    // A merge whose second input is claimed to be worth more: its parent transaction says otherwise.
    const [m1, m2] = [token(), token()];
    const fakeParent = mint(new Ledger(), [{ script: m2.script, satoshis: 5000 }]);
    await refused(
      'a merge with a made-up value',
      forge(
        KST20,
        'merge',
        [m1, { ...m2, parentHex: fakeParent.toHex() }],
        { tokenOutputs: [{ owner: pkh(bob), satoshis: 6000 }], redeem: null, change: null },
        [{ script: withOwner(m1.script, pkh(bob)), satoshis: 6000 }],
        fundingFor(ledger, alice, 100_000),
      ),
    );
  });
});

describe('earlier releases of the open template stay usable', () => {
  it('outputs written with the first release are recognised, moved with its own code (split, merge) and not mixed with the current one', async () => {
    const v1 = new KstTemplate('KST-20', true, KST_CODE_V1);
    const registry = new TemplateRegistry(() => []);
    const ledger = new Ledger();
    const t = tokenOf(ledger, v1, alice, 1000);
    assert.notEqual(
      t.script,
      KST20.lock({ owner: pkh(alice), redemption: pkh(issuer), symbol: 'GOLD', data: [], splittable: true }),
      'the releases differ',
    );
    const seen = registry.recognise(t.script);
    assert.equal(seen?.token.protocol, 'KST-20');
    assert.equal((seen?.template as KstTemplate).redeemAt, v1.redeemAt);
    const mover = registry.forOutputs('KST-20', [t.script])!;
    assert.equal((mover as KstTemplate).redeemAt, v1.redeemAt, 'moved with the release that wrote it');
    const split = await buildTokenSpend({
      template: mover,
      kind: 'transfer',
      inputs: [t],
      tokenOutputs: [
        { owner: pkh(bob), satoshis: 600 },
        { owner: pkh(bob), satoshis: 400 },
      ],
      redeem: null,
      funding: fundingFor(ledger, alice),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.equal(ledger.check(split.tx).ok, true, 'the first release still spends under Spend');
    const splitId = ledger.add(split.tx);
    const [b1, b2] = [0, 1].map((vout): SpentToken => ({
      txid: splitId,
      vout,
      satoshis: split.tx.outputs[vout].satoshis!,
      script: split.tx.outputs[vout].lockingScript.toHex(),
      key: bob,
      parentHex: split.tx.toHex(),
    }));
    assert.ok(registry.forOutputs('KST-20', [b1.script])!.parse(b1.script), 'its outputs keep the first release');
    const merge = await buildTokenSpend({
      template: mover,
      kind: 'merge',
      inputs: [b1, b2],
      tokenOutputs: [{ owner: pkh(bob), satoshis: 1000 }],
      redeem: null,
      funding: fundingFor(ledger, bob),
      policy: DEFAULT_FEE_POLICY,
    });
    assert.equal(ledger.check(merge.tx).ok, true);
    const current = tokenOf(ledger, KST20, bob, 5);
    assert.equal(registry.forOutputs('KST-20', [b1.script, current.script]), null, 'two releases are never spent together');
    assert.equal(registry.forOutputs('KST-20', [current.script]), KST20, 'new outputs use the current release');
  });
});

describe('every release of the open template is kept', () => {
  it('the code the build makes now is a recorded release, and every recorded release is still recognised', async () => {
    const { createHash } = await import('node:crypto');
    const { KST_RELEASED_CODE_SHA256 } = await import('../../main/engine/token-templates/kst/legacy-code.js');
    const { KST_CODE } = await import('../../main/engine/token-templates/kst/templates.generated.js');
    const { KST_RELEASES } = await import('../../main/engine/token-templates/kst.js');
    const sha = (code: string) => createHash('sha256').update(code).digest('hex');
    for (const c of KST_CODE) {
      assert.ok(
        KST_RELEASED_CODE_SHA256.includes(sha(c.code)),
        `the ${c.protocol} code changed: keep the previous release in kst/legacy-code.ts (KST_CODE_V<n>, KST_RELEASES) and record the new hash, so tokens already issued stay usable`,
      );
    }
    const recognised = new Set(KST_RELEASES.map((t) => sha((t as unknown as { code: string }).code)));
    assert.deepEqual(
      KST_RELEASED_CODE_SHA256.filter((h) => !recognised.has(h)),
      [],
      'every recorded release is recognised',
    );
  });
});

describe('the open template is built from its sCrypt sources', () => {
  it('the generated code is what our compiler makes of kst/*.scrypt now (npm run build regenerates it)', async () => {
    const { compileKstTemplates } = await import('../../main/engine/token-templates/kst/compile-templates.js');
    const { KST_CODE } = await import('../../main/engine/token-templates/kst/templates.generated.js');
    assert.deepEqual(compileKstTemplates(), KST_CODE);
  });
});

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { PrivateKey } from '@bsv/sdk';
import { ROOT } from '../helpers/headless.js';
import { ADMIN } from '../helpers/http.js';
import { createOrgWallet, orgCall as call, type Org } from '../helpers/org.js';
import { Rng } from '../helpers/rng.js';
import { startPair, stopPair } from '../helpers/two-instances.js';
import { ChainTokens, pkhOfAddress, pkhOfKey, WalletKeys, type ChainToken } from '../helpers/token-chain.js';
import { untilValue } from '../helpers/until.js';

/**
 * Token books that never drift (issue 30 §1), as a property: random sequences of issue, send (by paymail and
 * by address, within one instance and between two), split, merge, redeem and swap over both open-template
 * families (KST-20, KST-789), and after every step three books must agree: the test's own model of who holds
 * what, the chain (the token's outputs followed from its issue, owners matched to keys the test derives from
 * each wallet's recovery phrase), and each instance's answers (balance, lookup, token details and list).
 *
 * A failure names its seed; replay it alone with
 *   TOKEN_BOOKS_SEED=<seed> node --import tsx --test test/integration/token-books-property.test.ts
 * (several: TOKEN_BOOKS_SEED=1,2,3; TOKEN_BOOKS_STEPS sets the steps per seed). Each seed issues its own tokens,
 * so a seed run alone makes the same moves; the tokens of seeds run before it are checked after its steps too.
 */
/** Between them the default seeds make every kind of step (seed 5 finds the swap defect named in the report). */
const SEEDS = process.env.TOKEN_BOOKS_SEED ? process.env.TOKEN_BOOKS_SEED.split(',').map(Number) : [1, 3, 4, 6, 5];
const STEPS = Number(process.env.TOKEN_BOOKS_STEPS ?? 12);
/**
 * Token details on the instance that did not issue the token are checked too (TOKEN_BOOKS_OTHER_DETAILS=0 turns
 * that off). This test found them drifting (issue 30 §1): a KST-20 token's circulating supply there counted only
 * that instance's own redemptions (seed 4, steps 2–4: Dave on B issues 158 P41, redeems 118, sends 32 to Bob on
 * A; A said 158 circulate, the chain 40), and a KST-789 token's details there listed no serials (seed 3, steps
 * 1–4). Both now follow the chain (tokens/details.ts followSupply; serials seeded from the issue, lineage.ts).
 */
const OTHER_INSTANCE_DETAILS = process.env.TOKEN_BOOKS_OTHER_DETAILS !== '0';
/** How long an instance may take to book what the chain already shows (B polls the chain every second). */
const SETTLE_MS = 30_000;

/** A wallet of one of the two instances, or the outside key (no wallet: only lookup sees it). */
interface Party {
  name: string;
  org: Org | null;
  walletID: string;
  paymail: string;
  keys: WalletKeys | null;
  /** The outside party's one key. */
  key?: PrivateKey;
}

interface TokenModel {
  tokenId: string;
  symbol: string;
  nft: boolean;
  spt: number;
  supply: number;
  issuer: Party;
  /** Where the token was issued: its details are checked there (and on the other instance once it knows the token). */
  home: Org;
  redemptionPkh: string;
  redeemAddr: string;
  redeemed: number;
  /** Fungible: tokens per party name. */
  held: Map<string, number>;
  /** NFT: serial → holder's name, or null once redeemed. */
  serials: Map<number, string | null>;
  /** The instances whose books know the token: where it was issued, and where one of its wallets received it. */
  knownBy: Set<Org>;
}

/** A party's holding of one token, as each book writes it: tokens, and an NFT's serials. */
type Holding = { amount: number; sn: number[] };
type Holdings = Record<string, Record<string, Holding>>;

const fail = (what: string, r: { status: number; body: unknown }) => new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);

describe('token books property: random token moves between two instances keep wallets, supply and chain in agreement', () => {
  let a: Org;
  let b: Org;
  let parties: Party[];
  let outside: Party;
  let chain: ChainTokens;
  let swapsAnswer = false;
  const tokens: TokenModel[] = [];

  const walletOf = async (o: Org, name: string, paymailDomain: string): Promise<Party> => {
    const handle = name.toLowerCase();
    const walletID = await createOrgWallet(o, { walletTitle: name, paymail: handle, paymailActivate: true });
    const m = await call(o, 'GET', '/v1/mnemonic', { headers: { walletID, password: ADMIN.password } });
    assert.equal(m.status, 200, JSON.stringify(m.body));
    const address = (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address;
    const funded = await call(a, 'POST', '/chain/faucet', { body: { address, satoshis: 3_000_000 } });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    return {
      name,
      org: o,
      walletID,
      paymail: `${handle}@${paymailDomain}`,
      keys: new WalletKeys(m.body.data.mnemonic, m.body.data.derivationPath),
    };
  };

  before(async () => {
    ({ a, b } = await startPair({ paymailBetween: true }));
    parties = [
      await walletOf(a, 'Alice', 'a.test'),
      await walletOf(a, 'Bob', 'a.test'),
      await walletOf(b, 'Carol', 'b.test'),
      await walletOf(b, 'Dave', 'b.test'),
    ];
    const key = PrivateKey.fromRandom();
    outside = { name: 'Outside', org: null, walletID: '', paymail: '', keys: null, key };
    chain = new ChainTokens(a.host.url);
    // B polls the chain: wait until it has seen its wallets' coins before anything is sent from them.
    for (const p of parties.filter((x) => x.org === b)) {
      await untilValue(
        `${p.name} funded`,
        async () => (await call(b, 'GET', '/v1/balance', { headers: { walletID: p.walletID } })).body.data?.coins?.[0]?.balance,
        (v) => v === 3_000_000,
        SETTLE_MS,
      );
    }
    // Swaps join the sequences once they exist: the contract file, and routes that answer (not 410, not 404).
    if (existsSync(path.join(ROOT, 'shared', 'contracts', 'swaps.ts'))) {
      const probe = await call(a, 'POST', '/v1/offer', { headers: { walletID: parties[0].walletID }, body: { dataArray: [] } });
      swapsAnswer = probe.status !== 410 && probe.status !== 404;
    }
  });
  after(() => stopPair(a, b));

  // ---- the books: chain, model, instances ----------------------------------------------------------------

  /** Who holds a key hash: a party's derived key (grown on demand), the outside key, or null (a lost output). */
  const holderOf = (pkh: string): { party: Party; key: PrivateKey } | null => {
    if (outside.key && pkhOfKey(outside.key) === pkh) return { party: outside, key: outside.key };
    for (let round = 0; round < 4; round++) {
      for (const p of parties) {
        const k = p.keys!.get(pkh);
        if (k) return { party: p, key: k.key };
      }
      // Paymail receipts and issues take fresh receive addresses: derive further before calling it lost.
      for (const p of parties) p.keys!.more(60);
    }
    return null;
  };

  interface ChainBooks {
    read: Map<string, ChainToken>;
    holdings: Holdings;
    /** Per token: the party each unspent output belongs to, with the key that owns it. */
    outputs: Map<
      string,
      { party: Party; key: PrivateKey; satoshis: number; sn: number | null; txid: string; vout: number; owner: string }[]
    >;
  }

  const readChain = async (): Promise<ChainBooks> => {
    const read = new Map<string, ChainToken>();
    const holdings: Holdings = {};
    const outputs: ChainBooks['outputs'] = new Map();
    for (const t of tokens) {
      const c = await chain.read(t.tokenId);
      read.set(t.tokenId, c);
      assert.deepEqual(c.inflations, [], `${t.symbol}: transactions that made more tokens than they spent`);
      const list: NonNullable<ReturnType<ChainBooks['outputs']['get']>> = [];
      for (const o of c.unspent) {
        const h = holderOf(o.owner);
        assert.ok(h, `${t.symbol}: the output ${o.txid}:${o.vout} belongs to no wallet's key and not to the outside key (lost)`);
        list.push({ party: h.party, key: h.key, satoshis: o.satoshis, sn: o.sn, txid: o.txid, vout: o.vout, owner: o.owner });
        const by = (holdings[h.party.name] ??= {});
        const e = (by[t.tokenId] ??= { amount: 0, sn: [] });
        e.amount += o.satoshis / t.spt;
        if (o.sn !== null) e.sn.push(o.sn);
      }
      outputs.set(t.tokenId, list);
    }
    for (const by of Object.values(holdings)) for (const e of Object.values(by)) e.sn.sort((x, y) => x - y);
    return { read, holdings, outputs };
  };

  const modelHoldings = (): Holdings => {
    const h: Holdings = {};
    for (const t of tokens) {
      if (t.nft) {
        for (const [sn, who] of t.serials) {
          if (who === null) continue;
          const e = ((h[who] ??= {})[t.tokenId] ??= { amount: 0, sn: [] });
          e.amount += 1;
          e.sn.push(sn);
        }
      } else {
        for (const [who, n] of t.held) if (n > 0) (h[who] ??= {})[t.tokenId] = { amount: n, sn: [] };
      }
    }
    for (const by of Object.values(h)) for (const e of Object.values(by)) e.sn.sort((x, y) => x - y);
    return h;
  };

  const circulatingOf = (t: TokenModel) => t.supply - t.redeemed;

  /** What each instance should answer, from the chain: the same for every book. */
  const expectedAnswers = (c: ChainBooks) => {
    const balances: Record<string, Record<string, Holding>> = {};
    for (const p of parties) balances[p.name] = c.holdings[p.name] ?? {};
    const details: Record<string, unknown> = {};
    for (const t of tokens) {
      const outs = c.outputs.get(t.tokenId)!;
      const circulating = outs.reduce((n, o) => n + o.satoshis, 0) / t.spt;
      details[t.tokenId] = {
        circulatingSupply: circulating,
        ...(t.nft
          ? {
              serials: [...t.serials.keys()]
                .sort((x, y) => x - y)
                .map((sn) => {
                  const o = outs.find((x) => x.sn === sn);
                  return { sn, txid: o?.txid ?? null, vout: o?.vout ?? null, redeemed: !o };
                }),
            }
          : {}),
      };
    }
    // Lookup of each key holding tokens: per token at that address.
    const lookups: Record<string, Record<string, number>> = {};
    for (const t of tokens) {
      for (const o of c.outputs.get(t.tokenId)!) {
        const k = `${o.party.name}:${o.key.toAddress()}`;
        const e = (lookups[k] ??= {});
        e[t.tokenId] = (e[t.tokenId] ?? 0) + o.satoshis / t.spt;
      }
    }
    return { balances, details, lookups };
  };

  type Answers = ReturnType<typeof expectedAnswers>;

  /** What the instances answer now, in the shape of expectedAnswers. */
  const readAnswers = async (c: ChainBooks): Promise<Answers> => {
    const balances: Answers['balances'] = {};
    for (const p of parties) {
      // Every entry (-1): a wallet of a long run holds more tokens than a page's default 19.
      const r = await call(p.org!, 'GET', '/v1/balance', { headers: { walletID: p.walletID, maxResults: '-1' } });
      if (r.status !== 200) throw fail(`${p.name}'s balance`, r);
      const by: Record<string, Holding> = {};
      for (const coin of r.body.data.coins as { tokenId?: string; amount?: number; sn?: number[] }[]) {
        if (!coin.tokenId) continue;
        const t = tokens.find((x) => x.tokenId === coin.tokenId);
        if (!t) continue; // a token of another run of this file cannot be here: instances are fresh
        if ((coin.amount ?? 0) === 0) continue;
        by[coin.tokenId] = { amount: coin.amount ?? 0, sn: t.nft ? [...(coin.sn ?? [])].sort((x, y) => x - y) : [] };
      }
      balances[p.name] = by;
    }
    // Token details where the token was issued (and, with OTHER_INSTANCE_DETAILS, on the other instance once it
    // lists the token); the list (/v1/tokens) must say the same circulating supply as the details.
    const details: Answers['details'] = {};
    const listed = new Map<Org, Map<string, number>>();
    for (const o of [a, b]) {
      const r = await call(o, 'GET', '/v1/tokens');
      if (r.status !== 200) throw fail('the token list', r);
      listed.set(
        o,
        new Map((r.body.data.tokens as { tokenId: string; circulatingSupply: number }[]).map((x) => [x.tokenId, x.circulatingSupply])),
      );
    }
    for (const t of tokens) {
      for (const o of OTHER_INSTANCE_DETAILS ? [t.home, t.home === a ? b : a] : [t.home]) {
        if (o !== t.home && !listed.get(o)!.has(t.tokenId)) continue;
        const r = await call(o, 'GET', `/v1/token/${t.tokenId}`);
        if (r.status !== 200) throw fail(`${t.symbol}'s details`, r);
        const d = r.body.data as {
          circulatingSupply: number;
          serials?: { sn: number; txid: string | null; vout: number | null; redeemed: boolean }[];
        };
        const shown = {
          circulatingSupply: d.circulatingSupply,
          ...(t.nft ? { serials: (d.serials ?? []).map((s) => ({ sn: s.sn, txid: s.txid, vout: s.vout, redeemed: s.redeemed })) } : {}),
        };
        const where = o === a ? 'A' : 'B';
        const inList = listed.get(o)!.get(t.tokenId);
        // Each instance's answer must be the chain's: one key per instance only when they differ, so a diff says which.
        if (o === t.home) details[t.tokenId] = inList === d.circulatingSupply ? shown : { ...shown, listed: inList };
        else if (!isDeepStrictEqual(shown, details[t.tokenId]) || inList !== d.circulatingSupply)
          details[`${t.tokenId} on ${where}`] = { ...shown, listed: inList };
      }
    }
    const lookups: Answers['lookups'] = {};
    const keys = new Map<string, { party: Party; key: PrivateKey }>();
    for (const outs of c.outputs.values()) for (const o of outs) keys.set(`${o.party.name}:${o.key.toAddress()}`, o);
    for (const [k, { party, key }] of keys) {
      // A wallet's key is looked up on its own instance; the outside key on both (each must see its tokens).
      for (const o of party.org ? [party.org] : [a, b]) {
        const r = await call(o, 'POST', '/v1/lookup', { headers: { maxResults: '-1' }, body: { privateKey: key.toWif() } });
        if (r.status !== 200) throw fail(`lookup of ${k}`, r);
        const e: Record<string, number> = {};
        for (const coin of r.body.data.coins as { tokenId?: string; amount?: number; proven?: boolean }[]) {
          if (coin.tokenId && coin.proven !== false) e[coin.tokenId] = (e[coin.tokenId] ?? 0) + (coin.amount ?? 0);
        }
        const prev = lookups[k];
        if (prev && !isDeepStrictEqual(prev, e)) lookups[`${k} on ${o === a ? 'A' : 'B'}`] = e;
        else lookups[k] = e;
      }
    }
    return { balances, details, lookups };
  };

  // ---- the steps --------------------------------------------------------------------------------------

  interface Run {
    seed: number;
    rng: Rng;
    log: string[];
    chain: ChainBooks | null;
    issued: number;
  }

  const ok = (what: string, r: { status: number; body: any }) => {
    if (r.status !== 200 || (r.body.data?.errors?.length ?? 0) > 0) throw fail(what, r);
    return r.body.data;
  };

  /** An address of a party's to receive at (the outside party's one key, a wallet's next receive address). */
  const addressOf = async (p: Party): Promise<string> => {
    if (!p.org) return p.key!.toAddress();
    const r = await call(p.org, 'GET', '/v1/address', { headers: { walletID: p.walletID } });
    if (r.status !== 200) throw fail(`${p.name}'s address`, r);
    return r.body.data.address;
  };

  /** Where to send a party tokens: its paymail or an address (the outside party: its address). */
  const destination = async (run: Run, p: Party): Promise<{ to: string; how: string }> => {
    if (!p.org || run.rng.chance(0.5)) return { to: await addressOf(p), how: 'address' };
    return { to: p.paymail, how: 'paymail' };
  };

  const other = (run: Run, p: Party, withOutside: boolean) => {
    const pool = parties.filter((x) => x !== p);
    if (withOutside && run.rng.chance(0.1)) return outside;
    return run.rng.pick(pool);
  };

  const heldBy = (t: TokenModel, p: Party) => (t.nft ? [...t.serials].filter(([, w]) => w === p.name).length : (t.held.get(p.name) ?? 0));
  const move = (t: TokenModel, from: Party, to: Party, amount: number, sn?: number) => {
    if (to.org) t.knownBy.add(to.org);
    if (t.nft) t.serials.set(sn!, to.name);
    else {
      t.held.set(from.name, (t.held.get(from.name) ?? 0) - amount);
      t.held.set(to.name, (t.held.get(to.name) ?? 0) + amount);
    }
  };
  /** Holdings a party could move now: (token, holder) pairs with tokens. */
  const holdingsOf = (run: Run, seedTokens: TokenModel[]) =>
    seedTokens.flatMap((t) => parties.filter((p) => heldBy(t, p) > 0).map((p) => ({ t, p })));

  /** One of the holdings, either family as likely as the other (a fungible token has many more holders than a serial). */
  const pickHolding = <T extends { t: TokenModel }>(run: Run, list: T[]): T => {
    const nfts = list.filter((x) => x.t.nft);
    const fungible = list.filter((x) => !x.t.nft);
    return run.rng.pick(nfts.length && (!fungible.length || run.rng.chance(0.5)) ? nfts : fungible);
  };

  const issue = async (run: Run) => {
    const p = run.rng.pick(parties);
    const nft = run.rng.chance(0.5);
    const symbol = `P${run.seed.toString(36).toUpperCase()}${run.issued++}`.slice(0, 9);
    const supply = nft ? 2 + run.rng.int(3) : 20 + run.rng.int(200);
    const spt = run.rng.pick([1, 2, 3]);
    const data = nft ? Object.fromEntries(Array.from({ length: supply }, (_, i) => [String(i + 1), [`${symbol} #${i + 1}`]])) : undefined;
    const body = {
      name: `Prop ${symbol}`,
      protocolId: nft ? 'KST-789' : 'KST-20',
      symbol,
      tokenSupply: supply,
      satsPerToken: spt,
      decimals: 0,
      data,
    };
    const d = ok(`${p.name} issues ${symbol}`, await call(p.org!, 'POST', '/api/v1/issue', { headers: { walletID: p.walletID }, body }));
    const redemptionPkh = d.tokenId.split('-')[0] as string;
    const t: TokenModel = {
      tokenId: d.tokenId,
      symbol,
      nft,
      spt,
      supply,
      issuer: p,
      home: p.org!,
      redemptionPkh,
      redeemAddr: '',
      redeemed: 0,
      held: new Map(nft ? [] : [[p.name, supply]]),
      serials: new Map(Array.from({ length: nft ? supply : 0 }, (_, i) => [i + 1, p.name])),
      knownBy: new Set([p.org!]),
    };
    const details = await call(p.org!, 'GET', `/v1/token/${t.tokenId}`);
    t.redeemAddr = ok(`${symbol}'s details`, details).redeemAddr;
    assert.equal(pkhOfAddress(t.redeemAddr), redemptionPkh, 'the redemption address is the token id’s key hash');
    tokens.push(t);
    await chain.track(t.tokenId, d.issueTxid, nft);
    return `${p.name} issues ${supply} ${symbol} (${nft ? 'KST-789' : 'KST-20'}, ${spt} sat/token)`;
  };

  const send = async (run: Run, seedTokens: TokenModel[]) => {
    const { t, p } = pickHolding(run, holdingsOf(run, seedTokens));
    const to = other(run, p, true);
    // To the issuer, sometimes at the redemption address itself (where its tokens can be redeemed from).
    const dest =
      to === t.issuer && !t.nft && run.rng.chance(0.5) ? { to: t.redeemAddr, how: 'redemption address' } : await destination(run, to);
    if (t.nft) {
      const sn = run.rng.pick([...t.serials].filter(([, w]) => w === p.name).map(([s]) => s));
      ok(
        'send',
        await call(p.org!, 'POST', '/v1/send', {
          headers: { walletID: p.walletID },
          body: { dataArray: [{ to: dest.to, tokenId: t.tokenId, sn }] },
        }),
      );
      move(t, p, to, 1, sn);
      return `${p.name} sends ${t.symbol} #${sn} to ${to.name} by ${dest.how}`;
    }
    const amount = 1 + run.rng.int(heldBy(t, p));
    ok(
      'send',
      await call(p.org!, 'POST', '/v1/send', {
        headers: { walletID: p.walletID },
        body: { dataArray: [{ to: dest.to, tokenId: t.tokenId, amount }] },
      }),
    );
    move(t, p, to, amount);
    return `${p.name} sends ${amount} ${t.symbol} to ${to.name} by ${dest.how}`;
  };

  /** Several recipients in one batch, each its own transaction: outputs split, later items may merge first. */
  const split = async (run: Run, seedTokens: TokenModel[]) => {
    const { t, p } = run.rng.pick(holdingsOf(run, seedTokens).filter((x) => !x.t.nft && heldBy(x.t, x.p) >= 2));
    let left = heldBy(t, p);
    const items: { to: Party; dest: { to: string; how: string }; amount: number }[] = [];
    for (let i = 0, n = 2 + run.rng.int(2); i < n && left > 0; i++) {
      const to = other(run, p, false);
      const amount = 1 + run.rng.int(Math.max(1, Math.floor(left / 2)));
      items.push({ to, dest: await destination(run, to), amount });
      left -= amount;
    }
    ok(
      'split',
      await call(p.org!, 'POST', '/v1/send', {
        headers: { walletID: p.walletID },
        body: { dataArray: items.map((x) => ({ to: x.dest.to, tokenId: t.tokenId, amount: x.amount })) },
      }),
    );
    for (const x of items) move(t, p, x.to, x.amount);
    return `${p.name} splits ${t.symbol}: ${items.map((x) => `${x.amount} to ${x.to.name} by ${x.dest.how}`).join(', ')}`;
  };

  /** A send larger than the holder's largest output: it needs two (or more) of them merged. */
  const merge = async (run: Run, c: ChainBooks, seedTokens: TokenModel[]) => {
    const pick = run.rng.pick(
      holdingsOf(run, seedTokens).filter((x) => !x.t.nft && c.outputs.get(x.t.tokenId)!.filter((o) => o.party === x.p).length >= 2),
    );
    const { t, p } = pick;
    const mine = c.outputs
      .get(t.tokenId)!
      .filter((o) => o.party === p)
      .map((o) => o.satoshis / t.spt);
    const largest = Math.max(...mine);
    const amount = largest + 1 + run.rng.int(heldBy(t, p) - largest);
    const to = other(run, p, false);
    const dest = await destination(run, to);
    ok(
      'merge',
      await call(p.org!, 'POST', '/v1/send', {
        headers: { walletID: p.walletID },
        body: { dataArray: [{ to: dest.to, tokenId: t.tokenId, amount }] },
      }),
    );
    move(t, p, to, amount);
    return `${p.name} sends ${amount} ${t.symbol} (largest output ${largest} of ${mine.length}) to ${to.name} by ${dest.how}`;
  };

  const redeemable = (c: ChainBooks, seedTokens: TokenModel[]) =>
    seedTokens.flatMap((t): { t: TokenModel; p: Party; sn: number | undefined; most: number }[] => {
      if (t.nft)
        return [...t.serials]
          .filter(([, w]) => w !== null && w !== outside.name)
          .map(([sn, w]) => ({ t, p: parties.find((x) => x.name === w)!, sn, most: 1 }));
      const most = c.outputs
        .get(t.tokenId)!
        .filter((o) => o.owner === t.redemptionPkh)
        .reduce((n, o) => n + o.satoshis / t.spt, 0);
      return most > 0 ? [{ t, p: t.issuer, sn: undefined, most }] : [];
    });

  const redeem = async (run: Run, c: ChainBooks, seedTokens: TokenModel[]) => {
    const { t, p, sn, most } = pickHolding(run, redeemable(c, seedTokens));
    const amount = t.nft ? 1 : 1 + run.rng.int(most);
    const item = t.nft ? { tokenId: t.tokenId, sn } : { tokenId: t.tokenId, amount };
    ok('redeem', await call(p.org!, 'POST', '/api/v1/redeem', { headers: { walletID: p.walletID }, body: { dataArray: [item] } }));
    if (t.nft) t.serials.set(sn!, null);
    else t.held.set(p.name, t.held.get(p.name)! - amount);
    t.redeemed += amount;
    return `${p.name} redeems ${t.nft ? `${t.symbol} #${sn}` : `${amount} ${t.symbol}`}`;
  };

  /**
   * SWAP STEP (issue 30 §2): the maker offers tokens for BSV; the taker (the same instance or the other)
   * takes the offer, or the maker withdraws it. Runs only when the swap routes answer (see before()).
   */
  const swap = async (run: Run, seedTokens: TokenModel[]) => {
    const { t, p } = pickHolding(run, holdingsOf(run, seedTokens));
    const sn = t.nft ? run.rng.pick([...t.serials].filter(([, w]) => w === p.name).map(([s]) => s)) : undefined;
    const amount = t.nft ? 1 : 1 + run.rng.int(heldBy(t, p));
    const what = t.nft ? `${t.symbol} #${sn}` : `${amount} ${t.symbol}`;
    const offered = t.nft ? { tokenId: t.tokenId, sn } : { tokenId: t.tokenId, tokenAmount: amount };
    // For another token the taker holds, when the maker's instance knows it (an NFT by serial too: an instance
    // that learned a token from the chain knows its serials from the issue). An offer for tokens is kept by
    // Keystead (exchangeOffer) and taken by a wallet of the same organisation (exchangeSwap): given out as hex,
    // a stranger could pay it with a look-alike.
    const wants = holdingsOf(run, seedTokens).filter((x) => x.t !== t && x.p !== p && x.p.org === p.org && x.t.knownBy.has(p.org!));
    const forToken = wants.length > 0 && run.rng.chance(0.4) ? run.rng.pick(wants) : null;
    let asked: Record<string, unknown> = { type: 'BSV', amount: '0.00001' };
    let wantedWhat = '1000 sat';
    let pay = (): void => undefined;
    if (forToken) {
      const u = forToken.t;
      const q = forToken.p;
      const wantedSn = u.nft ? run.rng.pick([...u.serials].filter(([, w]) => w === q.name).map(([s]) => s)) : undefined;
      // The taker pays from one output of the wanted token (the swap says so: gather them first).
      const largest = Math.max(
        0,
        ...run
          .chain!.outputs.get(u.tokenId)!
          .filter((o) => o.party === q)
          .map((o) => o.satoshis / u.spt),
      );
      const wantedAmount = u.nft ? 1 : 1 + run.rng.int(largest);
      asked = u.nft ? { wantedTokenId: u.tokenId, wantedSn } : { wantedTokenId: u.tokenId, wantedAmount };
      wantedWhat = u.nft ? `${u.symbol} #${wantedSn}` : `${wantedAmount} ${u.symbol}`;
      pay = () => move(u, q, p, wantedAmount, wantedSn);
    }
    const made = ok(
      `${p.name}'s offer ${JSON.stringify({ ...offered, ...asked })}`,
      await call(p.org!, 'POST', forToken ? '/v1/exchangeOffer' : '/v1/offer', {
        headers: { walletID: p.walletID },
        body: { dataArray: [{ ...offered, ...asked }] },
      }),
    );
    const offer = made.offers[0] as { offerId: string; swapHex: string };
    if (!forToken && run.rng.chance(0.25)) {
      ok(
        'withdraw',
        await call(p.org!, 'POST', '/v1/withdrawOffer', { headers: { walletID: p.walletID }, body: { offerId: offer.offerId } }),
      );
      return `${p.name} offers ${what} for ${wantedWhat}, then withdraws the offer`;
    }
    const taker = forToken ? forToken.p : other(run, p, false);
    ok(
      `${taker.name} takes ${p.name}'s offer of ${what} for ${wantedWhat}`,
      forToken
        ? await call(taker.org!, 'POST', '/v1/exchangeSwap', {
            headers: { walletID: taker.walletID },
            body: { dataArray: [{ swapId: offer.offerId }] },
          })
        : await call(taker.org!, 'POST', '/v1/swap', {
            headers: { walletID: taker.walletID },
            body: { dataArray: [{ swapHex: offer.swapHex }] },
          }),
    );
    move(t, p, taker, amount, sn);
    pay();
    return `${p.name} offers ${what} for ${wantedWhat}; ${taker.name} takes it`;
  };

  // ---- the check after each step -------------------------------------------------------------------------

  const check = async (run: Run) => {
    const replay = `seed ${run.seed} (replay: TOKEN_BOOKS_SEED=${run.seed}); steps:\n  ${run.log.join('\n  ')}`;
    const c = await readChain();
    run.chain = c;
    // The chain against the model: who holds what, and what is left in circulation.
    assert.deepEqual(c.holdings, modelHoldings(), `the chain's holdings are not the moves made; ${replay}`);
    for (const t of tokens) {
      const onChain = c.outputs.get(t.tokenId)!.reduce((n, o) => n + o.satoshis, 0) / t.spt;
      assert.equal(
        onChain,
        circulatingOf(t),
        `${t.symbol}: on chain ${onChain} circulate, issued ${t.supply} − redeemed ${t.redeemed}; ${replay}`,
      );
      assert.equal(c.read.get(t.tokenId)!.dissolved / t.spt, t.redeemed, `${t.symbol}: the chain dissolved what was redeemed; ${replay}`);
      if (t.nft)
        assert.deepEqual(
          c.read.get(t.tokenId)!.redeemedSerials,
          [...t.serials]
            .filter(([, w]) => w === null)
            .map(([sn]) => sn)
            .sort((x, y) => x - y),
          `${t.symbol}: redeemed serials; ${replay}`,
        );
    }
    // Every instance's answers against the chain (B books what it polls: it may take a moment).
    const expected = expectedAnswers(c);
    let last: Answers | undefined;
    try {
      await untilValue(
        'the instances to book what the chain shows',
        async () => (last = await readAnswers(c)),
        (v) => isDeepStrictEqual(v, expected),
        SETTLE_MS,
      );
    } catch (err) {
      if (!last) throw err;
      assert.deepEqual(last, expected, `the instances' books are not the chain's after ${SETTLE_MS} ms; ${replay}`);
    }
  };

  /** The instances' last logged errors (an INTERNAL answer's cause is only in the server log). */
  const serverErrors = () => {
    const lines = [a, b].flatMap((o, i) =>
      (o.host.stdout() + o.host.stderr())
        .split('\n')
        .filter((l) => l.includes('"level":50'))
        .slice(-2)
        .map((l) => `  ${i ? 'B' : 'A'}: ${l.slice(0, 600)}`),
    );
    return lines.length ? `server errors:\n${lines.join('\n')}\n` : '';
  };

  const step = async (run: Run, seedTokens: () => TokenModel[]) => {
    const c = run.chain!;
    const mine = seedTokens();
    const held = holdingsOf(run, mine);
    const options: [string, number, () => Promise<string>][] = [
      ['issue', mine.length < 2 ? 100 : 8, () => issue(run)],
      ['send', held.length ? 30 : 0, () => send(run, mine)],
      ['split', held.some((x) => !x.t.nft && heldBy(x.t, x.p) >= 2) ? 12 : 0, () => split(run, mine)],
      [
        'merge',
        held.some((x) => !x.t.nft && c.outputs.get(x.t.tokenId)!.filter((o) => o.party === x.p).length >= 2) ? 14 : 0,
        () => merge(run, c, mine),
      ],
      ['redeem', redeemable(c, mine).length ? 12 : 0, () => redeem(run, c, mine)],
      ['swap', swapsAnswer && held.length ? 14 : 0, () => swap(run, mine)],
    ];
    const total = options.reduce((n, [, w]) => n + w, 0);
    let r = run.rng.next() * total;
    const [name, , go] = options.find(([, w]) => (r -= w) < 0) ?? options[0];
    try {
      run.log.push(await go());
    } catch (err) {
      throw new Error(
        `step ${run.log.length + 1} (${name}) failed: ${(err as Error).message}\n${serverErrors()}seed ${run.seed} (replay: TOKEN_BOOKS_SEED=${run.seed}); steps before it:\n  ${run.log.join('\n  ')}`,
        { cause: err },
      );
    }
    // Some steps are mined, some stay in the mempool: neither may change the books.
    if (run.rng.chance(0.3)) assert.equal((await call(a, 'POST', '/chain/mine', { body: {} })).status, 200);
    await check(run);
  };

  for (const seed of SEEDS) {
    it(`seed ${seed}: ${STEPS} random token moves; after each, every wallet's tokens, each token's circulating supply and the chain agree`, async (ctx) => {
      const run: Run = { seed, rng: new Rng(seed), log: [], chain: null, issued: 0 };
      const first = tokens.length;
      await check(run);
      for (let i = 0; i < STEPS; i++) await step(run, () => tokens.slice(first));
      ctx.diagnostic(`seed ${seed}${swapsAnswer ? '' : ' (no swap steps: the swap routes do not answer)'}: ${run.log.join('; ')}`);
    });
  }
});

import { Hash, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { KST_RELEASES } from '../../main/engine/token-templates/kst.js';
import { tokenIdOf } from '../../main/engine/token-templates/template.js';
import { compressedPub, derivePath, masterFromSeed, seedFromMnemonic } from './bip32-oracle.js';
import { request } from './http.js';

/**
 * Token books read off the chain alone, to hold a wallet's books against: the embedded node's WhatsOnChain
 * face (raw transactions and spent-by answers), the open template's parser (every release), and keys the
 * test derives itself from each wallet's recovery phrase (bip32-oracle, not the engine's derivation).
 */

/** One unspent token output as the chain has it. `sn`: an NFT's serial (its issue output's index + 1). */
export interface ChainTokenOutput {
  txid: string;
  vout: number;
  tokenId: string;
  /** The owner's key hash, hex. */
  owner: string;
  satoshis: number;
  sn: number | null;
}

/** What the chain says of one token: its unspent outputs, and the serials dissolved (NFT) or satoshis redeemed. */
export interface ChainToken {
  unspent: ChainTokenOutput[];
  redeemedSerials: number[];
  /** Satoshis of the token's outputs spent by transactions that made fewer of them (redemptions). */
  dissolved: number;
  /** Transactions that made more of the token than they spent: must never be found. */
  inflations: string[];
}

const recognise = (script: string) => {
  for (const t of KST_RELEASES) {
    const r = t.parse(script);
    if (r) return r;
  }
  return null;
};

interface Tracked {
  nft: boolean;
  /** Live (last seen unspent) outputs, by outpoint. */
  live: Map<string, ChainTokenOutput>;
  redeemedSerials: number[];
  dissolved: number;
  inflations: string[];
  spenders: Set<string>;
}

const at = (txid: string, vout: number) => `${txid}:${vout}`;

export class ChainTokens {
  private readonly txs = new Map<string, Transaction>();
  private readonly tokens = new Map<string, Tracked>();

  /** `base`: the instance whose embedded node is the chain. */
  constructor(private readonly base: string) {}

  async tx(txid: string): Promise<Transaction> {
    const known = this.txs.get(txid);
    if (known) return known;
    const r = await request<string>(this.base, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`);
    if (r.status !== 200) throw new Error(`the chain has no transaction ${txid}: ${r.status} ${JSON.stringify(r.body)}`);
    const tx = Transaction.fromHex(String(r.body));
    this.txs.set(txid, tx);
    return tx;
  }

  private async spender(txid: string, vout: number): Promise<string | null> {
    const r = await request<{ txid: string }>(this.base, 'GET', `/chain/woc/v1/bsv/local/tx/${txid}/${vout}/spent`);
    if (r.status === 404) return null;
    if (r.status !== 200) throw new Error(`spent-by ${txid}:${vout}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.txid;
  }

  /** The token's outputs of a transaction (an NFT's serial carried from `sn`, or its issue output's index + 1). */
  private outputsOf(tx: Transaction, txid: string, tokenId: string, sn: (vout: number) => number | null): ChainTokenOutput[] {
    const out: ChainTokenOutput[] = [];
    tx.outputs.forEach((o, vout) => {
      const r = recognise(o.lockingScript.toHex());
      if (r && tokenIdOf(r) === tokenId) out.push({ txid, vout, tokenId, owner: r.owner, satoshis: o.satoshis ?? 0, sn: sn(vout) });
    });
    return out;
  }

  /** Starts following a token from its issue transaction. */
  async track(tokenId: string, issueTxid: string, nft: boolean): Promise<void> {
    const issue = await this.tx(issueTxid);
    const outs = this.outputsOf(issue, issueTxid, tokenId, (vout) => (nft ? vout + 1 : null));
    if (!outs.length) throw new Error(`the issue ${issueTxid} holds no output of ${tokenId}`);
    this.tokens.set(tokenId, {
      nft,
      live: new Map(outs.map((o) => [at(o.txid, o.vout), o])),
      redeemedSerials: [],
      dissolved: 0,
      inflations: [],
      spenders: new Set(),
    });
  }

  /** How many satoshis of the token a transaction spends (its inputs that are the token's outputs). */
  private async spentOf(tx: Transaction, tokenId: string): Promise<number> {
    let n = 0;
    for (const input of tx.inputs) {
      const parent = await this.tx(input.sourceTXID!);
      const o = parent.outputs[input.sourceOutputIndex];
      const r = o ? recognise(o.lockingScript.toHex()) : null;
      if (r && tokenIdOf(r) === tokenId) n += o.satoshis ?? 0;
    }
    return n;
  }

  /** Follows each live output through the transactions that spent it, to the token's unspent outputs now. */
  async read(tokenId: string): Promise<ChainToken> {
    const t = this.tokens.get(tokenId);
    if (!t) throw new Error(`${tokenId} is not tracked`);
    for (let moved = true; moved;) {
      moved = false;
      for (const [key, o] of [...t.live]) {
        const by = await this.spender(o.txid, o.vout);
        if (!by) continue;
        moved = true;
        t.live.delete(key);
        const tx = await this.tx(by);
        // The spending transaction's own token outputs (an NFT's serial goes with it to its one output).
        const next = this.outputsOf(tx, by, tokenId, () => o.sn);
        if (t.nft && next.length === 0) t.redeemedSerials.push(o.sn!);
        if (t.spenders.has(by)) continue; // a merge: its outputs were taken with its other input
        t.spenders.add(by);
        for (const n of next) t.live.set(at(n.txid, n.vout), n);
        const made = next.reduce((s, n) => s + n.satoshis, 0);
        const spent = await this.spentOf(tx, tokenId);
        if (made > spent) t.inflations.push(by);
        t.dissolved += spent - made;
      }
    }
    return {
      unspent: [...t.live.values()].sort((x, y) => (x.txid + x.vout).localeCompare(y.txid + y.vout)),
      redeemedSerials: [...t.redeemedSerials].sort((x, y) => x - y),
      dissolved: t.dissolved,
      inflations: [...t.inflations],
    };
  }
}

/** A key the test derived itself, with its key hash. */
export interface DerivedKey {
  key: PrivateKey;
  pkh: string;
  path: string;
}

export const pkhOfAddress = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);
export const pkhOfKey = (k: PrivateKey) => Utils.toHex(Hash.hash160(k.toPublicKey().encode(true) as number[]));

/**
 * A wallet's keys on its receive (0) and change (1) chains, derived from its recovery phrase and account path
 * by the independent BIP32 oracle: `count` per chain, grown on demand (`more`).
 */
export class WalletKeys {
  private readonly account: ReturnType<typeof masterFromSeed>;
  private readonly byPkh = new Map<string, DerivedKey>();
  private derived = 0;

  constructor(mnemonic: string, accountPath: string, count = 60) {
    this.account = derivePath(masterFromSeed(seedFromMnemonic(mnemonic)), accountPath.replace(/h/g, "'"));
    this.more(count);
  }

  /** Derives `n` more keys on each chain. */
  more(n: number): void {
    for (let idx = this.derived; idx < this.derived + n; idx++) {
      for (const chain of [0, 1]) {
        const node = derivePath(this.account, `m/${chain}/${idx}`);
        const pkh = Utils.toHex(Hash.hash160([...compressedPub(node.key)]));
        this.byPkh.set(pkh, { key: new PrivateKey(node.key.toString('hex'), 16), pkh, path: `${chain}/${idx}` });
      }
    }
    this.derived += n;
  }

  get(pkh: string): DerivedKey | undefined {
    return this.byPkh.get(pkh);
  }

  get count(): number {
    return this.derived;
  }
}

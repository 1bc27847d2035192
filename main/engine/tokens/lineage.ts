import { Transaction } from '@bsv/sdk';
import { nodesAccepted } from '../../chain/node-acceptance.js';
import type { ChainProvider } from '../../chain/types.js';
import type { CoreServices, Repos, TransactionServices } from '../context.js';
import { readTokenSchema, tokenRowFromSchema } from './schema.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import { tokenIdOf, type TokenScript } from '../token-templates/template.js';
import { hexUtf8 } from '../token-templates/script-bytes.js';

/** How many transactions back a lineage is traced before giving up for now (it is tried again later). */
export const MAX_LINEAGE = 2_000;

export interface LineageServices extends Pick<CoreServices, 'now' | 'logger'>, TransactionServices {
  repos: Pick<Repos, 'tokens'>;
  chain: ChainProvider;
}

type Proof = { valid: boolean; sn: number | null };

/** A held token output whose lineage was just decided. */
export interface DecidedOutput {
  txid: string;
  vout: number;
  walletRow: number;
  tokenId: string;
  valid: boolean;
}

/**
 * Proves a token output the wallets received: its chain of token transactions (input 0, and input 1 in a
 * merge, being outputs of the same token) must lead back to an issue, a transaction whose input 0 spends a
 * contract output `P2PKH(redemption key hash) OP_RETURN <schema>`, which only the issuer's key can spend.
 * Anyone can write a token script with the right id; only this lineage makes it a token. Results are kept
 * (token_proofs), so each transaction is fetched once. NFT serial numbers are found on the way: an NFT's
 * serial is its position among the token's outputs in the issue.
 */
export class TokenValidator {
  private running: Promise<void> | null = null;
  private again = false;
  private readonly txs = new Map<string, Transaction>();

  /**
   * `onDecided` is told of the held outputs each run decided (proven or forged), after they are stored: a
   * receipt is announced, and its history row says what it received, only once its tokens are proven.
   */
  constructor(
    private readonly services: LineageServices,
    private readonly templates: TemplateRegistry,
    private readonly onDecided: ((decided: DecidedOutput[]) => void) | null = null,
  ) {}

  /** Proves every unchecked output the wallets hold; a call during a run gets one more run after it. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.proveAll().finally(() => {
      this.running = null;
      this.txs.clear();
      if (this.again) {
        this.again = false;
        void this.run();
      }
    });
    return this.running;
  }

  private async proveAll(): Promise<void> {
    const { repos } = this.services;
    const decided: DecidedOutput[] = [];
    let unchecked;
    try {
      unchecked = repos.tokens.unchecked();
    } catch (err) {
      // The books cannot be read (the engine is closing): nothing is decided, and the next run tries again.
      this.services.logger.warn({ err: (err as Error).message }, 'the token outputs to prove could not be read');
      return;
    }
    for (const u of unchecked) {
      const r = this.templates.recognise(u.script);
      if (!r) continue;
      try {
        const proof = await this.prove(u.txid, u.vout, r.token);
        if (!proof) continue; // not decided yet (the chain could not be asked, or the lineage is too long)
        this.services.db.transaction(() => {
          repos.tokens.setValidity(u.txid, u.vout, proof.valid ? 'valid' : 'forged', proof.sn);
          if (proof.valid && proof.sn !== null) repos.tokens.moveSerial(u.tokenId, proof.sn, u.txid, u.vout);
        })();
        decided.push({ txid: u.txid, vout: u.vout, walletRow: u.walletRow, tokenId: u.tokenId, valid: proof.valid });
        if (!proof.valid)
          this.services.logger.warn(
            { txid: u.txid, vout: u.vout, tokenId: u.tokenId },
            'a received token output does not trace back to its issue: it is not counted',
          );
      } catch (err) {
        this.services.logger.warn({ txid: u.txid, err: (err as Error).message }, 'tracing a token output failed; it is tried again later');
      }
    }
    if (decided.length) {
      try {
        this.onDecided?.(decided);
      } catch (err) {
        this.services.logger.warn({ err: (err as Error).message }, 'announcing proven token outputs failed');
      }
    }
  }

  /**
   * Whether any token output (held by anyone: a looked-up key's) traces back to its issue, tracing at most
   * `budget` transactions: true or false once decided (kept in token_proofs), null when it cannot be decided now.
   */
  async proveOutput(txid: string, vout: number, script: string, budget = 200): Promise<boolean | null> {
    const r = this.templates.recognise(script);
    if (!r) return false;
    try {
      return (await this.prove(txid, vout, r.token, { left: budget }, false))?.valid ?? null;
    } catch (err) {
      this.services.logger.warn({ txid, err: (err as Error).message }, 'tracing a token output failed');
      return null;
    } finally {
      if (!this.running) this.txs.clear();
    }
  }

  private async tx(txid: string): Promise<Transaction | null> {
    const cached = this.txs.get(txid);
    if (cached) return cached;
    const hex = await this.services.chain.getTransactionHex(txid);
    if (!hex) return null;
    const tx = Transaction.fromHex(hex);
    this.txs.set(txid, tx);
    return tx;
  }

  /** Walks back from an output to its issue; null when it cannot be decided now. */
  /**
   * `held`: the output is on the books, so its transaction is one a node took or a block holds, and every
   * ancestor fetched by the txid its child names is that very transaction. From an output that is not (a
   * looked-up key's, an offer's), the whole lineage may be an indexer's invention: it decides nothing it is
   * not the cause of, but learns the token's schema only from an issue a node of the network vouches for.
   */
  private async prove(txid: string, vout: number, token: TokenScript, budget = { left: MAX_LINEAGE }, held = true): Promise<Proof | null> {
    const { repos } = this.services;
    const tokenId = tokenIdOf(token);
    const path: { txid: string; vout: number }[] = [];
    let cur = { txid, vout };
    let result: Proof | null = null;
    while (!result) {
      const known = repos.tokens.proof(cur.txid, cur.vout) ?? this.heldProof(cur.txid, cur.vout, tokenId);
      if (known) {
        result = known;
        break;
      }
      if (budget.left-- <= 0) return null;
      path.push(cur);
      const tx = await this.tx(cur.txid);
      const out = tx?.outputs[cur.vout];
      const here = out ? this.templates.recognise(out.lockingScript.toHex()) : null;
      if (!tx || !out) return null;
      if (!here || tokenIdOf(here.token) !== tokenId) {
        result = { valid: false, sn: null };
        break;
      }
      const input0 = tx.inputs[0];
      const parent = input0?.sourceTXID ? await this.tx(input0.sourceTXID) : null;
      const source = parent?.outputs[input0.sourceOutputIndex];
      if (!parent || !source) return null;
      const sourceScript = source.lockingScript.toHex();
      // The inputs spending outputs of this token: input 0 of a transfer, the first two of a merge, either of
      // a swap (the offered tokens, or the taker's paying for an offer). Token inputs are never further on.
      const tokenInputs = await this.tokenInputs(tx, tokenId);
      if (tokenInputs === null) return null;
      if (tokenInputs.length) {
        // Conservation: the outputs of this token may not hold more than its inputs. Counted in output order,
        // so the outputs up to this one must fit in what the inputs hold; those past it are forged. Output 0
        // (what a swap's maker asked for, committed by its signature) is always counted first.
        if (this.outputsUpTo(tx, tokenId, cur.vout) > tokenInputs.reduce((n, i) => n + i.satoshis, 0)) {
          result = { valid: false, sn: null };
          break;
        }
        let forged = false;
        for (const other of tokenInputs.slice(1)) {
          const proof = await this.prove(other.txid, other.vout, other.token, budget, held);
          if (!proof) return null;
          if (!proof.valid) forged = true;
        }
        if (forged) {
          result = { valid: false, sn: null };
          break;
        }
        cur = { txid: tokenInputs[0].txid, vout: tokenInputs[0].vout };
        continue;
      }
      result = await this.issuance(tx, cur.vout, token, tokenId, sourceScript, input0.sourceTXID!, held);
    }
    // A valid lineage whose token the books could not learn (an issue no node vouched for) is not kept: a later
    // trace of an output we hold must reach the issue again, and learn the token there.
    if (held || !result.valid || repos.tokens.get(tokenId)) {
      this.services.db.transaction(() => {
        for (const p of path) repos.tokens.putProof(p.txid, p.vout, tokenId, result!.sn, result!.valid);
      })();
    }
    return result;
  }

  /** The token inputs' outputs that are of this token, with their values; null when a parent cannot be fetched. */
  private async tokenInputs(
    tx: Transaction,
    tokenId: string,
  ): Promise<{ txid: string; vout: number; satoshis: number; token: TokenScript }[] | null> {
    const found: { txid: string; vout: number; satoshis: number; token: TokenScript }[] = [];
    // Input 1 is a token input only when a funding input follows it (a merge, a token-for-token swap).
    for (const input of tx.inputs.slice(0, tx.inputs.length > 2 ? 2 : 1)) {
      if (!input.sourceTXID) continue;
      const parent = await this.tx(input.sourceTXID);
      const out = parent?.outputs[input.sourceOutputIndex];
      if (!parent || !out) return null;
      const r = this.templates.recognise(out.lockingScript.toHex());
      if (r && tokenIdOf(r.token) === tokenId)
        found.push({ txid: input.sourceTXID, vout: input.sourceOutputIndex, satoshis: out.satoshis ?? 0, token: r.token });
    }
    return found;
  }

  /** Satoshis of this token's outputs of a transaction, from output 0 to `vout` included. */
  private outputsUpTo(tx: Transaction, tokenId: string, vout: number): number {
    let total = 0;
    for (let i = 0; i <= vout && i < tx.outputs.length; i++) {
      const r = this.templates.recognise(tx.outputs[i].lockingScript.toHex());
      if (r && tokenIdOf(r.token) === tokenId) total += tx.outputs[i].satoshis ?? 0;
    }
    return total;
  }

  /** An output we hold that is already proven. */
  private heldProof(txid: string, vout: number, tokenId: string): Proof | null {
    const u = this.services.repos.tokens.utxo(txid, vout);
    return u && u.tokenId === tokenId && u.validity !== 'unchecked' ? { valid: u.validity === 'valid', sn: u.sn } : null;
  }

  /** The first token transaction of the lineage: valid only if its input 0 is the issuer's contract output. */
  private async issuance(
    tx: Transaction,
    vout: number,
    token: TokenScript,
    tokenId: string,
    sourceScript: string,
    contractTxid: string,
    held: boolean,
  ): Promise<Proof> {
    const schema = readTokenSchema(sourceScript, token.redemption);
    if (!schema || schema.symbol !== token.symbol) return { valid: false, sn: null };
    const { repos, now } = this.services;
    if (!repos.tokens.get(tokenId) && (held || (await nodesAccepted(this.services.chain, tx.id('hex'))))) {
      repos.tokens.insert(
        tokenRowFromSchema(schema, {
          tokenId,
          protocol: schemaProtocol(schema.protocolId, token.protocol),
          redemptionPkh: token.redemption,
          contractTxid,
          issueTxid: tx.id('hex'),
          createdAt: now(),
        }),
      );
      // An NFT's serials as issued (each its place among the token's outputs, its data as text), so its
      // details here follow every serial on the chain as they do where it was issued.
      if (!token.splittable) {
        let n = 0;
        tx.outputs.forEach((o, i) => {
          const r = this.templates.recognise(o.lockingScript.toHex());
          if (r && tokenIdOf(r.token) === tokenId) repos.tokens.addSerial(tokenId, ++n, r.token.data.map(hexUtf8), tx.id('hex'), i);
        });
      }
    }
    // An NFT's serial: its place among this token's outputs in the issue.
    let sn: number | null = null;
    if (!token.splittable) {
      sn = 0;
      for (let i = 0; i <= vout; i++) {
        const r = this.templates.recognise(tx.outputs[i].lockingScript.toHex());
        if (r && tokenIdOf(r.token) === tokenId) sn++;
      }
    }
    return { valid: true, sn };
  }
}

const schemaProtocol = (declared: unknown, fromScript: string) =>
  typeof declared === 'string' && declared === fromScript ? declared : fromScript;

import { Transaction } from '@bsv/sdk';
import type { ChainProvider } from '../../chain/types.js';
import type { CoreServices, Repos, TransactionServices } from '../context.js';
import { readTokenSchema, tokenRowFromSchema } from './schema.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import { tokenIdOf, type TokenScript } from '../token-templates/template.js';

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
    for (const u of repos.tokens.unchecked()) {
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
  private async prove(txid: string, vout: number, token: TokenScript, budget = { left: MAX_LINEAGE }): Promise<Proof | null> {
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
      const prev = this.templates.recognise(sourceScript);
      if (prev && tokenIdOf(prev.token) === tokenId) {
        // A merge: the second token input must be proven too.
        const input1 = tx.inputs[1];
        const parent1 = input1?.sourceTXID && tx.inputs.length > 2 ? await this.tx(input1.sourceTXID) : null;
        const other = parent1?.outputs[input1.sourceOutputIndex];
        const otherToken = other ? this.templates.recognise(other.lockingScript.toHex()) : null;
        if (otherToken && tokenIdOf(otherToken.token) === tokenId) {
          const second = await this.prove(input1.sourceTXID!, input1.sourceOutputIndex, otherToken.token, budget);
          if (!second) return null;
          if (!second.valid) {
            result = { valid: false, sn: null };
            break;
          }
        }
        cur = { txid: input0.sourceTXID!, vout: input0.sourceOutputIndex };
        continue;
      }
      result = this.issuance(tx, cur.vout, token, tokenId, sourceScript, input0.sourceTXID!);
    }
    this.services.db.transaction(() => {
      for (const p of path) repos.tokens.putProof(p.txid, p.vout, tokenId, result!.sn, result!.valid);
    })();
    return result;
  }

  /** An output we hold that is already proven. */
  private heldProof(txid: string, vout: number, tokenId: string): Proof | null {
    const u = this.services.repos.tokens.utxo(txid, vout);
    return u && u.tokenId === tokenId && u.validity !== 'unchecked' ? { valid: u.validity === 'valid', sn: u.sn } : null;
  }

  /** The first token transaction of the lineage: valid only if its input 0 is the issuer's contract output. */
  private issuance(tx: Transaction, vout: number, token: TokenScript, tokenId: string, sourceScript: string, contractTxid: string): Proof {
    const schema = readTokenSchema(sourceScript, token.redemption);
    if (!schema || schema.symbol !== token.symbol) return { valid: false, sn: null };
    const { repos, now } = this.services;
    if (!repos.tokens.get(tokenId)) {
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

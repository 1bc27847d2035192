import { Hash, Utils, type Transaction } from '@bsv/sdk';
import { addressOfHash160 } from '../../chain/script.js';
import type { CoreServices, Repos } from '../context.js';
import { ownFee } from '../sync/own-fee.js';
import type { SideBooks } from '../sync/wallet-sync.js';
import type { TokenUtxo } from '../../store/repos/tokens.js';
import type { TemplateRegistry } from '../token-templates/registry.js';
import { p2pkhScript } from '../token-templates/script-bytes.js';
import { tokenIdOf } from '../token-templates/template.js';

export const addressOfPkh = addressOfHash160;

/**
 * The token books: which token outputs the organisation's wallets hold. Moved by the same transactions as
 * the coins (WalletSync calls it inside each booking): a recognised token output paying one of our
 * addresses is held; spending one marks it spent; a transaction that dissolves tokens records a
 * redemption. An output is `valid` at once when it comes from outputs we already proved (our own
 * transfers, our own issues), else `unchecked` until its lineage is traced (lineage.ts).
 */
export class TokenLedger implements SideBooks {
  /** `onUnchecked` is told when an output whose lineage must be traced joins the books. */
  constructor(
    private readonly services: Pick<CoreServices, 'now'> & {
      repos: Pick<Repos, 'tokens' | 'addresses' | 'walletTxs' | 'walletUtxos'> & Partial<Pick<Repos, 'wallets' | 'payments'>>;
    },
    private readonly templates: TemplateRegistry,
    private readonly onUnchecked: (() => void) | null = null,
  ) {}

  apply(tx: Transaction, txid: string, height: number | null): number[] {
    const { repos, now } = this.services;
    const touched = new Set<number>();
    const spent: (TokenUtxo | null)[] = tx.inputs.map((input) => {
      const prev = input.sourceTXID ?? input.sourceTransaction?.id('hex');
      const u = prev ? repos.tokens.utxo(prev, input.sourceOutputIndex) : null;
      if (!u || (u.spentBy !== null && u.spentBy !== txid)) return null;
      repos.tokens.markSpent(u.txid, u.vout, txid);
      touched.add(u.walletRow);
      return u;
    });
    const created = new Map<string, number>(); // token id → satoshis of its outputs in this transaction, whoever holds them
    tx.outputs.forEach((o, vout) => {
      const r = this.templates.recognise(o.lockingScript.toHex());
      if (!r) return;
      const tokenId = tokenIdOf(r.token);
      created.set(tokenId, (created.get(tokenId) ?? 0) + (o.satoshis ?? 0));
      const address = addressOfPkh(r.token.owner);
      const mine = repos.addresses.owner(address);
      if (!mine) {
        // An NFT of ours leaving the organisation: its serial is where this output is now (details follow it on from here).
        const sn = spent[0]?.tokenId === tokenId ? spent[0].sn : null;
        if (sn !== null) repos.tokens.moveSerial(tokenId, sn, txid, vout);
        return;
      }
      const origin = this.originOf(tx, spent, tokenId, vout);
      repos.tokens.insertUtxo(
        {
          txid,
          vout,
          tokenId,
          protocol: r.template.protocol,
          walletRow: mine.walletRow,
          address,
          chain: mine.chain,
          idx: mine.idx,
          satoshis: o.satoshis ?? 0,
          script: o.lockingScript.toHex(),
          sn: origin.sn,
          height,
          validity: origin.validity,
        },
        now(),
      );
      if (origin.sn !== null) repos.tokens.moveSerial(tokenId, origin.sn, txid, vout);
      if (origin.validity === 'unchecked') queueMicrotask(() => this.onUnchecked?.());
      repos.addresses.markUsed(mine.walletRow, address);
      touched.add(mine.walletRow);
    });
    this.recordRedemptions(txid, spent, created);
    // A transaction that moved only tokens for a wallet still gets its history row (0 satoshis), so it is
    // shown, and reconciled with the chain like every other: one that vanishes is undone, tokens and all.
    // A sender's row gets the fee and who paid it, and whom it sent to; a receiver's, who sent (the key
    // that unlocked the tokens; a paymail sender's host names it instead).
    const fee = ownFee(
      this.services.repos,
      tx,
      spent.map((s) => s?.satoshis ?? null),
    );
    for (const walletRow of touched) {
      const out = spent.some((u) => u?.walletRow === walletRow);
      const existing = repos.walletTxs.row(walletRow, txid);
      const from = out ? null : senderOf(tx);
      const counterparty = out
        ? this.recipientOf(tx, txid, walletRow, spent)
        : from && repos.addresses.owner(from)?.walletRow !== walletRow
          ? from
          : null;
      if (existing) {
        if (existing.state === 'seen' && (out ? existing.fee !== null && existing.counterparty !== null : existing.counterparty !== null))
          continue;
        repos.walletTxs.upsert({
          walletRow,
          txid,
          direction: existing.direction,
          amount: existing.amount,
          fee: out ? (existing.fee ?? fee?.fee ?? null) : existing.fee,
          feePaidBy: out ? (existing.feePaidBy ?? fee?.paidBy ?? null) : existing.feePaidBy,
          counterparty,
          memo: existing.memo,
          height: height ?? existing.height,
          time: existing.time,
        });
        continue;
      }
      repos.walletTxs.upsert({
        walletRow,
        txid,
        direction: out ? 'out' : 'in',
        amount: 0,
        fee: out ? (fee?.fee ?? null) : null,
        feePaidBy: out ? (fee?.paidBy ?? null) : null,
        counterparty,
        memo: this.describe(tx, walletRow, out),
        height,
        time: now(),
      });
    }
    // The fee manager's own row of a token transaction it funded: the fee it paid.
    const fmRow = fee?.paidBy === 'feeManager' ? repos.wallets?.feeManager()?.id : undefined;
    const fmTx = fmRow !== undefined ? repos.walletTxs.row(fmRow, txid) : undefined;
    if (fmRow !== undefined && fmTx && fmTx.fee === null)
      repos.walletTxs.upsert({
        walletRow: fmRow,
        txid,
        direction: fmTx.direction,
        amount: fmTx.amount,
        fee: fee!.fee,
        feePaidBy: 'feeManager',
        counterparty: fmTx.counterparty,
        memo: fmTx.memo,
        height: height ?? fmTx.height,
        time: fmTx.time,
      });
    return [...touched];
  }

  /**
   * Whom a wallet sent tokens to: the paymail or address its send named (the payment attempt keeps it), else
   * the owner of the first token output that is not the wallet's own, else (a redemption) the redemption address.
   */
  private recipientOf(tx: Transaction, txid: string, walletRow: number, spent: (TokenUtxo | null)[]): string | null {
    const { repos } = this.services;
    const attempt = repos.payments?.attemptFor(txid);
    if (attempt?.counterparty && attempt.walletRow === walletRow) return attempt.counterparty;
    for (const o of tx.outputs) {
      const r = this.templates.recognise(o.lockingScript.toHex());
      if (!r) continue;
      const owner = addressOfPkh(r.token.owner);
      if (repos.addresses.owner(owner)?.walletRow !== walletRow) return owner;
    }
    const token = spent.find((u) => u?.walletRow === walletRow);
    const redemption = token ? repos.tokens.get(token.tokenId)?.redemptionPkh : undefined;
    return redemption && tx.outputs.some((o) => o.lockingScript.toHex() === p2pkhScript(redemption)) ? addressOfPkh(redemption) : null;
  }

  /** "Received 120 PTS", "Tokens sent": what a token-only history row says. */
  private describe(tx: Transaction, walletRow: number, out: boolean): string {
    return out ? 'Tokens sent' : receiptMemo(this.services.repos, tx.id('hex'), walletRow);
  }

  /**
   * Where an output of ours comes from. Proven at once when the transaction spends only proven outputs of
   * the same token as its token inputs (input 0, and input 1 in a merge), or when it is an issue of ours
   * (its input 0 spends the contract output of a token we issued); otherwise its lineage is traced later.
   */
  private originOf(
    tx: Transaction,
    spent: (TokenUtxo | null)[],
    tokenId: string,
    vout: number,
  ): { validity: TokenUtxo['validity']; sn: number | null } {
    const { repos } = this.services;
    const first = spent[0];
    if (first && first.tokenId === tokenId) {
      const second = tx.inputs.length > 2 ? spent[1] : null;
      const secondIsToken = tx.inputs.length > 2 && !second && !this.isOurCoin(tx, 1);
      const valid = first.validity === 'valid' && (second ? second.tokenId === tokenId && second.validity === 'valid' : !secondIsToken);
      // A swap's outputs around its tokens are the taker's to write: outputs of this token holding more than
      // its inputs are never taken as proven here (lineage.ts decides them).
      const inputs = first.satoshis + (second?.tokenId === tokenId ? second.satoshis : 0);
      const conserved = this.tokenOutputsTotal(tx, tokenId) <= inputs;
      return { validity: valid && conserved ? 'valid' : 'unchecked', sn: first.sn };
    }
    const token = repos.tokens.get(tokenId);
    const input0 = tx.inputs[0];
    if (token && token.issuerWalletRow !== null && input0 && input0.sourceTXID === token.contractTxid && input0.sourceOutputIndex === 0) {
      const serial = repos.tokens.serials(tokenId).find((s) => s.txid === tx.id('hex') && s.vout === vout);
      return { validity: 'valid', sn: serial?.sn ?? null };
    }
    return { validity: 'unchecked', sn: null };
  }

  private tokenOutputsTotal(tx: Transaction, tokenId: string): number {
    let total = 0;
    for (const o of tx.outputs) {
      const r = this.templates.recognise(o.lockingScript.toHex());
      if (r && tokenIdOf(r.token) === tokenId) total += o.satoshis ?? 0;
    }
    return total;
  }

  private isOurCoin(tx: Transaction, index: number): boolean {
    const input = tx.inputs[index];
    return !!input?.sourceTXID && this.services.repos.walletUtxos.get(input.sourceTXID, input.sourceOutputIndex) !== null;
  }

  /** Token satoshis our outputs held that no output of the same token carries on: dissolved (redeemed). */
  private recordRedemptions(txid: string, spent: (TokenUtxo | null)[], created: Map<string, number>): void {
    const { repos } = this.services;
    const byToken = new Map<string, { satoshis: number; sn: number | null }>();
    for (const u of spent) {
      if (!u || u.validity !== 'valid') continue;
      const t = byToken.get(u.tokenId) ?? { satoshis: 0, sn: null };
      byToken.set(u.tokenId, { satoshis: t.satoshis + u.satoshis, sn: u.sn ?? t.sn });
    }
    for (const [tokenId, { satoshis, sn }] of byToken) {
      const burned = satoshis - (created.get(tokenId) ?? 0);
      const token = repos.tokens.get(tokenId);
      if (burned > 0 && token) repos.tokens.recordRedemption(txid, tokenId, Math.floor(burned / token.satsPerToken), sn);
    }
  }

  /** A redemption by someone else of a token we issued: it pays our redemption address (found by lineage.ts). */
  recordForeignRedemption(txid: string, tokenId: string, tokens: number, sn: number | null): void {
    if (tokens > 0) this.services.repos.tokens.recordRedemption(txid, tokenId, tokens, sn);
  }

  dependents(txid: string): string[] {
    return [...new Set(this.services.repos.tokens.outputsOf(txid).flatMap((u) => (u.spentBy ? [u.spentBy] : [])))];
  }

  revert(txid: string): void {
    const { repos } = this.services;
    const spentInputs = repos.tokens.spentBy(txid);
    repos.tokens.revert(txid);
    repos.tokens.revertRedemption(txid);
    // Serials go back where they were before this transaction moved them.
    for (const u of spentInputs) if (u.sn !== null) repos.tokens.moveSerial(u.tokenId, u.sn, u.txid, u.vout);
  }

  release(attempt: string): void {
    this.services.repos.tokens.release(attempt);
  }

  /** At start: token outputs reserved by a spend that never got signed and stored are free again. */
  releaseUnsigned(stored: (attempt: string) => boolean): void {
    for (const u of this.services.repos.tokens.reserved())
      // An open swap offer holds its output until it is taken or withdrawn (swaps/offers.ts).
      if (u.reservedBy && !u.reservedBy.startsWith('offer:') && !stored(u.reservedBy))
        this.services.repos.tokens.releaseOne(u.txid, u.vout);
  }

  confirm(txid: string, height: number): void {
    this.services.repos.tokens.confirm(txid, height);
  }
}

/** What a token receipt's history row says while its outputs are not yet traced back to their issue. */
export const UNPROVEN_RECEIPT_MEMO = 'Token outputs not yet traced back to their issue: not counted yet';
/** What it says once none of them traced back: look-alikes, not tokens. */
export const FORGED_RECEIPT_MEMO = 'Token look-alikes that do not trace back to their issue: not counted';

/**
 * What a wallet's history says it received in a transaction, from its token outputs: only proven outputs
 * are a receipt ("Received 120 PTS"); outputs still being traced, or found forged, are said to be so, so
 * a look-alike is never presented as tokens received (the same rule as balances).
 */
export function receiptMemo(repos: Pick<Repos, 'tokens'>, txid: string, walletRow: number): string {
  const mine = repos.tokens.outputsOf(txid).filter((u) => u.walletRow === walletRow);
  const valid = mine.filter((u) => u.validity === 'valid');
  const token = valid[0] ? repos.tokens.get(valid[0].tokenId) : null;
  if (token)
    return `Received ${Math.floor(valid.filter((u) => u.tokenId === token.tokenId).reduce((n, u) => n + u.satoshis, 0) / token.satsPerToken)} ${token.symbol}`;
  return mine.some((u) => u.validity === 'unchecked') ? UNPROVEN_RECEIPT_MEMO : FORGED_RECEIPT_MEMO;
}

/**
 * Who sent a transaction's tokens: the address of the key that unlocked its first input (the token templates,
 * like P2PKH, end their unlocking script with the owner's public key), or null when it has none.
 */
export function senderOf(tx: Transaction): string | null {
  const chunks = tx.inputs[0]?.unlockingScript?.chunks ?? [];
  const last = chunks[chunks.length - 1]?.data;
  if (!last || last.length !== 33 || (last[0] !== 2 && last[0] !== 3)) return null;
  return addressOfPkh(Utils.toHex(Hash.hash160(last)));
}

/** The P2PKH script of a redemption address, to tell a redemption output when one is seen. */
export const redemptionScript = (pkh: string) => p2pkhScript(pkh);

import { Hash, LockingScript, PublicKey, Signature, Transaction, TransactionSignature, Utils } from '@bsv/sdk';
import type { z } from 'zod';
import type { offeredSide, wantedSide } from '../../../shared/contracts/swaps.js';
import { amountText } from '../../../shared/amounts.js';
import { isStasProtocol } from '../../../shared/token-protocols.js';
import { DomainError } from '../../../shared/errors.js';
import { addressOfHash160, p2pkhAddressOf } from '../../chain/script.js';
import { SIGHASH_SINGLE_ACP_FORKID } from '../token-templates/kst-swap.js';
import { tokenIdOf, type TokenScript, type TokenTemplate } from '../token-templates/template.js';
import type { SwapServices } from './services.js';
import { utf8Hex } from '../token-templates/script-bytes.js';

export type Offered = z.infer<typeof offeredSide>;
export type Wanted = z.infer<typeof wantedSide>;

/** An offer read from its hex: what it gives and asks, and what was found wrong with it (hostile input). */
export interface ReadOffer {
  tx: Transaction;
  /** The offered output: where it is, its script and value, the template that wrote it and what it says. */
  source: { txid: string; vout: number; script: string; satoshis: number; sequence: number };
  template: TokenTemplate;
  token: TokenScript;
  makerPart: string;
  asked: { script: string; satoshis: number };
  /** The asked output read as a token (token for token), or null (BSV). */
  askedToken: { template: TokenTemplate; token: TokenScript } | null;
  offered: Offered;
  wanted: Wanted;
  makerAddress: string;
  problems: string[];
  /** Spent on the chain or in the books; null when neither can say. */
  spent: boolean | null;
}

const bad = (why: string) => new DomainError('VALIDATION_FAILED', `swapHex: ${why}`);

/** The output's script and value: from the books when they hold it, else from its transaction on the chain. */
async function sourceOutput(services: SwapServices, txid: string, vout: number): Promise<{ script: string; satoshis: number } | null> {
  const held = services.repos.tokens.utxo(txid, vout);
  if (held) return { script: held.script, satoshis: held.satoshis };
  const hex = await services.chain.getTransactionHex(txid).catch(() => null);
  if (!hex) return null;
  const out = Transaction.fromHex(hex).outputs[vout];
  return out ? { script: out.lockingScript.toHex(), satoshis: out.satoshis ?? 0 } : null;
}

/**
 * Tokens an output holds (an NFT output holds 1), or null when the books do not know the token's satoshis per
 * token: then how many tokens the satoshis are cannot be told, and the offer is not to be taken (a problem).
 */
function tokensOf(services: SwapServices, tokenId: string, satoshis: number, nft: boolean): number | null {
  if (nft) return 1;
  const row = services.repos.tokens.get(tokenId);
  return row && row.satsPerToken > 0 ? Math.floor(satoshis / row.satsPerToken) : null;
}

/** The serial of an NFT output, as the books or a proof know it. */
function serialOf(services: SwapServices, txid: string, vout: number): number | null {
  return services.repos.tokens.utxo(txid, vout)?.sn ?? services.repos.tokens.proof(txid, vout)?.sn ?? null;
}

/**
 * Reads an offer: one input (the offered token output, with the maker's part of its unlocking script) and
 * one output (what the maker asks for). Everything in it is the maker's word until checked here: the
 * output it spends is looked up (books, then chain), recognised by a template with a swap rule, and the
 * maker's signature is checked against that output's owner over SINGLE|ANYONECANPAY. Throws when it is not
 * an offer at all; lists `problems` when it is one that should not be taken.
 */
export async function readOffer(services: SwapServices, hex: string): Promise<ReadOffer> {
  let tx: Transaction;
  try {
    tx = Transaction.fromHex(hex);
  } catch {
    throw bad('is not a transaction');
  }
  if (tx.inputs.length !== 1 || tx.outputs.length !== 1)
    throw bad('an offer has exactly one input (the offered tokens) and one output (what is asked for)');
  const input = tx.inputs[0];
  const txid = input.sourceTXID!;
  const vout = input.sourceOutputIndex;
  const src = await sourceOutput(services, txid, vout);
  if (!src) throw new DomainError('NOT_FOUND', `swapHex: the offered output ${txid}:${vout} is not known to the books or the chain`);
  const seen = services.tokenTemplates.recognise(src.script);
  if (!seen) throw bad(`the offered output ${txid}:${vout} is not a token output`);
  const { template, token } = seen;
  const problems: string[] = [];
  if (!template.swap) problems.push(`${token.protocol} outputs of this release of the template cannot be swapped`);
  // The maker signs the offer's version and lock time; a taker's transaction is version 1 with lock time 0, so
  // any other would not check on chain (and would tie up the taker's coins until settled as refused).
  if (tx.version !== 1 || tx.lockTime !== 0) problems.push('the offer is not a version 1 transaction with lock time 0');
  const makerPart = input.unlockingScript?.toHex() ?? '';
  const sequence = input.sequence ?? 0xffffffff;
  if (template.swap && sequence !== template.swap.offerSequence) problems.push('the offered input does not carry the swap sequence');
  const maker = template.swap?.readOffer(makerPart) ?? null;
  if (!maker) problems.push("the offered input carries no maker's signature");
  else if (!signatureChecks(tx, src, maker, token.owner)) problems.push("the maker's signature does not check (or is not the owner's)");
  const asked = { script: tx.outputs[0].lockingScript.toHex(), satoshis: tx.outputs[0].satoshis ?? 0 };
  const askedToken = services.tokenTemplates.recognise(asked.script);
  const tokenId = tokenIdOf(token);
  const nft = !template.fungible;
  if (askedToken && tokenIdOf(askedToken.token) === tokenId) problems.push('the offer asks for the very token it offers');
  // Each family's script checks the swap's other token input by its own layout: a KST input cannot pay in a
  // STAS swap, nor the other way round.
  if (askedToken && isStasProtocol(askedToken.token.protocol) !== isStasProtocol(token.protocol))
    problems.push(`a ${token.protocol} offer cannot be paid in ${askedToken.token.protocol} tokens: a swap pairs tokens of one family`);
  const askedAddress = askedToken ? addressOfHash160(askedToken.token.owner) : p2pkhAddressOf(asked.script);
  if (!askedAddress) problems.push('the asked output pays neither an address nor a token owner');
  // A fungible token is asked for in whole tokens: a remainder would be paid on top of the amount shown.
  const askedRow = askedToken?.template.fungible ? services.repos.tokens.get(tokenIdOf(askedToken.token)) : null;
  if (askedRow && askedRow.satsPerToken > 1 && asked.satoshis % askedRow.satsPerToken !== 0)
    problems.push(
      `the offer asks for ${asked.satoshis} satoshis of ${askedRow.symbol}, not a whole number of tokens (${askedRow.satsPerToken} satoshis each)`,
    );
  // A forged look-alike must not be taken for tokens: the offered output must trace back to its issue.
  const valid = await services.tokenValidator.proveOutput(txid, vout, src.script);
  if (valid === false) problems.push('the offered tokens do not trace back to their issue (forged)');
  if (valid === null) problems.push('the offered tokens could not be traced back to their issue now');
  const spent = await spentState(services, txid, vout);
  if (spent) problems.push('the offered output is already spent (taken or withdrawn)');
  const offeredTokens = tokensOf(services, tokenId, src.satoshis, nft);
  const wantedTokens = askedToken ? tokensOf(services, tokenIdOf(askedToken.token), asked.satoshis, !askedToken.template.fungible) : null;
  // A token issued elsewhere whose issue no node vouched for here: its satoshis per token are the issuer's
  // word alone (tokens/lineage.ts), so the number of tokens shown would be the maker's to choose.
  if (offeredTokens === null)
    problems.push(
      `how many ${token.symbol} the offered ${src.satoshis} satoshis hold is not known here (the token's issue is not on the books)`,
    );
  if (askedToken && wantedTokens === null)
    problems.push(
      `how many ${askedToken.token.symbol} the asked ${asked.satoshis} satoshis hold is not known here (the token's issue is not on the books)`,
    );
  const offered: Offered = {
    protocol: token.protocol,
    tokenId,
    symbol: token.symbol,
    sn: nft ? serialOf(services, txid, vout) : null,
    amount: offeredTokens,
    satoshis: src.satoshis,
    txid,
    vout,
  };
  const wanted: Wanted = askedToken
    ? {
        type: 'token',
        amount: wantedTokens === null ? '' : String(wantedTokens),
        satoshis: asked.satoshis,
        protocol: askedToken.token.protocol,
        tokenId: tokenIdOf(askedToken.token),
        symbol: askedToken.token.symbol,
        sn: askedToken.template.fungible ? null : serialOfData(services, askedToken.token),
        tokenAmount: wantedTokens,
        to: askedAddress ?? '',
      }
    : {
        type: 'BSV',
        amount: amountText(asked.satoshis, 'BSV'),
        satoshis: asked.satoshis,
        protocol: null,
        tokenId: null,
        symbol: null,
        sn: null,
        tokenAmount: null,
        to: askedAddress ?? '',
      };
  return {
    tx,
    source: { txid, vout, script: src.script, satoshis: src.satoshis, sequence },
    template,
    token,
    makerPart,
    asked,
    askedToken,
    offered,
    wanted,
    makerAddress: addressOfHash160(token.owner),
    problems,
    spent,
  };
}

/**
 * An NFT serial named by its data: the serial of the books whose data it is. Null when no serial, or more
 * than one, carries that data: then any of them pays the offer, and none can be named.
 */
function serialOfData(services: SwapServices, token: TokenScript): number | null {
  const matching = serialsWithData(services, tokenIdOf(token), token.data);
  return matching.length === 1 ? matching[0] : null;
}

/** The serials of a token whose issued data is these bytes (the script carries bytes; the books keep the text). */
export function serialsWithData(services: Pick<SwapServices, 'repos'>, tokenId: string, dataHex: readonly string[]): number[] {
  const data = dataHex.join(',');
  return services.repos.tokens
    .serials(tokenId)
    .filter((s) => s.data.map(utf8Hex).join(',') === data)
    .map((s) => s.sn);
}

async function spentState(services: SwapServices, txid: string, vout: number): Promise<boolean | null> {
  const held = services.repos.tokens.utxo(txid, vout);
  if (held?.status === 'spent') return true;
  if (services.chain.getSpentBy) {
    const by = await services.chain.getSpentBy(txid, vout).catch(() => undefined);
    if (by !== undefined) return by !== null;
  }
  return held ? false : null;
}

/** The maker's SINGLE|ANYONECANPAY signature over its own input and output 0, by the output's owner. */
function signatureChecks(
  tx: Transaction,
  src: { script: string; satoshis: number },
  maker: { signature: string; publicKey: string },
  ownerPkh: string,
): boolean {
  try {
    const pub = PublicKey.fromString(maker.publicKey);
    if (Utils.toHex(Hash.hash160(pub.encode(true) as number[])) !== ownerPkh) return false;
    const sigBytes = Utils.toArray(maker.signature, 'hex');
    if (sigBytes[sigBytes.length - 1] !== SIGHASH_SINGLE_ACP_FORKID) return false;
    const input = tx.inputs[0];
    const preimage = TransactionSignature.format({
      sourceTXID: input.sourceTXID!,
      sourceOutputIndex: input.sourceOutputIndex,
      sourceSatoshis: src.satoshis,
      transactionVersion: tx.version,
      otherInputs: [],
      inputIndex: 0,
      outputs: tx.outputs,
      inputSequence: input.sequence ?? 0xffffffff,
      subscript: LockingScript.fromHex(src.script),
      lockTime: tx.lockTime,
      scope: SIGHASH_SINGLE_ACP_FORKID,
    });
    const sig = Signature.fromDER(sigBytes.slice(0, -1));
    return pub.verify(Hash.sha256(preimage), sig);
  } catch {
    return false;
  }
}

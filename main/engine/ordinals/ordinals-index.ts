/**
 * Where Keystead learns whether a 1Sat Ordinals output is what it claims. Two implementations:
 * - on the embedded local chain, Keystead's own index (it walks each output's history back to the token's
 *   deploy+mint through the chain provider's transactions and remembers what it proved);
 * - on the real network, a configurable 1Sat indexer (the public 1Sat API's routes), whose answers are
 *   checked against the transactions themselves wherever they allow it (the output really carries the
 *   inscription, id and amount the indexer names); what cannot be checked (the validity of the whole
 *   ancestry) is trusted and documented as such.
 * Callers treat every answer as a claim about a transaction they can fetch and parse themselves.
 */

/** A BSV-21 operation an output carries (BSV-21 specification: deploy+mint, transfer, burn). */
export interface Bsv21OutputFacts {
  /** The token id, `<txid>_<vout>` of its deploy+mint output. */
  id: string;
  op: 'deploy+mint' | 'transfer' | 'burn';
  /** Token amount in the token's smallest unit (the inscription's `amt`, an unsigned 64-bit integer). */
  amt: bigint;
  /** True: descends from the deploy+mint through valid transfers; false: invalid; null: not decided yet (pending). */
  valid: boolean | null;
}

/** A BSV-21 token's deploy facts, from its deploy+mint inscription. */
export interface Bsv21TokenFacts {
  id: string;
  sym: string | null;
  /** Decimal places for display (0–18). */
  dec: number;
  /** The whole supply minted by the deploy+mint output, smallest unit. */
  amt: bigint;
  /** An inscription id (`<txid>_<vout>`) of the token's icon, if it names one. */
  icon: string | null;
}

/** One unspent output an indexer says an address holds. */
export interface IndexedOutpoint {
  txid: string;
  vout: number;
}

export interface OrdinalsIndex {
  /** Which index answers: `local` (Keystead's own, on the embedded chain) or the indexer's base URL. */
  readonly source: string;
  /** The BSV-21 facts of one output, or null when it carries no BSV-21 operation. */
  bsv21Output(txid: string, vout: number): Promise<Bsv21OutputFacts | null>;
  /** A token's deploy facts, or null when `id` is not a deploy+mint output. */
  bsv21Token(id: string): Promise<Bsv21TokenFacts | null>;
  /** Unspent outputs carrying an inscription or a BSV-21 token at an address (lookup of keys and addresses). */
  ordinalOutputsOf(address: string): Promise<IndexedOutpoint[]>;
}

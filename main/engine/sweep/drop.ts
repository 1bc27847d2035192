import { type PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { DomainError } from '../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { hash160OfAddress, holderAddressOf } from '../../chain/script.js';
import type { BroadcastResult, ChainUtxo, FeePolicy } from '../../chain/types.js';
import type { OpContext } from '../context.js';
import { plainCoins } from '../payments/coin-select.js';
import { currentFeePolicy } from '../payments/plan.js';
import { p2pkhScript } from '../token-templates/script-bytes.js';
import { tokenIdOf } from '../token-templates/template.js';
import { buildTokenSpend } from '../tokens/build.js';
import { parsePrivateKey } from '../tokens/holdings.js';
import { resolveWallet } from '../wallets/resolve.js';
import type { SweepServices } from './services.js';
import { buildSweep, type KeyCoin } from './sweep-tx.js';

type Output = OutputOf<typeof OPERATIONS.drop>;

/** Transactions of the key's history read to find its token outputs, and coins spent by one BSV sweep transaction. */
const MAX_HISTORY = 500;
const MAX_INPUTS = 500;

const chainDown = (services: SweepServices, err: unknown) =>
  new DomainError('CHAIN_UNAVAILABLE', `The ${services.chain.network} provider did not answer: ${(err as Error).message}`);

/**
 * The token outputs the key holds: outputs of its history whose script the templates read and whose holder
 * is the key's address, less those its history spends (the chain lists token outputs in the holder's history,
 * not among its coins).
 */
async function tokenOutputsAt(services: SweepServices, address: string): Promise<ChainUtxo[]> {
  const history = await services.chain.getHistory(address);
  const found = new Map<string, ChainUtxo>();
  const spent = new Set<string>();
  for (const h of history.slice(-MAX_HISTORY)) {
    const hex = await services.chain.getTransactionHex(h.txid);
    if (!hex) continue;
    const tx = Transaction.fromHex(hex);
    for (const i of tx.inputs) spent.add(`${i.sourceTXID}:${i.sourceOutputIndex}`);
    tx.outputs.forEach((o, vout) => {
      const script = o.lockingScript.toHex();
      if (holderAddressOf(script) === address && services.tokenTemplates.recognise(script))
        found.set(`${h.txid}:${vout}`, { txid: h.txid, vout, satoshis: o.satoshis ?? 0, script, height: h.height });
    });
  }
  return [...found.entries()].filter(([k]) => !spent.has(k)).map(([, u]) => u);
}

/** Broadcasts a sweep transaction and books it once a node took it (at once on the embedded node; see bookAccepted). */
async function send(services: SweepServices, tx: Transaction): Promise<string> {
  const txid = tx.id('hex');
  let r: BroadcastResult;
  try {
    r = await services.chain.broadcast(tx.toHex());
  } catch (err) {
    throw chainDown(services, err);
  }
  if (r.status === 'rejected') throw new DomainError('PAYMENT_REJECTED', `The chain refused the sweep transaction ${txid}: ${r.message}`);
  if (r.status === 'unknown')
    throw new DomainError(
      'CHAIN_UNAVAILABLE',
      `The chain did not say whether it took the sweep transaction ${txid}: ${r.message}. Look the key up again before retrying.`,
    );
  await services.sync.bookAccepted(tx, txid);
  return txid;
}

/**
 * Sends one transaction of the sweep. Once an earlier one went out, a failure no longer fails the call (the
 * caller must learn what moved): the output stays at the key, listed in `skipped` with the reason.
 */
async function sendOrNote(
  services: SweepServices,
  tx: Transaction,
  out: Output,
  at: { txid: string; vout: number },
): Promise<string | null> {
  try {
    return await send(services, tx);
  } catch (err) {
    if (!out.txIds.length || !(err instanceof DomainError)) throw err;
    out.skipped.push({ txid: at.txid, vout: at.vout, reason: err.message });
    return null;
  }
}

const pkhOf = (key: PrivateKey) => Utils.toHex(key.toPublicKey().toHash() as number[]);

/**
 * Moves each token output of the key to the wallet, one transfer each, its fee paid by one of the key's coins
 * (its change back to the key, swept with the rest after). Returns the coins left to sweep.
 */
async function sweepTokens(
  services: SweepServices,
  key: PrivateKey,
  toPkh: string,
  policy: FeePolicy,
  tokenOutputs: ChainUtxo[],
  coins: KeyCoin[],
  out: Output,
): Promise<KeyCoin[]> {
  let pool = [...coins];
  for (const t of tokenOutputs) {
    const found = services.tokenTemplates.recognise(t.script);
    const template = found ? services.tokenTemplates.forOutputs(found.token.protocol, [t.script]) : null;
    if (!found || !template) {
      out.skipped.push({ txid: t.txid, vout: t.vout, reason: 'a token output no installed template can move' });
      continue;
    }
    const funding = [...pool].sort((a, b) => b.satoshis - a.satoshis)[0];
    if (!funding) {
      out.skipped.push({ txid: t.txid, vout: t.vout, reason: 'the key holds no BSV to pay the transfer fee' });
      continue;
    }
    let built;
    try {
      built = await buildTokenSpend({
        template,
        kind: 'transfer',
        inputs: [{ txid: t.txid, vout: t.vout, satoshis: t.satoshis, script: t.script, key, parentHex: null }],
        tokenOutputs: [{ owner: toPkh, satoshis: t.satoshis }],
        redeem: null,
        funding: { ...funding, key, changeOwner: pkhOf(key) },
        policy,
      });
    } catch (err) {
      out.skipped.push({
        txid: t.txid,
        vout: t.vout,
        reason: err instanceof DomainError ? err.message : 'its template could not sign a transfer',
      });
      continue;
    }
    const txid = await sendOrNote(services, built.tx, out, t);
    if (!txid) continue;
    out.txIds.push(txid);
    out.tokens.push({ txid, tokenId: tokenIdOf(found.token), protocol: found.token.protocol, satoshis: t.satoshis, fee: built.fee });
    pool = pool.filter((c) => c !== funding);
    // The funding coin's change (the last output, when there is one) is the key's again: swept with the rest.
    const last = built.tx.outputs.length - 1;
    const change = built.tx.outputs[last];
    if (last >= 1 && change.lockingScript.toHex() === p2pkhScript(pkhOf(key)))
      pool.push({ txid, vout: last, satoshis: change.satoshis ?? 0, script: p2pkhScript(pkhOf(key)) });
  }
  return pool;
}

/**
 * The payment policy sees a sweep before anything is sent: its BSV as one move into the wallet, and each
 * token output as a move of its token, in one database transaction (a refusal of any stops the sweep).
 * A sweep cannot wait for approvals: its key is never stored (authorise.ts refuses it with that reason).
 */
function authoriseSweep(
  services: SweepServices,
  wallet: Parameters<SweepServices['authoriseValueMove']>[0]['wallet'],
  from: string,
  coins: KeyCoin[],
  tokenOutputs: ChainUtxo[],
  bsvTo: string,
  tokenTo: string,
): void {
  services.db.transaction(() => {
    const total = coins.reduce((s, c) => s + c.satoshis, 0);
    if (total > 0)
      services.authoriseValueMove({
        kind: 'sweep',
        wallet,
        outputs: [{ script: p2pkhScript(hash160OfAddress(bsvTo)), satoshis: total }],
        tokenId: null,
        counterparty: from,
      });
    for (const t of tokenOutputs) {
      const found = services.tokenTemplates.recognise(t.script);
      const tokenId = found ? tokenIdOf(found.token) : null;
      if (tokenId)
        services.authoriseValueMove({
          kind: 'sweep',
          wallet,
          outputs: [{ script: p2pkhScript(hash160OfAddress(tokenTo)), satoshis: t.satoshis }],
          tokenId,
          counterparty: from,
        });
    }
  })();
}

/**
 * POST /v1/drop: sweeps a private key into a wallet of the caller. Its tokens first (each a transfer to the
 * wallet), then all its BSV in one transaction to a fresh receive address, the fee taken from the swept
 * amount. Each transaction is broadcast and booked like any the wallet receives. The key lives only in this
 * call: it is never stored, logged or audited (the audit names its address).
 */
export async function drop(ctx: OpContext<SweepServices>, input: ParsedInputOf<typeof OPERATIONS.drop>): Promise<Output> {
  const { services } = ctx;
  const text = input.privateKey || input.secretKey;
  if (!text)
    throw new DomainError('VALIDATION_FAILED', 'privateKey: is required (the WIF or hex key to sweep, as a header or in the body)');
  const key = parsePrivateKey(text);
  const address = key.toAddress();
  if (services.repos.addresses.owner(address))
    throw new DomainError(
      'CONFLICT',
      'This key is an address of a wallet of this organisation: pay from that wallet instead of sweeping it.',
    );
  const wallet = await resolveWallet(ctx, input.walletId);
  const policy = await currentFeePolicy(services);
  const [tokenTo, bsvTo] = services.addressBook.handOut(wallet, 2);

  let chainCoins: ChainUtxo[];
  let tokenOutputs: ChainUtxo[];
  try {
    chainCoins = await services.chain.getUtxos(address);
    tokenOutputs = await tokenOutputsAt(services, address);
  } catch (err) {
    throw chainDown(services, err);
  }
  const plain = p2pkhScript(pkhOf(key));
  const out: Output = {
    walletID: wallet.walletId,
    address,
    txIds: [],
    bsv: { txid: null, satoshis: 0, fee: 0, received: 0 },
    tokens: [],
    skipped: [],
  };
  // Token outputs a provider lists among the coins are moved as tokens (found through the history above).
  for (const c of chainCoins)
    if (c.script !== plain && !services.tokenTemplates.recognise(c.script))
      out.skipped.push({ txid: c.txid, vout: c.vout, reason: 'not a plain P2PKH output of this key' });
  // A 1-satoshi output may carry an ordinal (an inscription moved on as a plain P2PKH): it is never swept
  // into a coin (payments/coin-select.ts, plainCoins); it stays at the key, said so.
  for (const c of chainCoins)
    if (c.script === plain && plainCoins([c]).length === 0)
      out.skipped.push({ txid: c.txid, vout: c.vout, reason: 'a 1-satoshi output may carry an ordinal: left at the key' });
  const coins = plainCoins(chainCoins.filter((c) => c.script === plain)).map(({ txid, vout, satoshis, script }) => ({
    txid,
    vout,
    satoshis,
    script,
  }));
  if (!coins.length && !tokenOutputs.length)
    throw new DomainError('INSUFFICIENT_FUNDS', `The key's address ${address} holds nothing to sweep.`);

  authoriseSweep(services, wallet, address, coins, tokenOutputs, bsvTo.address, tokenTo.address);
  const left = await sweepTokens(services, key, hash160OfAddress(tokenTo.address), policy, tokenOutputs, coins, out);
  for (let i = 0; i < left.length; i += MAX_INPUTS) {
    const chunk = left.slice(i, i + MAX_INPUTS);
    const built = await buildSweep(chunk, key, p2pkhScript(hash160OfAddress(bsvTo.address)), policy);
    if ('dust' in built) {
      if (!out.txIds.length)
        throw new DomainError(
          'INSUFFICIENT_FUNDS',
          `The key holds ${built.total} satoshis; after the fee of ${built.fee} what is left is below the dust limit of ${policy.dustLimit}: nothing was moved.`,
          { available: built.total, fee: built.fee },
        );
      for (const c of chunk) out.skipped.push({ txid: c.txid, vout: c.vout, reason: 'worth less than the fee to move it' });
      continue;
    }
    const txid = await sendOrNote(services, built.tx, out, chunk[0]);
    if (!txid) continue;
    out.txIds.push(txid);
    out.bsv = {
      txid,
      satoshis: out.bsv.satoshis + built.amount + built.fee,
      fee: out.bsv.fee + built.fee,
      received: out.bsv.received + built.amount,
    };
  }
  return out;
}

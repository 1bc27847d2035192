import { Utils } from '@bsv/sdk';
import type { OperationOutput, ParsedInput } from '../../../shared/operations.js';
import { MAX_FAUCET } from '../../chain/local/local-node.js';
import type { OpContext } from '../context.js';
import { DomainError } from '../../../shared/errors.js';
import { refreshRates } from '../rates/rates.js';
import { resolveWallet } from '../wallets/resolve.js';

export async function networkStatus(ctx: OpContext): Promise<OperationOutput<'networkStatus'>> {
  const { chain, node, repos, sync } = ctx.services;
  await refreshRates(ctx.services);
  const usd = repos.rates.get('USD');
  let tip: { height: number; hash: string } | null = null;
  let feePolicy = null;
  let error: string | null = null;
  try {
    [tip, feePolicy] = await Promise.all([chain.getTip(), chain.getFeePolicy()]);
  } catch (err) {
    error = `The ${chain.network} provider did not answer: ${(err as Error).message}`;
  }
  return {
    network: chain.network,
    provider: chain.describe,
    tip,
    mempoolSize: node ? node.mempoolSize() : null,
    feePolicy,
    faucet: node !== null,
    rates: usd ? { currency: 'USD', rate: usd.rate, source: usd.source, updatedAt: usd.updatedAt ? new Date(usd.updatedAt).toISOString() : null } : null,
    syncError: sync.lastError,
    error,
  };
}

function localNode(ctx: OpContext, what: string) {
  const node = ctx.services.node;
  if (!node) throw new DomainError('CONFLICT', `${what} exists on the local network only; this Keystead uses ${ctx.services.chain.network}.`);
  return node;
}

function checkAddress(address: string): void {
  try {
    const { prefix, data } = Utils.fromBase58Check(address);
    if ((prefix as number[])[0] === 0 && (data as number[]).length === 20) return;
  } catch {
    /* fall through */
  }
  throw new DomainError('VALIDATION_FAILED', 'address: is not a valid P2PKH address');
}

export async function faucet(ctx: OpContext, input: ParsedInput<'faucet'>): Promise<OperationOutput<'faucet'>> {
  const node = localNode(ctx, 'The faucet');
  if (input.satoshis > MAX_FAUCET) throw new DomainError('VALIDATION_FAILED', `satoshis: the faucet gives ${MAX_FAUCET} at most per request`);
  let address = input.address;
  if (address) checkAddress(address);
  else {
    const wallet = await resolveWallet(ctx, input.walletId);
    [{ address }] = ctx.services.addressBook.available(wallet, 1);
  }
  const r = await node.faucet(address!, input.satoshis);
  if (r.status !== 'accepted') throw new DomainError('CONFLICT', `The faucet could not send ${input.satoshis} satoshis: ${r.message}. Try again.`);
  return { txid: r.txid, address: address!, satoshis: input.satoshis };
}

export function mineBlock(ctx: OpContext, input: ParsedInput<'mineBlock'>): OperationOutput<'mineBlock'> {
  const node = localNode(ctx, 'Mining on demand');
  let last = { height: 0, hash: '', txids: [] as string[] };
  let txCount = 0;
  for (let i = 0; i < input.blocks; i++) {
    last = node.mine();
    txCount += last.txids.length;
  }
  return { height: last.height, hash: last.hash, blocks: input.blocks, txCount };
}

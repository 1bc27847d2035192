import { Utils } from '@bsv/sdk';
import { OPERATIONS } from '../../../shared/operations.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { MAX_FAUCET } from '../../chain/policy.js';
import type { OpContext } from '../context.js';
import type { ChainOpServices } from './services.js';
import { DomainError } from '../../../shared/errors.js';
import { refreshRates } from '../rates/rates.js';
import { resolveWallet } from '../wallets/resolve.js';

export async function networkStatus(ctx: OpContext<ChainOpServices>): Promise<OutputOf<typeof OPERATIONS.networkStatus>> {
  const { chain, repos, sync } = ctx.services;
  await refreshRates(ctx.services);
  const usd = repos.rates.get('USD');
  let tip: { height: number; hash: string } | null = null;
  let feePolicy = null;
  let mempoolSize: number | null = null;
  let error: string | null = null;
  try {
    [tip, feePolicy, mempoolSize] = await Promise.all([chain.getTip(), chain.getFeePolicy(), chain.dev ? chain.dev.mempoolSize() : null]);
  } catch (err) {
    error = `The ${chain.network} provider did not answer: ${(err as Error).message}`;
  }
  return {
    network: chain.network,
    provider: chain.describe,
    tip,
    mempoolSize,
    feePolicy,
    faucet: chain.dev !== undefined,
    rates: usd
      ? { currency: 'USD', rate: usd.rate, source: usd.source, updatedAt: usd.updatedAt ? new Date(usd.updatedAt).toISOString() : null }
      : null,
    syncError: sync.lastError,
    syncing: sync.scanningNow,
    error,
  };
}

/** The faucet and mining on demand exist on development chains only (the local node, or a remote one). */
function devChain(ctx: OpContext<ChainOpServices>, what: string) {
  const dev = ctx.services.chain.dev;
  if (!dev)
    throw new DomainError('CONFLICT', `${what} exists on a development chain only; this Keystead uses ${ctx.services.chain.network}.`);
  return dev;
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

export async function faucet(
  ctx: OpContext<ChainOpServices>,
  input: ParsedInputOf<typeof OPERATIONS.faucet>,
): Promise<OutputOf<typeof OPERATIONS.faucet>> {
  const dev = devChain(ctx, 'The faucet');
  if (input.satoshis > MAX_FAUCET)
    throw new DomainError('VALIDATION_FAILED', `satoshis: the faucet gives ${MAX_FAUCET} at most per request`);
  let address = input.address;
  if (address) checkAddress(address);
  else {
    const wallet = await resolveWallet(ctx, input.walletId);
    [{ address }] = ctx.services.addressBook.available(wallet, 1);
  }
  const r = await dev
    .faucet(address!, input.satoshis)
    .catch((err: Error) => ({ status: 'unknown' as const, txid: null, message: err.message }));
  if (r.status !== 'accepted')
    throw new DomainError('CONFLICT', `The faucet could not send ${input.satoshis} satoshis: ${r.message}. Try again.`);
  return { txid: r.txid, address: address!, satoshis: input.satoshis };
}

export async function mineBlock(
  ctx: OpContext<ChainOpServices>,
  input: ParsedInputOf<typeof OPERATIONS.mineBlock>,
): Promise<OutputOf<typeof OPERATIONS.mineBlock>> {
  const dev = devChain(ctx, 'Mining on demand');
  let mined;
  try {
    mined = await dev.mine(input.blocks);
  } catch (err) {
    throw new DomainError('CHAIN_UNAVAILABLE', `The chain did not mine: ${(err as Error).message}`);
  }
  return { ...mined, blocks: input.blocks };
}

import type { LocalChain } from '../chain/local/local-chain.js';
import { LocalNodeThread } from '../chain/local/node-thread.js';
import { LocalProvider } from '../chain/local/local-provider.js';
import { NetworkProvider, PUBLIC_ENDPOINTS, remoteEndpoints } from '../chain/network/network-provider.js';
import type { ChainProvider } from '../chain/types.js';
import type { ChainConfig } from './config.js';
import type { Logger } from '../log/logger.js';

export interface ChainSetup {
  provider: ChainProvider;
  /** The embedded node, on a thread of its own; null on a network. */
  node: LocalChain | null;
  /** The 1Sat indexer for BSV-21 tokens and inscriptions; null on the local chain (Keystead indexes it itself). */
  ordinalsIndexerUrl: string | null;
}

/** The local node in the data dir, or the network provider the configuration names. */
export async function openChain(
  cfg: ChainConfig,
  dataDir: string,
  password: string,
  nativeBinding?: string,
  logger?: Logger,
): Promise<ChainSetup> {
  if (cfg.network === 'local') {
    const node = await LocalNodeThread.start({
      dataDir,
      password,
      policy: { satoshis: cfg.feeRate, bytes: 1000, dustLimit: 1 },
      nativeBinding,
      miningIntervalMs: cfg.mineIntervalSeconds * 1000,
      logger,
    });
    // The local provider never asks for a USD rate: on the local network the rate table is the source.
    return { node, provider: new LocalProvider(node, () => null), ordinalsIndexerUrl: null };
  }
  const defaults = cfg.network === 'remote' ? remoteEndpoints(cfg.remoteUrl!) : PUBLIC_ENDPOINTS[cfg.network];
  const provider = new NetworkProvider({
    network: cfg.network,
    arcUrl: cfg.arcUrl ?? defaults.arcUrl,
    arcApiKey: cfg.arcApiKey,
    wocUrl: cfg.wocUrl ?? defaults.wocUrl,
    wocApiKey: cfg.wocApiKey,
    devUrl: cfg.network === 'remote' ? (defaults as { devUrl?: string }).devUrl : undefined,
    logger,
  });
  // Another Keystead's local node is known to no public indexer: Keystead indexes it itself unless one is given.
  const ordinalsIndexerUrl = cfg.ordinalsIndexerUrl ?? (cfg.network === 'remote' ? null : PUBLIC_ENDPOINTS[cfg.network].ordinalsIndexerUrl);
  return { node: null, provider, ordinalsIndexerUrl };
}

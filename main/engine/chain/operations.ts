import { CHAIN_OPERATIONS } from '../../../shared/contracts/chain.js';
import { implement } from '../operation.js';
import type { ChainOpServices } from './services.js';
import { faucet, mineBlock, networkStatus } from './chain-ops.js';

export const CHAIN_IMPLEMENTATIONS = implement<ChainOpServices>()(CHAIN_OPERATIONS, {
  networkStatus: { run: networkStatus },
  faucet: { run: faucet },
  mineBlock: { run: mineBlock },
});

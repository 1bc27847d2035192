import { CONTRACT_OPERATIONS } from '../../../shared/contracts/contracts.js';
import { implement } from '../operation.js';
import type { ContractServices } from './services.js';
import { compile } from './compile-op.js';
import { transpile } from './transpile-op.js';

export const CONTRACT_IMPLEMENTATIONS = implement<ContractServices>()(CONTRACT_OPERATIONS, {
  compile: { run: compile },
  transpile: { run: transpile },
});

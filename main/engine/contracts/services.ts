import type { CoreServices } from '../context.js';
import type { CompilePool } from './compile-pool.js';

/** What the offline toolchain needs: a pool that runs untrusted work off the event loop. */
export interface ContractServices extends CoreServices {
  compiler: CompilePool;
}

/**
 * Script checks on worker threads, for transactions from anyone. The pool was built for the local node,
 * but nothing in it is tied to that chain: it runs @bsv/sdk's interpreter on a transaction and the outputs
 * it spends. The engine checks a stranger's BEEF with it, and may not import the local node's folder
 * (main/chain/local is a concrete provider), so the pool is offered to it from here.
 */
export { SCRIPT_CHECK_LIMIT_MS, ScriptCheckUnavailable, ScriptVerifier } from './local/script-pool.js';
export type { Rejection, SpentSource } from './local/validate.js';

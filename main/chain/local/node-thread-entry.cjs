// The local node thread's entry under tsx (tests): tsx compiles what a worker requires, not the worker's own
// entry module, so this CommonJS file requires the TypeScript entry. The build bundles that entry as node-thread.js.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./node-thread-entry.ts');

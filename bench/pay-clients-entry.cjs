// The pay clients' thread entry (concurrency.bench.ts). A file, not eval'd code, so that the worker starts with
// tsx's --import as the main thread did; and require(), because tsx compiles a worker's required files, not its imports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./pay-clients.ts');

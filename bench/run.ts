import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run bench [name…]`: runs bench/*.bench.ts (or the named ones); each prints ratios against a floor
// measured in the same run, so results compare across machines.
const dir = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
for (const file of benches) {
  const mod = (await import(path.join(dir, file))) as { run: () => Promise<void> };
  await mod.run();
}

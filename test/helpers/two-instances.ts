import assert from 'node:assert/strict';
import { startHeadless } from './headless.js';
import { orgCall, setUpOrg, type Org } from './org.js';
import { tempDir } from './tmp.js';

/** How the pair is started: arguments both instances get, and whether each resolves the other's paymail domain. */
export interface PairOptions {
  /** Arguments for both instances (e.g. `--token-templates DIR`). */
  args?: string[];
  /** B resolves a.test at A (`--paymail-hosts`) and A resolves b.test at B (`POST /v1/paymailHosts`). */
  paymailBetween?: boolean;
}

/**
 * Two organisations on one local chain, as the tests between instances need them: A runs the chain (blocks
 * mined on demand) with paymail domain a.test; B is remote to A, polls it every second, with paymail domain
 * b.test. Each is set up with the test admin. Stop them with `stopPair` (B first: it polls A).
 */
export async function startPair(options: PairOptions = {}): Promise<{ a: Org; b: Org }> {
  const shared = options.args ?? [];
  const a = await setUpOrg(
    await startHeadless({ dataDir: tempDir(), password: 'pw-a', args: ['--mine-interval', '0', '--paymail-domain', 'a.test', ...shared] }),
  );
  let b: Org | undefined;
  try {
    const remote = ['--network', 'remote', '--remote-url', a.host.url, '--sync-interval', '1', '--paymail-domain', 'b.test'];
    const paymail = options.paymailBetween ? ['--paymail-hosts', `a.test=${a.host.url}`] : [];
    b = await setUpOrg(await startHeadless({ dataDir: tempDir(), password: 'pw-b', args: [...remote, ...paymail, ...shared] }));
    if (options.paymailBetween) {
      const mapped = await orgCall(a, 'POST', '/v1/paymailHosts', { body: { domain: 'b.test', url: b.host.url } });
      assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
    }
    return { a, b };
  } catch (err) {
    await stopPair(a, b);
    throw err;
  }
}

/** Stops what `startPair` started (either may be missing when a `before` failed part way). */
export async function stopPair(a: Org | undefined, b: Org | undefined): Promise<void> {
  await b?.host.stop();
  await a?.host.stop();
}

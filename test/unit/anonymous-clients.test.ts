import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANONYMOUS_BURST, workerOwner } from '../../main/engine/contracts/anonymous.js';
import type { OpContext } from '../../main/engine/context.js';
import type { ContractServices } from '../../main/engine/contracts/services.js';
import { DomainError } from '../../shared/errors.js';

/**
 * Calls without credentials (compiles, transpiles) are counted per client, and every loopback address is one
 * client: a local process sending from 127.0.0.2, 127.0.0.3, … gets no new buckets (nor new shares of the workers).
 */
describe('clients without credentials', () => {
  const services = { compiler: {}, now: () => 1_000 } as unknown as ContractServices;
  const call = (clientId: string) => workerOwner({ services, caller: null, meta: { clientId } } as unknown as OpContext<ContractServices>);

  it('share one bucket across every loopback address', () => {
    const owners = new Set<string>();
    for (let i = 0; i < ANONYMOUS_BURST; i++) owners.add(call(i % 2 ? `127.0.0.${i + 2}` : `::ffff:127.0.${i}.1`));
    assert.deepEqual([...owners], ['client:loopback'], 'one owner in the fair queue');
    for (const id of ['127.0.0.250', '::1', '::ffff:127.0.0.1', 'localhost'])
      assert.throws(
        () => call(id),
        (e: unknown) => e instanceof DomainError && e.code === 'RATE_LIMITED',
        id,
      );
  });

  it('are counted apart when they come from other machines', () => {
    assert.equal(call('203.0.113.9'), 'client:203.0.113.9');
    assert.equal(call('203.0.113.10'), 'client:203.0.113.10');
  });
});

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Transaction } from '@bsv/sdk';
import type { Credentials } from '../../main/engine/context.js';
import { AUDIT_ANCHOR_PREFIX } from '../../main/engine/fees/audit-anchor.js';
import { dataPushesOf } from '../../main/engine/utilities/data-script.js';
import { meta, testEngine, type TestEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';
import { untilValue } from '../helpers/until.js';

const DAY = 86_400_000;

/**
 * Anchoring through the real engine and the local chain: the fee manager pays an OP_FALSE OP_RETURN output
 * carrying the checkpoint's hash, through the value flow every data post takes; without a fee manager the
 * checkpoint stays unanchored and verify lists it, while the audited call that closed the day succeeds.
 */
describe('audit checkpoints anchored on chain by the fee manager', () => {
  let t: TestEngine;
  let admin: Credentials;
  const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

  async function setUp() {
    t = testEngine({ sessionTtlMs: 10 * DAY });
    const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
    admin = { authToken: s.authToken, serviceId: s.serviceId };
  }
  afterEach(() => {
    t?.engine.close();
    t?.node.close();
  });

  const checkpoints = () => run(t.engine.execute('auditCheckpoints', {}, admin, meta)).then((r) => r.checkpoints);

  it('writes the hash of each new checkpoint in a data output paid by the fee manager', async () => {
    await setUp();
    const fm = await run(t.engine.execute('feeManagerInit', {}, admin, meta));
    await run(t.engine.execute('faucet', { address: fm.address, satoshis: 50_000 }, admin, meta));
    await run(t.engine.execute('setAuditSettings', { anchor: true }, admin, meta));
    t.clock.now += DAY;
    // Any audited call on the next day closes the day before.
    await run(t.engine.execute('setAuditSettings', { anchor: true }, admin, meta));
    const [c] = await untilValue('the checkpoint anchored', checkpoints, (cs) => cs.length === 1 && cs[0].anchorTxid !== null);
    assert.equal(c.day, '2026-01-01');
    const hex = t.node.txHex(c.anchorTxid!);
    assert.ok(hex, 'the anchor is on the chain');
    const scripts = Transaction.fromHex(hex).outputs.map((o) => o.lockingScript.toHex());
    const pushes = scripts.map(dataPushesOf).find((p) => p !== null)!;
    assert.deepEqual(pushes, [
      Buffer.from(AUDIT_ANCHOR_PREFIX).toString('hex'),
      Buffer.from(c.day).toString('hex'),
      Buffer.from(String(c.lastId)).toString('hex'),
      c.lastHash,
    ]);
    const v = await run(t.engine.execute('auditVerify', {}, admin, meta));
    assert.equal(v.ok, true, JSON.stringify(v.firstMismatch));
    assert.equal(v.anchored, 1);
    assert.deepEqual(v.unanchored, []);
  });

  it('leaves the checkpoint unanchored without a fee manager; verify lists it and still holds', async () => {
    await setUp();
    await run(t.engine.execute('setAuditSettings', { anchor: true }, admin, meta));
    t.clock.now += DAY;
    await run(t.engine.execute('setAuditSettings', { anchor: true }, admin, meta));
    const v = await untilValue(
      'verify to list the day unanchored',
      () => run(t.engine.execute('auditVerify', {}, admin, meta)),
      (x) => x.checkpoints === 1,
    );
    assert.equal(v.ok, true);
    assert.equal(v.anchored, 0);
    assert.deepEqual(v.unanchored, ['2026-01-01']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { meta, testEngine } from '../helpers/engine.js';
import { ADMIN } from '../helpers/http.js';

/** The audit log records what changed: an operation that reads or changes settings leaves an entry only for a change. */
describe('audit entries for operations that read or change', () => {
  it('approvalSettings: reading leaves no entry, a change leaves one', async () => {
    const t = testEngine();
    try {
      const s = (await t.engine.execute('setup', ADMIN, {}, meta)).output;
      const admin = { authToken: s.authToken, serviceId: s.serviceId };
      const entries = async () =>
        (await t.engine.execute('auditLog', {}, admin, meta)).output.entries
          .filter((e) => e.action === 'approvalSettings')
          .map((e) => e.outcome);
      for (let i = 0; i < 3; i++) await t.engine.execute('approvalSettings', {}, admin, meta);
      assert.deepEqual(await entries(), [], 'reading, three times: nothing');
      await t.engine.execute('approvalSettings', { expiryHours: 48 }, admin, meta);
      assert.deepEqual(await entries(), ['success']);
      await assert.rejects(t.engine.execute('approvalSettings', { expiryHours: 0 }, admin, meta));
      assert.deepEqual(await entries(), ['success'], 'input that is not an expiry changes nothing and is not recorded');
      assert.equal((await t.engine.execute('approvalSettings', {}, admin, meta)).output.expiryHours, 48);
    } finally {
      t.engine.close();
    }
  });
});

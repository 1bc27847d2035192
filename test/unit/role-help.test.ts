import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roleHelp } from '../../shared/role-help.js';

describe('role help texts say what the operations table allows', () => {
  it('describes each role from the table', () => {
    assert.match(roleHelp('admin'), /^May manage users, read the audit log, .*create wallets and pay.*\.$/);
    assert.doesNotMatch(roleHelp('admin'), /May not/);
    assert.match(roleHelp('viewer'), /May see wallets, balances and history, compile contracts\. May not .*create wallets and pay/);
    assert.match(roleHelp('api_user'), /May .*create wallets and pay.*May not .*show recovery phrases/);
    assert.match(roleHelp('manager'), /May .*run the fee manager.*May not manage users/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { policyDocument, type PolicyDocument } from '../../shared/contracts/policies.js';
import { policyWords } from '../../shared/policy-words.js';
import { documentOfDraft, draftOfDocument, emptyAction, emptyRule, ruleOfDraft } from '../../renderer/views/policies/draft.js';
import { draftProblems } from '../../renderer/views/policies/draft-problems.js';

/** The policy editor's working copy: what it sends is a valid document, and a version opens in it unchanged. */
describe('policy editor draft', () => {
  const doc: PolicyDocument = {
    rules: [
      {
        name: 'big or unknown',
        when: {
          initiator: { roles: ['operator'], apiKeys: ['key-1'] },
          amountOver: { satoshis: 10_000_000 },
          destination: { kind: 'notInBook' },
        },
        action: 'approve',
        approvals: { count: 2, roles: ['manager'], users: ['cfo@acme.io'] },
      },
      {
        when: { assets: ['tokens'], tokenIds: ['tok-1'], window: { per: 'wallet', period: '7d', over: { tokens: 500 } } },
        action: 'deny',
        reason: 'Token limit',
      },
      { when: { window: { per: 'initiator', period: '24h', over: { value: { currency: 'EUR', amount: '250.50' } } } }, action: 'allow' },
      { when: { destination: { kind: 'paymailDomains', domains: ['partner.io'] } }, action: 'allow' },
    ],
    default: { action: 'deny', reason: 'Not covered' },
  };

  it('opens a version and gives back the same document, valid for the API', () => {
    const back = documentOfDraft(draftOfDocument(doc));
    assert.deepEqual(policyDocument.parse(back), doc);
    assert.deepEqual(policyWords(policyDocument.parse(back)), policyWords(doc));
  });

  it('leaves out conditions not set, and amounts not (yet) typed as one', () => {
    const rule = { ...emptyRule(), amountOver: { unit: 'bsv' as const, text: '0.1', currency: 'USD' } };
    assert.deepEqual(ruleOfDraft(rule), {
      when: { amountOver: { satoshis: 10_000_000 } },
      action: 'approve',
      approvals: { count: 1, roles: ['manager'], users: [] },
    });
    // Half a satoshi, or a half-typed amount, is no condition yet (the field says why); never a guess.
    for (const text of ['0.000000001', 'abc', ''])
      assert.equal(ruleOfDraft({ ...rule, amountOver: { ...rule.amountOver, text } }).when.amountOver, undefined, text);
    assert.equal(ruleOfDraft({ ...rule, destination: 'payees', payees: [] }).when.destination, undefined);
    assert.ok(policyDocument.safeParse(documentOfDraft({ rules: [rule], default: { ...rule, action: 'allow' } })).success);
  });

  it('refuses a ticked amount that is not one, and approvals nobody can give, instead of saving a wider rule', () => {
    const people = [
      { email: 'ada@acme.io', role: 'admin' as const },
      { email: 'olga@acme.io', role: 'operator' as const },
    ];
    const rule = { ...emptyRule(), roles: ['admin' as const], amountOver: { unit: 'bsv' as const, text: '0.5', currency: 'USD' } };
    const ok = { rules: [rule], default: emptyAction() };
    assert.deepEqual(draftProblems(ok, people), []);
    for (const text of ['-5', '', 'abc', '0.000000001'])
      assert.match(
        draftProblems({ ...ok, rules: [{ ...rule, amountOver: { ...rule.amountOver, text } }] }, people).join(' '),
        /Rule 1: “Amount over” (is empty|is not an amount)/,
        text,
      );
    const byManagers = { ...rule, name: 'big', roles: ['manager' as const] };
    assert.deepEqual(draftProblems({ ...ok, rules: [byManagers] }, people), [
      'Rule 1 (big): it needs 1 approval from Managers, but nobody in the organisation can give it.',
    ]);
    const twoAdmins = { ...emptyAction(), action: 'approve' as const, count: 2, roles: ['admin' as const] };
    assert.deepEqual(draftProblems({ ...ok, default: twoAdmins }, people), [
      'The default: it needs 2 approvals from Admins, but only 1 in the organisation can give them.',
    ]);
    assert.deepEqual(draftProblems({ ...ok, default: { ...twoAdmins, users: ['olga@acme.io'] } }, people), [], 'a named user counts');
    assert.deepEqual(draftProblems({ ...ok, rules: [byManagers] }, null), [], 'people not known yet: not judged');
  });
});

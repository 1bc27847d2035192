import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../shared/api-client.js';
import { humaniseMessage, LocalCheck, messageOf, splitErrors } from '../../renderer/components/errors.js';

const invalid = (msg: string) => new ApiError('VALIDATION_FAILED', msg, 'invalid');

/** What a person reads when a call fails: fields by their labels, never the API's field names or zod paths. */
describe('renderer: API errors in words', () => {
  it('names a field by its label, keeping the API’s words for the problem', () => {
    assert.equal(
      messageOf(invalid('password: must be at least 10 characters, with a letter and a digit or symbol')),
      'Password: must be at least 10 characters, with a letter and a digit or symbol.',
    );
    assert.equal(messageOf(invalid('walletTitle: is required')), 'Wallet title: is required.');
    assert.equal(
      messageOf(invalid('email: is not a valid e-mail address; newPassword: is too long')),
      'E-mail: is not a valid e-mail address. New password: is too long.',
    );
    // Two checks failing with the same words are said once.
    assert.equal(messageOf(invalid('newPassword: must be longer; newPassword: must be longer')), 'New password: must be longer.');
  });

  it('prefers the form’s own label, and reads REST and nested zod paths', () => {
    assert.equal(messageOf(invalid('password: is required'), { password: 'Your account password' }), 'Your account password: is required.');
    assert.equal(messageOf(invalid('body.walletTitle: is too long')), 'Wallet title: is too long.');
    assert.equal(messageOf(invalid('outputs.0.satoshis: must be a whole number')), 'Amount of output 1: must be a whole number.');
    assert.equal(messageOf(invalid('limit.currency: XYZ is not in the rate table.')), 'Currency: XYZ is not in the rate table.');
    // A name no table knows is still put in words.
    assert.equal(messageOf(invalid('feeRateSource: is required')), 'Fee rate source: is required.');
    // "input" and "id" name no field a person fills in: the problem alone.
    assert.equal(messageOf(invalid('input: expected an object')), 'Expected an object.');
    assert.equal(messageOf(new ApiError('NOT_FOUND', 'id: there is no payee pay_1.', 'not-found')), 'There is no payee pay_1.');
  });

  it('leaves messages that name no field as the API wrote them', () => {
    for (const msg of [
      'Wrong e-mail or password.',
      'Not a transaction: the hex does not read as one transaction with inputs and outputs.',
      'This offer cannot be taken: the price changed; it expired.',
    ])
      assert.equal(messageOf(new ApiError('VALIDATION_FAILED', msg, 'invalid')), msg);
    assert.equal(messageOf(new LocalCheck('The two passwords differ.')), 'The two passwords differ.');
    assert.equal(humaniseMessage('Approved: the payment was sent.'), 'Approved: the payment was sent.');
  });

  it('splits a form’s own fields out, and says the rest in words', () => {
    const split = splitErrors(invalid('walletTitle: is required; walletLogo: must be an https URL; members: there is no user x@y.io'), [
      'walletTitle',
      'walletLogo',
    ]);
    assert.deepEqual(split.fields, { walletTitle: 'Is required.', walletLogo: 'Must be an https URL.' });
    assert.equal(split.rest, 'Members: there is no user x@y.io.');
    const other = splitErrors(new ApiError('NOT_FOUND', 'walletId: there is no wallet w1 in your account.', 'not-found'), ['walletTitle']);
    assert.deepEqual(other, { fields: {}, rest: 'Wallet: there is no wallet w1 in your account.' });
  });

  it('says a form’s own check of a field under that field only, never in the alert', () => {
    const check = new LocalCheck('Not an amount: use digits and one decimal point.', { field: 'amount' });
    assert.deepEqual(splitErrors(check, ['uri', 'amount']), {
      fields: { amount: 'Not an amount: use digits and one decimal point.' },
      rest: null,
    });
    // A field the form does not show: the alert, as before.
    assert.deepEqual(splitErrors(check, ['uri']), { fields: {}, rest: 'Not an amount: use digits and one decimal point.' });
    assert.deepEqual(splitErrors(new LocalCheck('The two passwords differ.'), ['password']), {
      fields: {},
      rest: 'The two passwords differ.',
    });
  });

  it('says an empty field the API finds "not a valid" value is required', () => {
    const err = invalid('organisation: is required; email: is not a valid e-mail address');
    const fields = ['organisation', 'email'];
    assert.deepEqual(splitErrors(err, fields, {}, { organisation: '', email: '' }).fields, {
      organisation: 'Is required.',
      email: 'Is required.',
    });
    assert.deepEqual(splitErrors(err, fields, {}, { organisation: '', email: 'ada@' }).fields, {
      organisation: 'Is required.',
      email: 'Is not a valid e-mail address.',
    });
    // Without the form's values, the API's words.
    assert.equal(splitErrors(err, fields).fields.email, 'Is not a valid e-mail address.');
  });
});

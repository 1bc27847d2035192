import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveEvent } from '../../shared/events.js';
import { meta } from '../helpers/engine.js';
import { setUpEngineOrg, attempt } from '../helpers/engine-org.js';

/**
 * Review 1128e (2026-11-28): invoices, the paymail host, sweeps, the fee manager, the live event stream and
 * the remote CLI. A finding asserts the safe behaviour (each failed before its fix); "refused:" tests prove an attack held.
 *
 *   1. cancelInvoice lets an invoice's creator cancel (and read) it after removal from the shared wallet it pays
 *      (main/engine/invoices/invoices.ts, maySee: createdBy alone).
 *   2. the paymail host's destination budget is per paymail only: one client, well inside its own listener
 *      budget, takes every destination and each other payer gets 429 (main/engine/paymail/host.ts, nextAddress).
 */

const run = <T>(p: Promise<{ output: T }>) => p.then((r) => r.output);

describe('finding 1: a member removed from a shared wallet still cancels (and reads) the invoices they made for it', () => {
  it('after removal, cancelInvoice on the shared wallet’s invoice is refused (NOT_FOUND) and the invoice stays open', async () => {
    const s = await setUpEngineOrg();
    try {
      const op = await s.userWithRole('op@acme.io', 'operator');
      await s.userWithRole('keep@acme.io', 'operator');
      const walletID = (
        await run<{ walletID: string }>(
          s.t.engine.execute(
            'createWallet',
            { walletTitle: 'Till', type: 'shared', members: ['op@acme.io', 'keep@acme.io'] },
            s.admin,
            meta,
          ),
        )
      ).walletID;
      const inv = await run<{ invoiceId: string }>(s.t.engine.execute('createInvoice', { walletID, satoshis: 25_000 }, op, meta));
      await run(s.t.engine.execute('setWalletMembers', { walletId: walletID, members: ['keep@acme.io'] }, s.admin, meta));
      const r = await attempt<{ walletTitle: string; state: string }>(
        s.t.engine.execute('cancelInvoice', { invoiceId: inv.invoiceId }, op, meta),
      );
      assert.equal(r.ok ? `cancelled (saw wallet "${r.output.walletTitle}")` : r.code, 'NOT_FOUND');
      const state = await run<{ state: string }>(
        s.t.engine.execute('paymentRequest', { invoiceId: inv.invoiceId }, {}, { ...meta, clientId: '10.9.9.9' }),
      );
      assert.equal(state.state, 'open', 'the shared wallet’s invoice is still open for its customer');
    } finally {
      s.t.engine.close();
    }
  });
});

describe('finding 2: one stranger spends a paymail’s whole destination budget; every other payer is refused (429)', () => {
  it('one client asking 60 P2P destinations, then one a second (half its 120-a-minute listener budget): another payer is still served', async () => {
    const s = await setUpEngineOrg();
    try {
      await run(s.t.engine.execute('createWallet', { walletTitle: 'Shop', paymail: 'shop', paymailActivate: true }, s.admin, meta));
      // The stranger: 60 requests, half of what the public listener lets one client make in a minute.
      for (let i = 0; i < 60; i++)
        try {
          s.t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 1_000 }, '203.0.113.9');
        } catch {
          /* refused once over its share */
        }
      // Then one a second (60 a minute, half its listener budget); a real customer asks right after each.
      const answers: string[] = [];
      for (let sec = 0; sec < 30; sec++) {
        s.t.clock.now += 1_000;
        try {
          s.t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 1_000 }, '203.0.113.9');
        } catch {
          /* the stranger does not care */
        }
        try {
          s.t.engine.paymailHost.p2pDestination('shop@acme.test', { satoshis: 25_000 }, '198.51.100.7');
          answers.push('served');
        } catch (e) {
          answers.push(`${(e as { status?: number }).status}`);
        }
      }
      const answer = answers.includes('served') ? 'served' : `refused ${answers.length} times (${answers[0]})`;
      assert.equal(answer, 'served', 'the customer’s payment destination');
    } finally {
      s.t.engine.close();
    }
  });
});

describe('refused: the live event stream', () => {
  it('refused: a member removed from a shared wallet replays (Last-Event-ID) none of its events, old or new', async () => {
    const s = await setUpEngineOrg();
    try {
      const gone = await s.userWithRole('gone@acme.io', 'operator');
      const walletID = (
        await run<{ walletID: string }>(
          s.t.engine.execute('createWallet', { walletTitle: 'Board', type: 'shared', members: ['gone@acme.io'] }, s.admin, meta),
        )
      ).walletID;
      const before: LiveEvent[] = [];
      const first = s.t.engine.openEventStream(
        { credentials: gone },
        (e) => before.push(e),
        () => undefined,
      );
      await run(s.t.engine.execute('setRate', { currency: 'EUR', rate: 40 }, s.admin, meta));
      first.close();
      assert.ok(before.length > 0, 'the member saw the rate event');
      const startId = before[before.length - 1].id;
      await run(s.t.engine.execute('setWalletMembers', { walletId: walletID, members: [] }, s.admin, meta));
      await run(s.t.engine.execute('faucet', { walletId: walletID, satoshis: 77_000 }, s.admin, meta));
      await new Promise((ok) => setTimeout(ok, 200));
      const got: LiveEvent[] = [];
      const st = s.t.engine.openEventStream(
        { credentials: gone, lastEventId: startId },
        (e) => got.push(e),
        () => undefined,
      );
      await run(s.t.engine.execute('faucet', { walletId: walletID, satoshis: 11_000 }, s.admin, meta));
      await new Promise((ok) => setTimeout(ok, 200));
      st.close();
      assert.deepEqual(
        got.filter((e) => JSON.stringify(e.data).includes(walletID)).map((e) => e.type),
        [],
      );
    } finally {
      s.t.engine.close();
    }
  });
});

describe('refused: invoices', () => {
  it('refused: a viewer cannot pay an invoice from a wallet (payInvoice reaches pay only for wallet users); the public view names no wallet', async () => {
    const s = await setUpEngineOrg();
    try {
      const viewer = await s.userWithRole('view@acme.io', 'viewer');
      const walletID = (await run<{ walletID: string }>(s.t.engine.execute('createWallet', { walletTitle: 'Shop' }, s.admin, meta)))
        .walletID;
      const inv = await run<{ invoiceId: string }>(s.t.engine.execute('createInvoice', { walletID, satoshis: 5_000 }, s.admin, meta));
      const r = await attempt(s.t.engine.execute('payInvoice', { invoiceId: inv.invoiceId }, viewer, meta));
      assert.equal(r.ok ? 'paid' : r.code, 'ROLE_FORBIDDEN');
      const pub = await run<Record<string, unknown>>(
        s.t.engine.execute('paymentRequest', { invoiceId: inv.invoiceId }, {}, { ...meta, clientId: '10.9.9.8' }),
      );
      assert.equal(pub.state, 'open');
      for (const k of ['walletID', 'walletTitle', 'createdBy']) assert.equal(k in pub, false, k);
    } finally {
      s.t.engine.close();
    }
  });
});

describe('the fee manager from a supplied phrase', () => {
  it('a manager cannot create the fee manager from a phrase of their own (they would hold its coins outside Keystead)', async () => {
    const s = await setUpEngineOrg();
    try {
      const manager = await s.userWithRole('max@acme.io', 'manager');
      const phrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
      const refused = await s.t.engine.execute('feeManagerInit', { mnemonic: phrase }, manager, meta).then(
        () => 'created',
        (e: { code?: string }) => e.code,
      );
      assert.equal(refused, 'FORBIDDEN');
      const made = await run<{ walletID: string }>(s.t.engine.execute('feeManagerInit', {}, manager, meta));
      assert.ok(made.walletID, 'without a phrase of their own, a manager may create it');
    } finally {
      s.t.engine.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LockingScript, P2PKH, PrivateKey, Transaction, Utils } from '@bsv/sdk';
import { bsv21Json, ordP2pkhScript } from '../../main/chain/ordinal-envelope.js';
import { startHeadless } from '../helpers/headless.js';
import { request } from '../helpers/http.js';
import { createOrgWallet, orgCall as call, setUpOrg, type Org } from '../helpers/org.js';
import { tempDir } from '../helpers/tmp.js';
import { until } from '../helpers/until.js';

/**
 * 1Sat Ordinals between two instances on one local chain (issue 30 §3): A deploys and mints a BSV-21 token,
 * sends part to B (another Keystead, syncing over the network provider), B sees a valid balance and sends part
 * back; a transfer forged by an outside key (no token input) is shown invalid and never counted; inscriptions
 * are listed, served sandboxed and sent; no 1-satoshi output ever pays a fee.
 */
const pkhOf = (address: string) => Utils.toHex(Utils.fromBase58Check(address).data as number[]);

interface TokenBalance {
  id: string;
  sym: string | null;
  dec: number;
  amount: string;
  pendingAmount: string;
  invalidAmount: string;
  validity: string;
}
interface Inscription {
  outpoint: string;
  txid: string;
  contentType: string;
  kind: string;
  size: number;
  bsv21: { tokenId: string; amount: string; validity: string } | null;
}

describe('ordinals: BSV-21 and inscriptions between two instances (one local chain)', () => {
  let a: Org;
  let b: Org;
  let alice: string;
  let bob: string;
  let tokenId: string;
  const outside = PrivateKey.fromRandom();

  const chainCall = (method: string, path: string, body?: unknown) => request(a.host.url, method, path, body ? { body } : {});
  const addressOf = async (o: Org, walletID: string) =>
    (await call(o, 'GET', '/v1/address', { headers: { walletID } })).body.data.address as string;
  const fund = async (o: Org, walletID: string, satoshis: number) => {
    const r = await call(a, 'POST', '/chain/faucet', { body: { address: await addressOf(o, walletID), satoshis } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };
  const ordinals = async (o: Org, walletID: string) => {
    const r = await call(o, 'GET', '/v1/ordinals', { headers: { walletID } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { inscriptions: Inscription[]; tokens: TokenBalance[]; source: string };
  };
  const balanceOf = (list: { tokens: TokenBalance[] }) => list.tokens.find((t) => t.id === tokenId);
  /** A transaction from the outside key, paying `outputs` from a faucet coin (the test builds what no wallet would). */
  const outsideTx = async (outputs: { script: string; satoshis: number }[]) => {
    const f = await call(a, 'POST', '/chain/faucet', { body: { address: outside.toAddress(), satoshis: 20_000 } });
    assert.equal(f.status, 200, JSON.stringify(f.body));
    const txid = f.body.data?.txid ?? f.body.txid;
    const parent = Transaction.fromHex((await chainCall('GET', `/chain/woc/v1/bsv/local/tx/${txid}/hex`)).body as string);
    const vout = parent.outputs.findIndex(
      (o) => o.lockingScript.toHex() === new P2PKH().lock(outside.toAddress()).toHex() && o.satoshis === 20_000,
    );
    const tx = new Transaction();
    tx.addInput({ sourceTransaction: parent, sourceOutputIndex: vout, unlockingScriptTemplate: new P2PKH().unlock(outside) });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    tx.addOutput({ lockingScript: new P2PKH().lock(outside.toAddress()), change: true });
    await tx.fee(300);
    await tx.sign();
    const r = await chainCall('POST', '/chain/woc/v1/bsv/local/tx/raw', { txhex: tx.toHex() });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return tx.id('hex');
  };
  const coinsOf = async (o: Org, walletID: string) => {
    const r = await call(o, 'GET', '/v1/balance', { headers: { walletID, compact: 'false', maxResults: '-1' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.coins as { protocol: string; balance?: number; txid?: string; vout?: number }[];
  };

  before(async () => {
    a = await setUpOrg(
      await startHeadless({ dataDir: tempDir(), password: 'pw-a', args: ['--mine-interval', '0', '--paymail-domain', 'a.test'] }),
    );
    b = await setUpOrg(
      await startHeadless({
        dataDir: tempDir(),
        password: 'pw-b',
        args: ['--network', 'remote', '--remote-url', a.host.url, '--sync-interval', '1', '--paymail-domain', 'b.test'],
      }),
    );
    alice = await createOrgWallet(a, { walletTitle: 'Alice' });
    bob = await createOrgWallet(b, { walletTitle: 'Bob' });
    await fund(a, alice, 300_000);
    await fund(a, alice, 1); // a lone satoshi: it may carry an ordinal, so it must never pay a fee
    await fund(b, bob, 100_000);
  });
  after(async () => {
    await b?.host.stop();
    await a?.host.stop();
  });

  it('deploys and mints a BSV-21 token: the whole supply, valid, in the wallet that deployed it', async () => {
    const r = await call(a, 'POST', '/v1/bsv21/deploy', { headers: { walletID: alice }, body: { sym: 'GEM', amt: '2100000000', dec: 2 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    tokenId = r.body.data.tokenId;
    assert.equal(tokenId, `${r.body.data.txid}_0`);
    const list = await ordinals(a, alice);
    assert.equal(list.source, 'local');
    assert.deepEqual(balanceOf(list), {
      id: tokenId,
      sym: 'GEM',
      dec: 2,
      amount: '2100000000',
      pendingAmount: '0',
      invalidAmount: '0',
      validity: 'valid',
      outputs: 1,
    });
    const details = await call(a, 'GET', `/v1/bsv21/${tokenId}`);
    assert.equal(details.status, 200, JSON.stringify(details.body));
    assert.deepEqual(
      [details.body.data.sym, details.body.data.dec, details.body.data.supply, details.body.data.held],
      ['GEM', 2, '2100000000', '2100000000'],
    );
    // Amounts are decimal strings of unsigned 64-bit integers; anything else is refused before anything is signed.
    for (const amt of ['18446744073709551616', '-1', '1.5', '1e9', '0'])
      assert.equal(
        (await call(a, 'POST', '/v1/bsv21/deploy', { headers: { walletID: alice }, body: { sym: 'BAD', amt } })).status,
        400,
        amt,
      );
  });

  it('A sends to B (another instance): B sees a valid balance, A keeps the change, History shows the token', async () => {
    const to = await addressOf(b, bob);
    const r = await call(a, 'POST', '/v1/bsv21/send', { headers: { walletID: alice }, body: { tokenId, to, amount: '500000000' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.data.amount, r.body.data.change], ['500000000', '1600000000']);
    const sent = r.body.data.txid as string;
    assert.equal(balanceOf(await ordinals(a, alice))?.amount, '1600000000');
    const seen = await until(
      "B's balance",
      async () => {
        const t = balanceOf(await ordinals(b, bob));
        return t?.validity === 'valid' ? t : undefined;
      },
      30_000,
    );
    assert.deepEqual([seen.sym, seen.dec, seen.amount], ['GEM', 2, '500000000']);
    const hist = (await call(a, 'GET', '/v1/history', { headers: { walletID: alice } })).body.data.history as {
      txid: string;
      fee: number | null;
      counterparty: string | null;
      tokens: { id: string; symbol: string; amount: number; direction: string }[];
    }[];
    const row = hist.find((h) => h.txid === sent)!;
    assert.deepEqual(row.tokens, [{ id: tokenId, protocol: 'BSV-21', symbol: 'GEM', amount: 500000000, direction: 'out', proven: true }]);
    assert.equal(row.fee, r.body.data.fee);
    assert.equal(row.counterparty, to);
  });

  it('B sends part back; a transfer forged by an outside key is invalid and never counted', async () => {
    const r = await call(b, 'POST', '/v1/bsv21/send', {
      headers: { walletID: bob },
      body: { tokenId, to: await addressOf(a, alice), amount: '1000' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(balanceOf(await ordinals(b, bob))?.amount, '499999000');
    await until(
      'A receives it back',
      async () => ((balanceOf(await ordinals(a, alice))?.amount ?? '') === '1600001000' ? true : undefined),
      30_000,
    );

    // The outside key inscribes a transfer of 9,000,000,000 GEM to Bob, spending no token at all.
    const forged = await outsideTx([
      {
        script: ordP2pkhScript(
          pkhOf(await addressOf(b, bob)),
          'application/bsv-20',
          bsv21Json({ op: 'transfer', id: tokenId, amt: '9000000000' }),
        ),
        satoshis: 1,
      },
    ]);
    const list = await until(
      'B decides the forged transfer',
      async () => {
        const l = await ordinals(b, bob);
        return l.inscriptions.find((i) => i.txid === forged)?.bsv21?.validity === 'invalid' ? l : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      [balanceOf(list)?.amount, balanceOf(list)?.invalidAmount, balanceOf(list)?.validity],
      ['499999000', '9000000000', 'valid'],
    );
    // Only valid outputs are spent: B cannot send what the forgery claims.
    const greedy = await call(b, 'POST', '/v1/bsv21/send', {
      headers: { walletID: bob },
      body: { tokenId, to: outside.toAddress(), amount: '500000000' },
    });
    assert.notEqual(greedy.status, 200, JSON.stringify(greedy.body));
    assert.match(JSON.stringify(greedy.body), /holds 499999000 valid units of GEM/);
  });

  it('lookup of a key lists its BSV-21 tokens (protocol BSV-21, id, symbol, decimals, amount), never forged ones', async () => {
    const r = await call(a, 'POST', '/v1/bsv21/send', {
      headers: { walletID: alice },
      body: { tokenId, to: outside.toAddress(), amount: '12345' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await outsideTx([
      {
        script: ordP2pkhScript(pkhOf(outside.toAddress()), 'application/bsv-20', bsv21Json({ op: 'transfer', id: tokenId, amt: '777' })),
        satoshis: 1,
      },
    ]);
    for (const o of [a, b]) {
      const coins = await until(
        'the lookup entry',
        async () => {
          const l = await call(o, 'POST', '/v1/lookup', { body: { privateKey: outside.toWif() } });
          assert.equal(l.status, 200, JSON.stringify(l.body));
          const c = (l.body.data.coins as { protocol: string }[]).filter((x) => x.protocol === 'BSV-21');
          return c.length ? c : undefined;
        },
        30_000,
      );
      assert.deepEqual(coins, [
        { protocol: 'BSV-21', tokenId, symbol: 'GEM', decimals: 2, amount: 12345, address: outside.toAddress(), proven: true },
      ]);
    }
  });

  it('inscriptions: listed with type and size, served sandboxed, sent as a 1-satoshi output and traced by the receiver', async () => {
    const pkh = pkhOf(await addressOf(a, alice));
    const txid = await outsideTx([
      { script: ordP2pkhScript(pkh, 'text/plain', Buffer.from('hello, ordinals')), satoshis: 1 },
      { script: ordP2pkhScript(pkh, 'text/html', Buffer.from('<script>alert(1)</script>')), satoshis: 1 },
    ]);
    const list = await until(
      'A lists the inscriptions',
      async () => {
        const l = await ordinals(a, alice);
        return l.inscriptions.filter((i) => i.txid === txid).length === 2 ? l : undefined;
      },
      30_000,
    );
    const text = list.inscriptions.find((i) => i.outpoint === `${txid}_0`)!;
    assert.deepEqual([text.contentType, text.kind, text.size, text.bsv21], ['text/plain', 'text', 15, null]);
    const raw = await call(a, 'GET', `/v1/ordinals/${txid}_0/content`);
    assert.equal(raw.status, 200);
    assert.equal(raw.body, 'hello, ordinals');
    assert.equal(raw.headers.get('content-security-policy'), "sandbox; default-src 'none'");
    assert.equal(raw.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(raw.headers.get('content-disposition'), null);
    const html = await call(a, 'GET', `/v1/ordinals/${txid}_1/content`);
    assert.deepEqual(
      [html.headers.get('content-type'), html.headers.get('content-disposition')],
      ['application/octet-stream', 'attachment'],
      'HTML is never served as a page',
    );
    assert.equal((await request(a.host.url, 'GET', `/v1/ordinals/${txid}_0/content`)).status, 401, 'credentials needed');
    assert.equal((await call(a, 'GET', `/v1/ordinals/${'00'.repeat(32)}_0/content`)).status, 404, 'only what a wallet holds');

    const sent = await call(a, 'POST', '/v1/ordinals/send', {
      headers: { walletID: alice },
      body: { outpoint: `${txid}_0`, to: await addressOf(b, bob) },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.ok(!(await ordinals(a, alice)).inscriptions.some((i) => i.outpoint === `${txid}_0`));
    const got = await until(
      'B traces the inscription on its 1-satoshi coin',
      async () => (await ordinals(b, bob)).inscriptions.find((i) => i.outpoint === sent.body.data.outpoint),
      30_000,
    );
    assert.deepEqual([got.contentType, got.size], ['text/plain', 15]);
    const content = await call(b, 'GET', `/v1/ordinals/${sent.body.data.outpoint}/content`);
    assert.equal(content.body, 'hello, ordinals');
    // A token output is not sent as an inscription (it would burn the tokens).
    const tokenOutput = (await ordinals(a, alice)).inscriptions.find((i) => i.bsv21?.tokenId === tokenId)!;
    const burn = await call(a, 'POST', '/v1/ordinals/send', {
      headers: { walletID: alice },
      body: { outpoint: tokenOutput.outpoint, to: outside.toAddress() },
    });
    assert.equal(burn.status, 400, JSON.stringify(burn.body));
  });

  it("no 1-satoshi output ever paid a fee: A's lone satoshi and B's inscribed coin are unspent after every payment", async () => {
    // A payment that needs nearly every coin of B's still leaves the inscribed 1-satoshi coin alone.
    const pay = await call(b, 'POST', '/v1/send', {
      headers: { walletID: bob },
      body: { dataArray: [{ to: outside.toAddress(), satoshis: 50_000 }] },
    });
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    const aCoins = await coinsOf(a, alice);
    assert.equal(aCoins.filter((c) => c.protocol === 'BSV' && c.balance === 1).length, 1, "A's lone satoshi is still a coin of A's");
    const bList = await ordinals(b, bob);
    assert.equal(bList.inscriptions.filter((i) => i.contentType === 'text/plain').length, 1, "B's inscribed satoshi is still B's");
  });
});

import { P2PKH, PrivateKey } from '@bsv/sdk';
import { rmSync } from 'node:fs';
import type { PolicyDocumentInput } from '../shared/contracts/policies.js';
import { OPERATIONS } from '../shared/operations.js';
import { benchApi } from './api.js';
import { interleaved, report } from './lib.js';
import { benchRuntime, benchWallet, fanOutCoins, json } from './seed.js';

export const MEASURES = ['pay-policy'];

/**
 * Ten rules none of which stops the bench's pay, each failing as late as a real policy's would: the
 * initiator and wallet conditions hold, so amounts, destinations (a payee-book lookup per output) and
 * windows (a sum over the value moves) are evaluated; the default allows.
 */
const TEN_RULES: PolicyDocumentInput = {
  rules: [
    { when: { initiator: { roles: ['operator'] } }, action: 'deny', reason: 'operators use their own wallets' },
    { when: { amountOver: { satoshis: 1_000_000_000 } }, action: 'deny', reason: 'over 10 BSV' },
    { when: { assets: ['tokens'], amountOver: { tokens: 1_000 } }, action: 'approve', approvals: { count: 1, roles: ['manager'] } },
    { when: { assets: ['nfts'] }, action: 'approve', approvals: { count: 1, roles: ['manager'] } },
    { when: { destination: { kind: 'paymailDomains', domains: ['example.com'] } }, action: 'deny', reason: 'not there' },
    {
      when: { destination: { kind: 'notInBook' }, amountOver: { satoshis: 100_000_000 } },
      action: 'approve',
      approvals: { count: 2, roles: ['manager'] },
    },
    { when: { window: { per: 'initiator', period: '24h', over: { satoshis: 1_000_000_000_000 } } }, action: 'deny', reason: 'daily limit' },
    { when: { window: { per: 'wallet', period: '7d', over: { satoshis: 1_000_000_000_000 } } }, action: 'deny', reason: 'weekly limit' },
    {
      when: { amountOver: { value: { currency: 'USD', amount: '1000000' } } },
      action: 'approve',
      approvals: { count: 1, roles: ['admin'] },
    },
    {
      when: { initiator: { roles: ['api_user'] }, window: { per: 'initiator', period: '30d', over: { satoshis: 1 } } },
      action: 'deny',
      reason: 'scripts',
    },
  ],
  default: { action: 'allow' },
};

/** pay-policy: one pay through the API with ten rules in force / the same pay with no policy (two instances, alternately). Goal ≤ 1.05. */
export async function run(): Promise<void> {
  const N = 150;
  const plain = await benchRuntime();
  const ruled = await benchRuntime();
  try {
    const set = await json(`${ruled.runtime.url}/api/v1/policies`, 'POST', { document: TEN_RULES }, ruled.auth);
    if (set.data?.active?.version !== 1) throw new Error(`the policy was not set: ${JSON.stringify(set.data)}`);
    const to = new P2PKH().lock(PrivateKey.fromRandom().toAddress()).toHex();
    const pays = await Promise.all(
      [plain, ruled].map(async (r) => {
        const w = await benchWallet(r.runtime, r.auth, 'Bench');
        await fanOutCoins(r.runtime.node!, w.address, N + 30, 20_000);
        const api = benchApi(r.runtime.url, r.auth);
        return () => api.call(OPERATIONS.pay, { outputs: [{ script: to, satoshis: 5_000 }], memo: 'bench', walletId: w.walletID });
      }),
    );
    const { floor, measured } = await interleaved(
      ['POST /v1/pay, no policy', pays[0]],
      ['POST /v1/pay, ten rules in force', pays[1]],
      N,
      20,
    );
    report({ name: 'pay-policy', bench: 'one pay with ten policy rules in force / one pay with none', floor, measured, goal: 1.05 });
  } finally {
    for (const r of [plain, ruled]) {
      await r.runtime.close();
      rmSync(r.dataDir, { recursive: true, force: true });
    }
  }
}

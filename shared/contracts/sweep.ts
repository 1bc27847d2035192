import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';
import { walletId, withWalletId } from '../wallet-schemas.js';
import { WALLET_USERS } from './access.js';

export const SWEEP_OPERATIONS = byName(
  defineOperation({
    name: 'drop',
    input: withWalletId(
      z.object({
        walletId,
        /** WIF or 64 hex; never stored, never logged. The SDK sends it as a header. */
        privateKey: z.string({ error: 'must be a string' }).trim().max(200, { error: 'is too long' }).optional(),
        /** The SDK's other header for the key, taken when `privateKey` is absent. */
        secretKey: z.string({ error: 'must be a string' }).trim().max(200, { error: 'is too long' }).optional(),
        /**
         * The SDK's `{dataArray: [{to, amount, …}]}`: accepted, but a sweep moves everything the key holds into
         * the wallet (walletID, or the caller's default wallet); amounts are not taken from it.
         */
        dataArray: z.array(z.unknown()).max(100).optional(),
      }),
    ),
    output: z.object({
      walletID: z.string(),
      /** The key's address. */
      address: z.string(),
      /** Every transaction the sweep sent: each token transfer, then the BSV. */
      txIds: z.array(z.string()),
      /** The BSV sweep: satoshis taken from the key, the fee, what the wallet received, and its txid (null when no BSV was left). */
      bsv: z.object({ txid: z.string().nullable(), satoshis: z.number().int(), fee: z.number().int(), received: z.number().int() }),
      tokens: z.array(
        z.object({ txid: z.string(), tokenId: z.string(), protocol: z.string(), satoshis: z.number().int(), fee: z.number().int() }),
      ),
      /** Outputs at the key left where they are, and why. */
      skipped: z.array(z.object({ txid: z.string(), vout: z.number().int(), reason: z.string() })),
    }),
    access: WALLET_USERS,
    summary:
      'Sweeps a private key: moves everything it holds (BSV, and the tokens the books know at its address) into a wallet, fees taken from the swept BSV. The key is never stored.',
    msg: 'Funds swept successfully',
    rest: [{ method: 'POST', path: '/v1/drop', wallet: true, body: true, headers: ['privateKey', 'secretKey'] }],
    audit: true,
  }),
);

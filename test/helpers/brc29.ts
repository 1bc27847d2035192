import assert from 'node:assert/strict';
import {
  Hash,
  MerklePath,
  P2PKH,
  ProtoWallet,
  Random,
  SatoshisPerKilobyte,
  Transaction,
  Utils,
  type PrivateKey,
  type WalletInterface,
  type WalletProtocol,
} from '@bsv/sdk';
import { request } from './http.js';
import { orgCall, type Org } from './org.js';

/** BRC-29's protocol: a paid coin's key is the BRC-42 child for it, key id `<prefix> <suffix>`, the sender as counterparty. */
export const BRC29: WalletProtocol = [2, '3241645161d8'];

/**
 * A BRC-29 payment of `satoshis` into the wallet whose BRC-100 identity key is `identity`, from a fresh mined
 * faucet coin (100,000 satoshis) of `sender`, internalized by `app` (which so knows the coin key's derivation).
 * Answers the payment's txid and the coin key's id.
 */
export async function internalizeBrc29Payment(
  org: Org,
  app: Pick<WalletInterface, 'internalizeAction'>,
  p: { sender: PrivateKey; identity: string; satoshis: number; description: string },
): Promise<{ txid: string; keyID: string }> {
  const funded = await orgCall(org, 'POST', '/chain/faucet', { body: { address: p.sender.toAddress(), satoshis: 100_000 } });
  assert.equal(funded.status, 200, JSON.stringify(funded.body));
  await orgCall(org, 'POST', '/chain/mine', { body: {} });
  const fundTxid = funded.body.data.txid as string;
  const source = Transaction.fromHex((await request(org.host.url, 'GET', `/chain/woc/v1/bsv/local/tx/${fundTxid}/hex`)).body as string);
  source.merklePath = MerklePath.fromHex(
    ((await request(org.host.url, 'GET', `/chain/arc/v1/tx/${fundTxid}`)).body as { merklePath: string }).merklePath,
  );
  const [derivationPrefix, derivationSuffix] = [Utils.toBase64(Random(8)), Utils.toBase64(Random(8))];
  const keyID = `${derivationPrefix} ${derivationSuffix}`;
  const { publicKey } = await new ProtoWallet(p.sender).getPublicKey({ protocolID: BRC29, keyID, counterparty: p.identity });
  const tx = new Transaction();
  tx.addInput({
    sourceTransaction: source,
    sourceOutputIndex: source.outputs.findIndex((o) => o.satoshis === 100_000),
    unlockingScriptTemplate: new P2PKH().unlock(p.sender),
  });
  tx.addOutput({ lockingScript: new P2PKH().lock(Hash.hash160(Utils.toArray(publicKey, 'hex'))), satoshis: p.satoshis });
  tx.addOutput({ lockingScript: new P2PKH().lock(p.sender.toAddress()), change: true });
  await tx.fee(new SatoshisPerKilobyte(1));
  await tx.sign();
  const r = await app.internalizeAction({
    tx: tx.toAtomicBEEF(),
    outputs: [
      {
        outputIndex: 0,
        protocol: 'wallet payment',
        paymentRemittance: { derivationPrefix, derivationSuffix, senderIdentityKey: p.sender.toPublicKey().toString() },
      },
    ],
    description: p.description,
  });
  assert.deepEqual(r, { accepted: true });
  return { txid: tx.id('hex'), keyID };
}

import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { NFT_PROTOCOL_IDS } from '../../../shared/token-schemas.js';
import type { OpContext } from '../context.js';
import { currentFeePolicy } from '../payments/plan.js';
import { resolveWallet } from '../wallets/resolve.js';
import { addressOfPkh } from './ledger.js';
import { gather, runBatch, templateOf, tokenOf } from './send.js';
import type { TokenServices } from './services.js';
import { submitTokenSpend } from './spend.js';

type RedeemInput = ParsedInputOf<typeof OPERATIONS.redeemToken>;

/**
 * Redeems tokens: the token outputs are dissolved and their satoshis paid to the redemption address (the
 * issuer's). A fungible token (KST-20, STAS-20) is redeemed by its issuer, from outputs at the redemption
 * address; the rest of a partly redeemed output stays a token there. An NFT is redeemed by whoever holds it.
 */
export async function redeemToken(ctx: OpContext<TokenServices>, input: RedeemInput): Promise<OutputOf<typeof OPERATIONS.redeemToken>> {
  const { services } = ctx;
  const wallet = await resolveWallet(ctx, input.walletId);
  return runBatch(
    input.dataArray,
    async (item) => {
      const token = tokenOf(services, item.tokenId);
      const template = templateOf(services, token);
      const account = await services.keyring.open(wallet);
      const policy = await currentFeePolicy(services);
      const redeemAddr = addressOfPkh(token.redemptionPkh);
      if (NFT_PROTOCOL_IDS.includes(token.protocol)) {
        if (item.sn === undefined) throw new DomainError('VALIDATION_FAILED', 'sn: name the NFT to redeem by its serial number');
        const u = services.repos.tokens.spendable(wallet.id, token.tokenId).find((x) => x.sn === item.sn);
        if (!u) throw new DomainError('NOT_FOUND', `This wallet holds no spendable ${token.symbol} #${item.sn}.`);
        const r = await submitTokenSpend(services, {
          wallet,
          account,
          template,
          kind: 'redeem',
          inputs: [u],
          tokenOutputs: [],
          redeem: { owner: token.redemptionPkh, satoshis: u.satoshis },
          delivery: null,
          memo: `Redeem ${token.symbol} #${item.sn}`,
          counterparty: redeemAddr,
          policy,
        });
        return [r.txid];
      }
      if (item.amount === undefined) throw new DomainError('VALIDATION_FAILED', 'amount: say how many tokens to redeem');
      const satoshis = item.amount * token.satsPerToken;
      const atRedemption = (u: { address: string }) => !template.issuerRedeemsOnly || u.address === redeemAddr;
      if (template.issuerRedeemsOnly && !services.repos.tokens.spendable(wallet.id, token.tokenId).some(atRedemption)) {
        throw new DomainError(
          'CONFLICT',
          `${token.protocol} tokens are redeemed by their issuer: they must be held at the redemption address ${redeemAddr}. Send them there first.`,
          { redeemAddr },
        );
      }
      const { inputs, merged } = await gather(ctx, wallet, account, token, template, satoshis, policy, atRedemption);
      const total = inputs.reduce((n, u) => n + u.satoshis, 0);
      // A merge cannot also redeem: merge the two first, then redeem from the one output.
      let source = inputs;
      const txIds = [...merged];
      if (inputs.length === 2) {
        const m = await submitTokenSpend(services, {
          wallet,
          account,
          template,
          kind: 'merge',
          inputs,
          tokenOutputs: [{ owner: inputs[0].script.slice(6, 46), satoshis: total }],
          redeem: null,
          delivery: null,
          memo: `Merge ${token.symbol}`,
          counterparty: null,
          policy,
        });
        txIds.push(m.txid);
        source = services.repos.tokens.outputsOf(m.txid).filter((u) => u.status === 'available' && u.validity === 'valid');
        if (!source.length)
          throw new DomainError('CONFLICT', `The merge ${m.txid} is not on the books yet; redeem again once it is.`, { txIds });
      }
      const rest = source[0].satoshis - satoshis;
      const r = await submitTokenSpend(services, {
        wallet,
        account,
        template,
        kind: 'redeem',
        inputs: [source[0]],
        tokenOutputs: rest > 0 ? [{ owner: source[0].script.slice(6, 46), satoshis: rest }] : [],
        redeem: { owner: token.redemptionPkh, satoshis },
        delivery: null,
        memo: `Redeem ${item.amount} ${token.symbol}`,
        counterparty: redeemAddr,
        policy,
      });
      return [...txIds, r.txid];
    },
    'redemption',
  );
}

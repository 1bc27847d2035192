import { LockingScript, P2PKH, Transaction } from '@bsv/sdk';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../../../shared/errors.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import { isDust, requiredFee } from '../../chain/policy.js';
import type { FeePolicy } from '../../chain/types.js';
import type { WalletUtxo } from '../../store/repos/wallet-utxos.js';
import type { OpContext } from '../context.js';
import type { SigningAccount } from '../payments/keyring.js';
import { currentFeePolicy } from '../payments/plan.js';
import { plannedPayment, recordValueMove, sendRecordedMove } from '../payments/value-flow.js';
import { resolveWallet } from '../wallets/resolve.js';
import { reserveFunding } from './funding.js';
import { contractScript, type TokenSchema } from './schema.js';
import type { TokenServices } from './services.js';
import { pkhOfPubKey } from './spend.js';
import { utf8Hex } from '../token-templates/script-bytes.js';
import { tokenIdOf, type TokenProtocol, type TokenTemplate } from '../token-templates/template.js';

type IssueInput = ParsedInputOf<typeof OPERATIONS.issueToken>;
type IssueOutput = OutputOf<typeof OPERATIONS.issueToken>;

/** The most NFTs one issue creates (one output each). */
export const MAX_NFTS_PER_ISSUE = 500;

export function missingTemplate(protocol: string): DomainError {
  return new DomainError(
    'CONFLICT',
    `The ${protocol} template is not installed. STAS templates are licensed, so Keystead does not ship them: an admin installs the organisation's licensed template with POST /api/v1/tokenTemplates {protocolId, template}, or starts Keystead with --token-templates <dir> holding ${protocol}.hex.`,
    { protocolId: protocol },
  );
}

/**
 * Issues a token (the STAS lifecycle, for every template): the contract transaction pays the issuer's
 * P2PKH with the schema after OP_RETURN, worth the whole supply in satoshis; the issue transaction spends
 * it (only the issuer's key can) into the token outputs: the supply in one output, or one per NFT with its
 * serial's data. The issuer's key hash is the redemption key hash and, with the symbol, the token id.
 * `reminting` re-issues supply that was redeemed, under the same id. Fees: the fee manager's when set up.
 */
export async function issueToken(ctx: OpContext<TokenServices>, input: IssueInput): Promise<IssueOutput> {
  const { services } = ctx;
  const { repos } = services;
  const protocol = input.protocolId as TokenProtocol;
  const template = services.tokenTemplates.get(protocol);
  if (!template) throw missingTemplate(protocol);
  const nft = !template.fungible;
  const splittable = protocol === 'STAS' ? input.splitable !== false : template.fungible;
  if (input.splitable === true && nft)
    throw new DomainError(
      'VALIDATION_FAILED',
      `splitable: ${protocol} tokens are NFTs and cannot be split; use KST-20 or STAS-20 for a splittable token`,
    );
  if (input.splitable === false && template.fungible && protocol !== 'STAS')
    throw new DomainError('VALIDATION_FAILED', `splitable: ${protocol} tokens are always splittable; use KST-789 or STAS-789 for NFTs`);
  if (nft && input.tokenSupply > MAX_NFTS_PER_ISSUE)
    throw new DomainError('VALIDATION_FAILED', `tokenSupply: an NFT issue creates one output per token, at most ${MAX_NFTS_PER_ISSUE}`);
  const dataKeys = Object.keys(input.data ?? {}).map(Number);
  if (!nft && dataKeys.length) throw new DomainError('VALIDATION_FAILED', 'data: per-token data is for NFTs (KST-789, STAS-789)');
  if (dataKeys.some((sn) => sn > input.tokenSupply))
    throw new DomainError('VALIDATION_FAILED', `data: serial numbers run from 1 to tokenSupply (${input.tokenSupply})`);
  const satoshis = input.tokenSupply * input.satsPerToken;
  if (!Number.isSafeInteger(satoshis) || satoshis > 21e14)
    throw new DomainError('VALIDATION_FAILED', 'tokenSupply × satsPerToken is more satoshis than exist');

  const wallet = await resolveWallet(ctx, input.walletId);
  const account = await services.keyring.open(wallet);
  const policy = await currentFeePolicy(services);

  // The issuer's key: a fresh receive address, or the token's own when reminting.
  let issuer: { chain: number; idx: number };
  let tokenId: string;
  const symbol = input.symbol.toUpperCase();
  if (input.reminting) {
    const existing = repos.tokens.all().find((t) => t.symbol === symbol && t.issuerWalletRow === wallet.id && t.protocol === protocol);
    if (!existing || existing.issuerChain === null || existing.issuerIdx === null)
      throw new DomainError('NOT_FOUND', `reminting: this wallet has not issued a ${protocol} token ${symbol}`);
    if (!template.fungible) throw new DomainError('CONFLICT', 'reminting: NFTs keep their serials; issue a new token instead');
    const room = (JSON.parse(existing.schema) as TokenSchema).totalSupply - (existing.supply - existing.redeemed);
    if (input.tokenSupply > room)
      throw new DomainError('CONFLICT', `reminting: only redeemed supply can be issued again; ${room} token(s) can be reminted now`, {
        available: room,
      });
    if (input.satsPerToken !== existing.satsPerToken)
      throw new DomainError('VALIDATION_FAILED', `satsPerToken: must stay ${existing.satsPerToken} when reminting`);
    issuer = { chain: existing.issuerChain, idx: existing.issuerIdx };
    tokenId = existing.tokenId;
  } else {
    issuer = services.db.transaction(() => {
      services.addressBook.ensureGap(wallet, 0);
      const [next] = repos.addresses.unused(wallet.id, 0, 1);
      repos.addresses.markUsed(wallet.id, next.address);
      return repos.addresses.owner(next.address)!;
    })();
    tokenId = tokenIdOf({ redemption: pkhOfPubKey(account, issuer.chain, issuer.idx), symbol });
    if (repos.tokens.get(tokenId))
      throw new DomainError('CONFLICT', `The token ${tokenId} was issued already; use the reminting header to issue redeemed supply again`);
  }
  const issuerKey = account.key(issuer.chain, issuer.idx);
  const issuerPkh = pkhOfPubKey(account, issuer.chain, issuer.idx);
  const schema: TokenSchema = {
    name: input.name,
    protocolId: protocol,
    symbol,
    description: input.description,
    image: input.image ?? '',
    totalSupply: input.reminting ? (JSON.parse(repos.tokens.get(tokenId)!.schema) as TokenSchema).totalSupply : input.tokenSupply,
    decimals: input.decimals,
    satsPerToken: input.satsPerToken,
    properties: (input.properties ?? {}) as Record<string, unknown>,
    tokenId: issuerPkh,
  };

  // 1. The contract transaction.
  const contract = { script: contractScript(issuerPkh, schema), satoshis };
  if (isDust(satoshis, contract.script, policy))
    throw new DomainError('VALIDATION_FAILED', `tokenSupply × satsPerToken (${satoshis}) is below the dust limit`);
  const contractMove = await recordValueMove(services, {
    intent: { kind: 'token-contract', wallet, outputs: [contract], tokenId },
    ...broadcastMove(account, policy, `Token contract ${symbol}`),
    ...plannedPayment(services, wallet, account, [contract], policy),
  });
  const contractTxid = (await sendRecordedMove(services, contractMove)).txid;
  const { plan } = contractMove.reservation;

  // 2. The issue transaction, funded by the payer's change from the contract (else another coin).
  const outputs = issueOutputs(template, {
    issuerPkh,
    symbol,
    splittable,
    nft,
    supply: input.tokenSupply,
    satsPerToken: input.satsPerToken,
    data: input.data ?? {},
  });
  const payer = plan.feeManager?.wallet ?? wallet;
  const payerChange = plan.feeManager ? plan.feeManager.change?.address : plan.change?.address;
  const contractTx = contractMove.submission.tx;
  const changeScript = payerChange ? new P2PKH().lock(payerChange).toHex() : null;
  const changeVout = changeScript ? contractTx.outputs.findIndex((o, i) => i > 0 && o.lockingScript.toHex() === changeScript) : -1;
  const estimate = requiredFee(300 + outputs.reduce((n, o) => n + o.script.length / 2 + 12, 0) + contract.script.length / 2 + 300, policy);
  const issueMove = await recordValueMove(services, {
    intent: { kind: 'token-issue', wallet, outputs: outputs.map((o) => ({ script: o.script, satoshis: o.satoshis })), tokenId },
    ...broadcastMove(account, policy, `Token issue ${symbol}`),
    reserve: () => {
      const attempt = randomUUID();
      const chained = changeVout > 0 ? repos.walletUtxos.get(contractTxid, changeVout) : null;
      const enough = chained && chained.status === 'available' && chained.satoshis >= estimate + policy.dustLimit;
      if (chained && enough && repos.walletUtxos.reserve([chained], attempt, services.now())) {
        const paidBy = plan.feeManager ? ('feeManager' as const) : ('wallet' as const);
        return { attempt, changeAddresses: [], funding: { coin: chained, wallet: payer, paidBy } };
      }
      // The change address reserveFunding claims stays unused: the issue's change goes back to its funding coin's address.
      return { attempt, changeAddresses: [], funding: reserveFunding(services, wallet, estimate, attempt, policy) };
    },
    build: async ({ funding }) => {
      const fundingAccount = funding.wallet.id === wallet.id ? account : await services.keyring.open(funding.wallet);
      const tx = await buildIssue(contractTxid, contract, issuerKey, funding.coin, fundingAccount, outputs, policy);
      const fee = funding.coin.satoshis - (tx.outputs.length > outputs.length ? tx.outputs[outputs.length].satoshis! : 0);
      return { tx, fee, feePaidBy: funding.paidBy, cancel: null };
    },
    alsoRecord: ({ result: { txid: issueTxid } }) => {
      if (input.reminting) repos.tokens.remint(tokenId, input.tokenSupply, contractTxid, issueTxid);
      else {
        repos.tokens.insert({
          tokenId,
          protocol,
          symbol,
          name: input.name,
          redemptionPkh: issuerPkh,
          schema: JSON.stringify(schema),
          supply: input.tokenSupply,
          satsPerToken: input.satsPerToken,
          decimals: input.decimals,
          splittable,
          issuerWalletRow: wallet.id,
          issuerChain: issuer.chain,
          issuerIdx: issuer.idx,
          contractTxid,
          issueTxid,
          createdAt: services.now(),
        });
        if (nft) outputs.forEach((o, vout) => repos.tokens.addSerial(tokenId, vout + 1, o.data, issueTxid, vout));
      }
    },
  });
  try {
    const issued = await sendRecordedMove(services, issueMove);
    return { tokenId, contractTxid, issueTxid: issued.txid, tokenObj: { ...schema } as Record<string, unknown> };
  } catch (err) {
    if (err instanceof DomainError)
      throw new DomainError(
        err.code,
        `The contract transaction ${contractTxid} was sent, but the issue transaction failed: ${err.message}`,
        { ...err.details, contractTxid },
      );
    throw err;
  }
}

interface IssueOutput_ {
  script: string;
  satoshis: number;
  data: string[];
}

function issueOutputs(
  template: TokenTemplate,
  t: {
    issuerPkh: string;
    symbol: string;
    splittable: boolean;
    nft: boolean;
    supply: number;
    satsPerToken: number;
    data: Record<string, string[]>;
  },
): IssueOutput_[] {
  const lock = (data: string[]) =>
    template.lock({ owner: t.issuerPkh, redemption: t.issuerPkh, symbol: t.symbol, data: data.map(utf8Hex), splittable: t.splittable });
  if (!t.nft) return [{ script: lock([]), satoshis: t.supply * t.satsPerToken, data: [] }];
  return Array.from({ length: t.supply }, (_, i) => {
    const data = t.data[String(i + 1)] ?? [];
    return { script: lock(data), satoshis: t.satsPerToken, data };
  });
}

/** The issue transaction: the contract output (signed by the issuer) and the funding coin in; the token outputs and the change out. */
async function buildIssue(
  contractTxid: string,
  contract: { script: string; satoshis: number },
  issuerKey: ReturnType<SigningAccount['key']>,
  coin: WalletUtxo,
  fundingAccount: SigningAccount,
  outputs: IssueOutput_[],
  policy: FeePolicy,
): Promise<Transaction> {
  let change = coin.satoshis;
  for (let round = 0; round < 5; round++) {
    const tx = new Transaction(1, [], [], 0);
    tx.addInput({
      sourceTXID: contractTxid,
      sourceOutputIndex: 0,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(issuerKey, 'all', false, contract.satoshis, LockingScript.fromHex(contract.script)),
    });
    tx.addInput({
      sourceTXID: coin.txid,
      sourceOutputIndex: coin.vout,
      sequence: 0xffffffff,
      unlockingScriptTemplate: new P2PKH().unlock(
        fundingAccount.keyFor(coin),
        'all',
        false,
        coin.satoshis,
        LockingScript.fromHex(coin.script),
      ),
    });
    for (const o of outputs) tx.addOutput({ lockingScript: LockingScript.fromHex(o.script), satoshis: o.satoshis });
    if (change > 0) tx.addOutput({ lockingScript: LockingScript.fromHex(coin.script), satoshis: change });
    await tx.sign();
    const fee = requiredFee(tx.toBinary().length, policy);
    if (coin.satoshis - change >= fee) return tx;
    const next = coin.satoshis - fee;
    if (next < 0)
      throw new DomainError('INSUFFICIENT_FUNDS', `The issue transaction's fee is ${fee} satoshis; its funding coin has ${coin.satoshis}.`);
    change = next >= policy.dustLimit ? next : 0;
  }
  throw new Error('the issue transaction fee did not settle');
}

/** The issue's two transactions are broadcast, with no counterparty, and shown first in the issuer's history. */
function broadcastMove(account: SigningAccount, policy: FeePolicy, memo: string) {
  return { account, policy, memo, counterparty: null, delivery: null };
}

import { OPERATIONS, type FeeUtxo } from '../../../shared/operations.js';
import { FEE_MANAGER_LOW_BALANCE } from '../../../shared/contracts/fees.js';
import type { ParsedInputOf, OutputOf } from '../../../shared/operation.js';
import { requiredFee } from '../../chain/policy.js';
import { callerOf, type OpContext } from '../context.js';
import type { WalletServices } from '../wallets/services.js';
import { DomainError } from '../../../shared/errors.js';
import { P2PKH_INPUT_BYTES } from '../payments/coin-select.js';
import { createWalletFor } from '../wallets/create.js';
import { FEE_MANAGER_WALLET_ID } from '../wallets/fee-manager-id.js';

function feeWallet(ctx: OpContext<WalletServices>) {
  const w = ctx.services.repos.wallets.feeManager();
  if (!w) throw new DomainError('NOT_FOUND', 'The fee manager is not initialised yet. Call initBeta first.');
  return w;
}

/**
 * Creates the organisation's fee wallet: an escrow HD wallet (optionally from a given mnemonic) that
 * then pays the network fee of every payment the organisation's wallets make, when it can.
 */
export async function feeManagerInit(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.feeManagerInit>,
): Promise<OutputOf<typeof OPERATIONS.feeManagerInit>> {
  if (ctx.services.repos.wallets.feeManager()) throw new DomainError('CONFLICT', 'The fee manager is already initialised.');
  // Whoever supplies the phrase holds, outside Keystead, every satoshi the organisation puts into it.
  if (input.mnemonic && callerOf(ctx).role !== 'admin')
    throw new DomainError(
      'FORBIDDEN',
      'Only an admin may create the fee manager from a recovery phrase of their own: whoever knows the phrase holds its coins outside Keystead. Leave mnemonic out to have a new one made.',
    );
  const w = await createWalletFor(
    ctx,
    callerOf(ctx).uid,
    { walletTitle: 'Fee manager', type: 'escrow', mnemonicPhrase: input.mnemonic, derivationPath: 'bip44-btc' },
    FEE_MANAGER_WALLET_ID,
  );
  if (input.mnemonic) await ctx.services.sync.scanWallet(w).catch(() => undefined);
  const [first] = ctx.services.addressBook.available(w, 1);
  return { walletID: w.walletId, address: first.address };
}

export function feeManagerAddresses(ctx: OpContext<WalletServices>): OutputOf<typeof OPERATIONS.feeManagerAddresses> {
  return { addresses: ctx.services.addressBook.available(feeWallet(ctx)).map((a) => a.address) };
}

export async function feeManagerMetrics(
  ctx: OpContext<WalletServices>,
  input: ParsedInputOf<typeof OPERATIONS.feeManagerMetrics>,
): Promise<OutputOf<typeof OPERATIONS.feeManagerMetrics>> {
  const w = feeWallet(ctx);
  try {
    await ctx.services.sync.scanWallet(w); // "refreshes the UTXO state"
  } catch {
    /* the provider is unreachable: report what is known */
  }
  let dustBelow = 1;
  try {
    dustBelow = requiredFee(P2PKH_INPUT_BYTES, await ctx.services.chain.getFeePolicy()) + 1;
  } catch {
    /* keep the default */
  }
  // Spent outputs only when asked for (includeSpent), as the public service lists them.
  const rows = ctx.services.repos.walletUtxos.listed(w.id, 200, input.includeSpent === true);
  const utxos: FeeUtxo[] = rows.map((u) => ({
    script: u.script,
    tx_pos: u.vout,
    address: u.address,
    path: `${w.derivationPath}/${u.chain ?? 0}/${u.idx ?? 0}`,
    tx_hash: u.txid,
    value: u.satoshis,
    createdAt: u.bookedAt,
    state: u.status === 'spent' ? 'spent' : u.status === 'reserved' ? 'reserved' : u.satoshis < dustBelow ? 'dust' : 'available',
  }));
  // Totals from every unspent output (the list shows only the newest 200).
  const unspent = ctx.services.repos.walletUtxos.unspent(w.id);
  const dustBalance = unspent.filter((u) => u.status === 'available' && u.satoshis < dustBelow).reduce((s, u) => s + u.satoshis, 0);
  const balance = unspent.reduce((s, u) => s + u.satoshis, 0) - dustBalance;
  return { totalBalance: { balance, dustBalance }, availableUtxos: utxos, lowBalance: balance < FEE_MANAGER_LOW_BALANCE };
}

/** The fee wallet's unspent outputs grouped by state, in the public service's feeUtxoState shape. */
export async function feeUtxoState(ctx: OpContext<WalletServices>): Promise<OutputOf<typeof OPERATIONS.feeUtxoState>> {
  const { availableUtxos: unspent } = await feeManagerMetrics(ctx, { includeSpent: false });
  const dustUtxos = unspent.filter((u) => u.state === 'dust');
  const availableUtxos = unspent.filter((u) => u.state === 'available' || u.state === 'reserved');
  const sum = (list: readonly FeeUtxo[]) => list.reduce((s, u) => s + u.value, 0);
  return {
    totalBalance: { availableBalance: sum(availableUtxos), dustBalance: sum(dustUtxos), failedBalance: 0 },
    allUtxos: { availableUtxos, dustUtxos, failedUtxos: [] },
  };
}

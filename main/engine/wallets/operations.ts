import { WALLET_PAYMAIL_OPERATIONS } from '../../../shared/contracts/wallet-paymail.js';
import { WALLET_OPERATIONS } from '../../../shared/contracts/wallets.js';
import { implement } from '../operation.js';
import type { WalletOperationServices, WalletServices } from './services.js';
import { createWallet, scanRecoveryPhrase } from './create.js';
import { activatePaymail, paymailDetails, updatePaymail } from './paymail-ops.js';
import {
  deleteAllWallets,
  deleteWallet,
  exportMnemonic,
  listWallets,
  setWalletMembers,
  walletAddress,
  walletAddresses,
} from './wallet-ops.js';

export const WALLET_IMPLEMENTATIONS = implement<WalletOperationServices>()(WALLET_OPERATIONS, {
  createWallet: { run: createWallet, target: (_i, o) => o?.walletID ?? null },
  listWallets: { run: listWallets },
  deleteWallet: { run: deleteWallet, target: (i) => i.walletId },
  deleteAllWallets: { run: deleteAllWallets },
  walletAddresses: { run: walletAddresses },
  walletAddress: { run: walletAddress },
  addresses: { run: walletAddresses },
  address: { run: walletAddress },
  exportMnemonic: { run: exportMnemonic, target: (i) => i.walletId ?? null },
  setWalletMembers: { run: setWalletMembers, target: (i) => i.walletId ?? null },
  scanRecoveryPhrase: { run: scanRecoveryPhrase },
});

export const WALLET_PAYMAIL_IMPLEMENTATIONS = implement<WalletServices>()(WALLET_PAYMAIL_OPERATIONS, {
  paymailDetails: { run: paymailDetails },
  updatePaymail: { run: updatePaymail, target: (i) => i.walletId ?? null },
  activatePaymail: { run: activatePaymail, target: (i) => i.walletId ?? null },
});

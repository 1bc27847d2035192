import { chooseClient } from '../api/index.js';
import { formatBsv } from '../components/format.js';
import { notifyError, notifyInfo, notifySuccess } from '../components/notify.js';
import { createLiveStore } from './live.js';
import { createPrefsStore } from './prefs.js';
import { createSessionStore } from './session.js';
import { createWalletsStore } from './wallets.js';

/** The app's one session store, over the client chosen for this host. */
export const useSession = createSessionStore(chooseClient(), typeof sessionStorage === 'undefined' ? null : sessionStorage);

/** The signed-in user's wallets and balances, shared by every view. */
export const useWalletStore = createWalletsStore(useSession);

/** The live event stream: views reload on its ticks; what arrives is told to the user. */
export const useLive = createLiveStore(useSession, {
  received: (e) => notifySuccess(`Received ${formatBsv(e.satoshis)} BSV in ${e.walletTitle}.`),
  tokensReceived: (e) => notifySuccess(`Received ${e.amount.toLocaleString('en-US')} ${e.symbol} in ${e.walletTitle}.`),
  syncError: (message) => notifyError(new Error(`Keeping the wallets in step with the chain failed; it is retried. (${message})`)),
  feeManagerLow: (e) =>
    notifyInfo(`The fee manager holds ${formatBsv(e.satoshis)} BSV, below ${formatBsv(e.threshold)} BSV: fund it so it keeps paying fees.`),
});

/** How amounts are shown and typed (currency, unit), and the rates to convert with. */
export const usePrefs = createPrefsStore(useSession, typeof localStorage === 'undefined' ? null : localStorage);

useLive.subscribe((s, prev) => {
  if (s.ticks.rates !== prev.ticks.rates) void usePrefs.getState().refreshRates();
});

// Balances move as the chain does: the shared wallet list reloads when the stream says so.
useLive.subscribe((s, prev) => {
  if (s.ticks.wallets !== prev.ticks.wallets && useWalletStore.getState().wallets !== null) void useWalletStore.getState().refresh();
});

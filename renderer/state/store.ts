import { chooseClient } from '../api/index.js';
import { createSessionStore } from './session.js';
import { createWalletsStore } from './wallets.js';

/** The app's one session store, over the client chosen for this host. */
export const useSession = createSessionStore(chooseClient(), typeof sessionStorage === 'undefined' ? null : sessionStorage);

/** The signed-in user's wallets and balances, shared by every view. */
export const useWalletStore = createWalletsStore(useSession);

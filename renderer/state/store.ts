import { chooseClient } from '../api/index.js';
import { createSessionStore } from './session.js';

/** The app's one session store, over the client chosen for this host. */
export const useSession = createSessionStore(chooseClient(), typeof sessionStorage === 'undefined' ? null : sessionStorage);

import { APP_OPERATIONS } from '../../../shared/contracts/apps.js';
import { APP_ACTIVITY_OPERATIONS } from '../../../shared/contracts/app-activity.js';
import { listAppActivity } from './activity.js';
import { implement } from '../operation.js';
import { decideApp, listApps, revokeApp, setAppsDefaultWallet } from './manage.js';
import type { AppActivityServices, AppServices } from './services.js';

export const APP_IMPLEMENTATIONS = implement<AppServices>()(APP_OPERATIONS, {
  listApps: { run: listApps },
  decideApp: {
    run: decideApp,
    target: (i) => `app ${i.originator} ${i.allow ? 'allowed' : 'denied'}${i.walletId ? ` (wallet ${i.walletId})` : ''}`,
  },
  revokeApp: { run: revokeApp, target: (i) => `app ${i.originator}` },
  setAppsDefaultWallet: { run: setAppsDefaultWallet, target: (i) => `default wallet for apps ${i.walletId ?? '(organisation default)'}` },
});

export const APP_ACTIVITY_IMPLEMENTATIONS = implement<AppActivityServices>()(APP_ACTIVITY_OPERATIONS, {
  listAppActivity: { run: listAppActivity },
});

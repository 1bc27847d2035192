import { APP_PERMISSION_OPERATIONS } from '../../../../shared/contracts/app-permissions.js';
import { implement } from '../../operation.js';
import type { AppPermissionServices } from '../services.js';
import { decideAppPermission, listAppPermissions, revokeAppPermission, setAppPermission, setAppSpendingLimit } from './manage.js';

const limitWords = (l: { satoshis: number } | { currency: string; amount: string } | null) =>
  l === null ? 'none' : 'satoshis' in l ? `${l.satoshis} satoshis a month` : `${l.amount} ${l.currency} a month`;

export const APP_PERMISSION_IMPLEMENTATIONS = implement<AppPermissionServices>()(APP_PERMISSION_OPERATIONS, {
  listAppPermissions: { run: listAppPermissions },
  decideAppPermission: {
    run: decideAppPermission,
    target: (i) => `app permission ${i.id} ${i.grant ? 'granted' : 'denied'}${i.expiresAt ? ` until ${i.expiresAt}` : ''}`,
  },
  setAppPermission: {
    run: setAppPermission,
    target: (i) =>
      `app ${i.originator} ${i.grant ? 'granted' : 'denied'} ${i.kind} ${
        i.kind === 'protocol'
          ? `[${i.securityLevel}, ${i.protocol}]${i.counterparty ? ` counterparty ${i.counterparty}` : ''}`
          : (i.basket ?? i.certificateType ?? i.asset ?? '')
      }`,
  },
  revokeAppPermission: { run: revokeAppPermission, target: (i) => `app permission ${i.id}` },
  setAppSpendingLimit: { run: setAppSpendingLimit, target: (i) => `app ${i.originator} spending authorisation ${limitWords(i.limit)}` },
});

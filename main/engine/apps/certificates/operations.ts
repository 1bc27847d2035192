import { APP_CERTIFICATE_OPERATIONS } from '../../../../shared/contracts/app-certificates.js';
import { implement } from '../../operation.js';
import type { AppCertificatesServices } from '../services.js';
import { listAppCertificates, relinquishAppCertificate } from './manage.js';

export const APP_CERTIFICATE_IMPLEMENTATIONS = implement<AppCertificatesServices>()(APP_CERTIFICATE_OPERATIONS, {
  listAppCertificates: { run: listAppCertificates },
  relinquishAppCertificate: {
    run: relinquishAppCertificate,
    target: (i, o) =>
      o
        ? `certificate ${i.id} of wallet ${o.walletId} (type ${o.type}, certifier ${o.certifier}, acquired by ${o.originator})`
        : `certificate ${i.id}`,
  },
});

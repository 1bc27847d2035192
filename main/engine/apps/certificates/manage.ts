import { DomainError } from '../../../../shared/errors.js';
import type { OutputOf, ParsedInputOf } from '../../../../shared/operation.js';
import type { OPERATIONS } from '../../../../shared/operations.js';
import type { OpContext } from '../../context.js';
import { appChanged } from '../manage.js';
import type { AppCertificatesServices } from '../services.js';

type List = (typeof OPERATIONS)['listAppCertificates'];
type Relinquish = (typeof OPERATIONS)['relinquishAppCertificate'];

/** The Apps view's list: every wallet's certificates, field names only (values stay encrypted for the wallet). */
export function listAppCertificates(ctx: OpContext<AppCertificatesServices>, _input: ParsedInputOf<List>): OutputOf<List> {
  return {
    certificates: ctx.services.repos.appCertificates.summaries().map((c) => ({ ...c, acquiredAt: new Date(c.acquiredAt).toISOString() })),
  };
}

/** An admin makes a wallet relinquish a certificate (as an app's relinquishCertificate does). */
export function relinquishAppCertificate(ctx: OpContext<AppCertificatesServices>, input: ParsedInputOf<Relinquish>): OutputOf<Relinquish> {
  const { appCertificates, wallets } = ctx.services.repos;
  const held = appCertificates.byId(input.id);
  if (!held || !appCertificates.removeById(input.id)) throw new DomainError('NOT_FOUND', `id: no wallet holds a certificate ${input.id}.`);
  const walletId = wallets.byRow(held.walletRow)?.walletId ?? '';
  ctx.services.logger.info({ id: input.id, walletId }, 'a certificate was relinquished from the Apps view');
  // Other open windows (the app's row, its certificates) reload.
  const app = ctx.services.repos.apps.get(held.originator);
  if (app) appChanged(ctx.services, app);
  return { relinquished: true, walletId, type: held.type, certifier: held.certifier, originator: held.originator };
}

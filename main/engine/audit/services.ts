import type { CoreServices, Repos } from '../context.js';
import type { AuditTrail } from './trail.js';

/** What writing to the audit trail needs (every capability that records an entry): its table and the trail built once. */
export interface AuditServices extends CoreServices {
  repos: Pick<Repos, 'audit'>;
  auditTrail: AuditTrail;
}

/** What the audit operations need besides: whether the fee manager (which pays anchors) is set up. */
export interface AuditOpServices extends AuditServices {
  repos: Pick<Repos, 'audit' | 'wallets'>;
}

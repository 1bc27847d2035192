import { AUDIT_OPERATIONS } from '../../../shared/contracts/audit.js';
import { implement } from '../operation.js';
import type { AuditServices } from './services.js';
import { auditLog } from './audit-log.js';

export const AUDIT_IMPLEMENTATIONS = implement<AuditServices>()(AUDIT_OPERATIONS, {
  auditLog: { run: auditLog },
});

import { AUDIT_OPERATIONS } from '../../../shared/contracts/audit.js';
import { implement } from '../operation.js';
import type { CoreServices } from '../context.js';
import { auditLog } from './audit-log.js';

export const AUDIT_IMPLEMENTATIONS = implement<CoreServices>()(AUDIT_OPERATIONS, {
  auditLog: { run: auditLog },
});

import { AUDIT_OPERATIONS } from '../../../shared/contracts/audit.js';
import { implement } from '../operation.js';
import type { AuditOpServices } from './services.js';
import { auditCheckpoints, auditExport, auditLog, auditSettings, auditVerify, setAuditSettings } from './audit-log.js';

export const AUDIT_IMPLEMENTATIONS = implement<AuditOpServices>()(AUDIT_OPERATIONS, {
  auditLog: { run: auditLog },
  auditVerify: { run: auditVerify },
  auditCheckpoints: { run: auditCheckpoints },
  auditExport: { run: auditExport, target: (i) => `${i.from}..${i.to} (${i.format})` },
  auditSettings: { run: auditSettings },
  setAuditSettings: { run: setAuditSettings, target: (i) => `anchor ${i.anchor ? 'on' : 'off'}` },
});

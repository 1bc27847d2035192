import { ORG_OPERATIONS } from '../../../shared/contracts/org.js';
import { implement } from '../operation.js';
import type { OrgServices } from './services.js';
import { appStatus, organisationBalance } from './status.js';

export const ORG_IMPLEMENTATIONS = implement<OrgServices>()(ORG_OPERATIONS, {
  appStatus: { run: appStatus },
  organisationBalance: { run: organisationBalance },
});

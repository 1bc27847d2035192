import { ORG_OPERATIONS } from '../../../shared/contracts/org.js';
import { implement } from '../operation.js';
import type { CoreServices } from '../context.js';
import { appStatus, organisationBalance } from './status.js';

export const ORG_IMPLEMENTATIONS = implement<CoreServices>()(ORG_OPERATIONS, {
  appStatus: { run: appStatus },
  organisationBalance: { run: organisationBalance },
});

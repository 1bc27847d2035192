import type { CoreServices, Repos } from '../context.js';

/** What the audit log needs: its own table, nothing else. */
export interface AuditServices extends CoreServices {
  repos: Pick<Repos, 'audit'>;
}

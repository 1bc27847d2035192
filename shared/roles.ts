/** Roles as they travel on the wire. The spec writes them "Manager, Viewer, Operator, Api User, Admin". */
export const ROLES = ['admin', 'manager', 'operator', 'viewer', 'api_user'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Accepts the spellings people and older clients use ("Api User", "API_USER", " manager ") and returns
 * the wire role, or null when it is not a role at all.
 */
export function normalizeRole(value: unknown): Role | null {
  if (typeof value !== 'string') return null;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return (ROLES as readonly string[]).includes(key) ? (key as Role) : null;
}

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  manager: 'Manager',
  operator: 'Operator',
  viewer: 'Viewer',
  api_user: 'Api User',
};

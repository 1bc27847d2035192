import type { Db } from '../database.js';

export interface OrganisationRow {
  serviceId: string;
  name: string;
  createdAt: number;
}

export function createOrganisationRepo(db: Db) {
  const get = db.prepare<[], { service_id: string; name: string; created_at: number }>(
    'SELECT service_id, name, created_at FROM organisation WHERE id = 1',
  );
  const insert = db.prepare('INSERT INTO organisation (id, service_id, name, created_at) VALUES (1, ?, ?, ?)');
  return {
    get(): OrganisationRow | null {
      const row = get.get();
      return row ? { serviceId: row.service_id, name: row.name, createdAt: row.created_at } : null;
    },
    insert(org: OrganisationRow): void {
      insert.run(org.serviceId, org.name, org.createdAt);
    },
  };
}
export type OrganisationRepo = ReturnType<typeof createOrganisationRepo>;

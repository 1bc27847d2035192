import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REST_ROUTES } from '../../main/server/routes.js';
import { OPERATION_NAMES } from '../../shared/operations.js';
import { roleTableMarkdown } from '../../shared/role-table.js';
import { ROOT } from '../helpers/headless.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('README stays true', () => {
  it('shows the permission matrix the engine enforces (regenerate with npm run docs:roles)', () => {
    assert.ok(readme.includes(roleTableMarkdown()), `README's role table is out of date. Paste:\n${roleTableMarkdown()}`);
  });

  it('documents every REST route', () => {
    for (const r of REST_ROUTES) assert.ok(readme.includes(`\`${r.method} ${r.url}\``), `README lacks ${r.method} ${r.url}`);
  });

  it('names every operation', () => {
    for (const op of OPERATION_NAMES) assert.ok(readme.includes(`\`${op}\``), `README lacks ${op}`);
  });
});

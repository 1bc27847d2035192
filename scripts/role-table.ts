import { roleTableMarkdown } from '../shared/role-table.js';

console.log(roleTableMarkdown());

import { OPERATION_NAMES, OPERATIONS } from './operations.js';
import { ROLES } from './roles.js';

/**
 * The permission matrix as a Markdown table, generated from the operations table so the README can
 * never disagree with what the engine enforces (`npm run docs:roles` prints it; a test compares).
 */
export function roleTableMarkdown(): string {
  const header = `| Operation | ${ROLES.join(' | ')} | serviceid |`;
  const rule = `| --- | ${ROLES.map(() => '---').join(' | ')} | --- |`;
  const rows = OPERATION_NAMES.map((name) => {
    const def = OPERATIONS[name] as { access: 'public' | readonly string[]; enterprise?: boolean };
    const cells = ROLES.map((r) => (def.access === 'public' ? 'public' : def.access.includes(r) ? '✓' : '—'));
    return `| \`${name}\` | ${cells.join(' | ')} | ${def.enterprise ? 'required' : ''} |`;
  });
  return [header, rule, ...rows].join('\n');
}

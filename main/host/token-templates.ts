import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { STAS_PROTOCOL_IDS } from '../../shared/token-schemas.js';
import { checkStasTemplate } from '../engine/token-templates/stas.js';
import { UsageError } from './config.js';

/**
 * Reads the licensed STAS templates of `--token-templates <dir>`: one `<protocolId>.hex` file per protocol
 * (STAS.hex, STAS-20.hex, STAS-789.hex), each the locking-script hex with its placeholders, checked here;
 * the engine installs them. Other files in the directory are ignored, an unknown .hex name is an error.
 */
export function readTokenTemplates(dir: string): { protocolId: string; template: string }[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--token-templates: ${dir} is not a directory.`);
  const out: { protocolId: string; template: string }[] = [];
  for (const file of readdirSync(dir)) {
    if (!file.toLowerCase().endsWith('.hex')) continue;
    const protocolId = file.slice(0, -4).toUpperCase();
    if (!(STAS_PROTOCOL_IDS as readonly string[]).includes(protocolId)) {
      throw new UsageError(`--token-templates: ${file} is not one of ${STAS_PROTOCOL_IDS.map((p) => `${p}.hex`).join(', ')}.`);
    }
    const template = readFileSync(path.join(dir, file), 'utf8').trim();
    const problem = checkStasTemplate(template);
    if (problem) throw new UsageError(`--token-templates: ${file}: ${problem}.`);
    out.push({ protocolId, template });
  }
  return out;
}

import { Validation } from '@bsv/sdk';
import { TREASURY } from '../../../../shared/contracts/access.js';
import type { AppCall } from '../call.js';
import type { Args } from '../args.js';
import { invalidParameter, WalletErr } from '../werr.js';

/** Fields a certificate may carry here, and how long an encrypted value or key may be (base64 characters). */
export const MAX_FIELDS = 100;
const MAX_VALUE = 65_536;

/**
 * Runs one of @bsv/sdk's validation helpers (the checks the reference wallet makes, and WalletClient already
 * made on the app's side) and answers its refusal in this listener's WERR shape. The helpers assume the
 * types of the interface, so the shapes they do not check are checked first (`objectOfStrings`, `strings`).
 */
export function sdkChecked<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    const e = err as { name?: string; parameter?: unknown; message?: string };
    if (e.name === 'WERR_INVALID_PARAMETER' && typeof e.parameter === 'string') {
      throw new WalletErr('WERR_INVALID_PARAMETER', 6, String(e.message), e.parameter);
    }
    throw invalidParameter('args', 'the arguments of the method, as @bsv/sdk defines them');
  }
}

/** A record of names to strings (fields, keyrings, attributes): at most MAX_FIELDS, each value bounded. */
export function objectOfStrings(args: Args, name: string, required: boolean): Record<string, string> | undefined {
  const v = args[name];
  if (v === undefined || v === null) {
    if (required) throw invalidParameter(name, 'an object of field names to strings');
    return undefined;
  }
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParameter(name, 'an object of field names to strings');
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > MAX_FIELDS) throw invalidParameter(name, `an object of at most ${MAX_FIELDS} fields`);
  for (const [, value] of entries) {
    if (typeof value !== 'string' || value.length > MAX_VALUE)
      throw invalidParameter(name, `an object whose values are strings of at most ${MAX_VALUE} characters`);
  }
  return v as Record<string, string>;
}

/** A list of strings (certifiers, types, fieldsToReveal); absent is empty. */
export function strings(args: Args, name: string, max = 1000): string[] {
  const v = args[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > max || !v.every((s) => typeof s === 'string')) {
    throw invalidParameter(name, `an array of at most ${max} strings`);
  }
  return v as string[];
}

/** Privileged keys are not served (as for the key methods: brc100.ts). */
export function notPrivileged(args: Args): void {
  if (args.privileged === true) throw new WalletErr('WERR_NOT_IMPLEMENTED', 3, 'Privileged keys are not supported yet by this Keystead.');
}

export { Validation };

/** The Apps view lists the certificates wallets hold: a change reloads it (the `apps` live event). */
export function certificatesChanged(call: AppCall): void {
  call.services.events.publish('apps', { originator: call.app.originator, state: call.app.state }, { kind: 'roles', roles: TREASURY });
}

import { z } from 'zod';
import { ROLES, type Role } from './roles.js';
import type { OperationName } from './operation-names.js';
import { email, givenPassword, newPassword, organisationName, personName } from './schemas.js';

export { OPERATION_NAMES, type OperationName } from './operation-names.js';

/**
 * The operations table: every capability of Keystead is one entry here, with its input schema and who may
 * call it. REST routes, the UI's RPC over HTTP and the Electron IPC channels are adapters onto this one
 * table, so authorization is written once. `access: 'public'` needs no credentials; otherwise the listed
 * roles. The table is data the renderer also reads, to hide what a role cannot do.
 */
export type Access = 'public' | readonly Role[];

interface OperationDef<I extends z.ZodType> {
  input: I;
  access: Access;
  /** One line for the README and the OpenAPI-ish route list. */
  summary: string;
  /** Whether the call must also carry the organisation's serviceid (the spec's enterprise API). */
  enterprise?: boolean;
}

const ALL_ROLES = ROLES;

function op<I extends z.ZodType>(def: OperationDef<I>): OperationDef<I> {
  return def;
}

export const OPERATIONS = {
  appStatus: op({
    input: z.object({}),
    access: 'public',
    summary: 'Whether the organisation is set up yet, plus version and network. No credentials.',
  }),
  setup: op({
    input: z.object({
      organisation: organisationName,
      email,
      password: newPassword,
      firstName: personName.optional(),
      lastName: personName.optional(),
    }),
    access: 'public',
    summary: 'First run only: creates the organisation and its first admin, and signs that admin in.',
  }),
  login: op({
    input: z.object({ email, password: givenPassword }),
    access: 'public',
    summary: 'Signs a user in and returns an authToken.',
  }),
  logout: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'Revokes the authToken the call was made with.',
  }),
  me: op({
    input: z.object({}),
    access: ALL_ROLES,
    summary: 'The signed-in user, their organisation and serviceId.',
  }),
} as const satisfies { [N in OperationName]: OperationDef<z.ZodType> };
export type OperationInput<N extends OperationName> = z.input<(typeof OPERATIONS)[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<(typeof OPERATIONS)[N]['input']>;

export interface AppStatusOutput {
  initialised: boolean;
  version: string;
  network: string;
}
export interface SessionOutput {
  authToken: string;
  uid: string;
  role: Role;
  serviceId: string;
  expiresAt: string;
}
export interface MeOutput {
  uid: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  title: string;
  serviceId: string;
  organisation: string;
}

/** What each operation returns inside the envelope's `data`, next to status and msg. */
export interface OperationOutputs {
  appStatus: AppStatusOutput;
  setup: SessionOutput;
  login: SessionOutput;
  logout: { revoked: boolean };
  me: MeOutput;
}
export type OperationOutput<N extends OperationName> = OperationOutputs[N];

export function canCall(role: Role | null, name: OperationName): boolean {
  const access = OPERATIONS[name].access;
  if (access === 'public') return true;
  return role !== null && access.includes(role);
}

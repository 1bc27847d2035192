import type { AnyContract, OutputOf, ParsedInputOf } from '../../shared/operation.js';
import type { CoreServices, OpContext } from './context.js';

/**
 * The engine's half of an operation: the handler for a contract from shared/contracts/, and what an
 * audited call acted on. A capability lists its implementations once, in its own operations.ts.
 */
export interface Implementation<C extends AnyContract = AnyContract, S extends CoreServices = any> {
  contract: C;
  /** Typed with the narrow services its capability declared (S); the engine passes its full set. */
  run: (ctx: OpContext<S>, input: ParsedInputOf<C>) => OutputOf<C> | Promise<OutputOf<C>>;
  /** What an audited call acted on, for the audit log (never a secret). */
  target?: (input: ParsedInputOf<C>, output?: OutputOf<C>) => string | null;
}

type Handlers<O extends Record<string, AnyContract>, S extends CoreServices> = {
  [K in keyof O]: Omit<Implementation<O[K], S>, 'contract'>;
};

/**
 * Pairs each contract of a capability with its handler; a missing or extra one is a type error. The
 * capability names the services its handlers need: `implement<PaymentServices>()(PAYMENT_OPERATIONS, {…})`.
 */
export function implement<S extends CoreServices>() {
  return <O extends Record<string, AnyContract>>(contracts: O, handlers: Handlers<O, S>): { [K in keyof O]: Implementation<O[K], S> } =>
    Object.fromEntries(Object.entries(handlers).map(([name, h]) => [name, { contract: contracts[name], ...h }])) as {
      [K in keyof O]: Implementation<O[K], S>;
    };
}

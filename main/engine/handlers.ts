import type { OperationName, OperationOutput, ParsedInput } from '../../shared/operations.js';
import type { OpContext } from './context.js';
import { appStatus } from './org/status.js';
import { login, logout, me, setup } from './users/session-ops.js';

interface Handler<N extends OperationName> {
  /** The success message in `data.msg`. */
  msg: string;
  run(ctx: OpContext, input: ParsedInput<N>): OperationOutput<N> | Promise<OperationOutput<N>>;
}

/** One handler per entry of the operations table in shared/; the type makes a missing one a compile error. */
export const HANDLERS: { [N in OperationName]: Handler<N> } = {
  appStatus: { msg: 'Status fetched successfully.', run: appStatus },
  setup: { msg: 'Organisation set up successfully.', run: setup },
  login: { msg: 'Logged in successfully.', run: login },
  logout: { msg: 'Logged out successfully.', run: logout },
  me: { msg: 'User fetched successfully.', run: me },
};

import type { OutputOf, ParsedInputOf } from '../../../shared/operation.js';
import { APP_ACTION_STATUSES } from '../../../shared/contracts/app-activity.js';
import type { OPERATIONS } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';
import type { AppActivityServices } from './services.js';

type Op = (typeof OPERATIONS)['listAppActivity'];

const status = (s: string) => {
  const known = APP_ACTION_STATUSES.find((k) => k === s);
  if (!known) throw new Error(`app action with an unknown status ${s}`);
  return known;
};

/** The Apps view's record of what apps did: actions newest first, and what they keep in baskets. */
export function listAppActivity(ctx: OpContext<AppActivityServices>, input: ParsedInputOf<Op>): OutputOf<Op> {
  const { appActivity } = ctx.services.repos;
  const originator = input.originator ?? null;
  const { total, actions } = appActivity.actions(originator, input.limit, input.offset);
  return {
    totalActions: total,
    actions: actions.map((a) => ({ ...a, status: status(a.status), createdAt: new Date(a.createdAt).toISOString() })),
    baskets: appActivity.baskets(originator),
  };
}

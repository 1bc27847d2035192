import type { AppStatusOutput } from '../../../shared/operations.js';
import type { OpContext } from '../context.js';

export function appStatus(ctx: OpContext): AppStatusOutput {
  const { repos, config } = ctx.services;
  return { initialised: repos.users.countActive() > 0, version: config.version, network: config.network };
}

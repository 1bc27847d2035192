import { NOT_OFFERED_OPERATIONS, NOT_OFFERED_REASONS } from '../../../shared/contracts/not-offered.js';
import { DomainError } from '../../../shared/errors.js';
import { implement } from '../operation.js';
import type { OrgServices } from './services.js';

const refuse = (why: string) => (): never => {
  throw new DomainError('NOT_OFFERED', `Not offered by Keystead: ${why}`);
};

export const NOT_OFFERED_IMPLEMENTATIONS = implement<OrgServices>()(NOT_OFFERED_OPERATIONS, {
  leaderboard: { run: refuse(NOT_OFFERED_REASONS.leaderboard) },
  notificationToken: { run: refuse(NOT_OFFERED_REASONS.notificationToken) },
  deleteNotificationToken: { run: refuse(NOT_OFFERED_REASONS.notificationToken) },
  sendNotification: { run: refuse(NOT_OFFERED_REASONS.sendNotification) },
});

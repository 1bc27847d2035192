import { z } from 'zod';
import { byName, defineOperation } from '../operation.js';

/**
 * Methods of the public service's SDK that mean nothing for an organisation's local wallet. Each has its
 * route, so a script calling it gets a JSON answer that says why and what to use instead (410 NOT_OFFERED),
 * never a 404 that looks like a wrong address or a web page.
 */
const refusal = <const N extends string>(
  name: N,
  path: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  why: string,
  extra: string[] = [],
) =>
  defineOperation({
    name,
    input: z.object({}).loose(),
    output: z.object({}),
    access: 'public',
    summary: `Not offered (410 NOT_OFFERED): ${why}`,
    msg: why,
    rest: [path, ...extra].map((p) => ({ method, path: p })),
  });

export const NOT_OFFERED_REASONS = {
  leaderboard:
    "a token leaderboard ranks the public service's users by holdings; an organisation's wallet has no such public ranking. Use GET /v1/tokens and GET /v1/balance for what the organisation holds.",
  notificationToken:
    'Keystead sends no push notifications to phones. Follow what happens on the live event stream instead: GET /v1/events (Server-Sent Events; see the README).',
  sendNotification: 'Keystead sends no push notifications. Payments and balances are announced on the live event stream: GET /v1/events.',
} as const;

export const NOT_OFFERED_OPERATIONS = byName(
  refusal('leaderboard', '/v1/leaderboard', 'GET', NOT_OFFERED_REASONS.leaderboard),
  // The SDK puts an undefined user id in the path; any id is answered the same.
  refusal('notificationToken', '/v1/notificationToken/:userId', 'PUT', NOT_OFFERED_REASONS.notificationToken),
  refusal('deleteNotificationToken', '/admin/v1/notificationToken/:userId', 'DELETE', NOT_OFFERED_REASONS.notificationToken, [
    '/v1/notificationToken/:userId',
  ]),
  refusal('sendNotification', '/v1/sendNotification', 'POST', NOT_OFFERED_REASONS.sendNotification),
);

import type { Repos } from '../context.js';

const EXPIRY_KEY = 'approvals.expiryHours';
/** How long a payment may await approval when the organisation has not said: three days. */
export const DEFAULT_EXPIRY_HOURS = 72;

export function approvalExpiryHours(services: { repos: Pick<Repos, 'settings'> }): number {
  const v = Number(services.repos.settings.get(EXPIRY_KEY));
  return Number.isInteger(v) && v >= 1 ? v : DEFAULT_EXPIRY_HOURS;
}

export function approvalExpiryMs(services: { repos: Pick<Repos, 'settings'> }): number {
  return approvalExpiryHours(services) * 3_600_000;
}

export function setApprovalExpiryHours(services: { repos: Pick<Repos, 'settings'> }, hours: number): void {
  services.repos.settings.set(EXPIRY_KEY, String(hours));
}

import type { IncomingHttpHeaders } from 'node:http';
import type { Credentials } from '../engine/context.js';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js';

/**
 * Pure checks the local server applies before any route runs. The server listens on loopback, but a
 * browser page on any site can still send requests to it: the Host allowlist defeats DNS rebinding and
 * the Origin check refuses cross-site requests (the UI we serve is same-origin and passes).
 */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return typeof host === 'string' && allowedHosts(port).has(host.toLowerCase());
}

export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true; // scripts and curl send none
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the literal "null" origin of sandboxed frames and file: pages
  }
  return url.protocol === 'http:' && url.pathname === '/' && allowedHosts(port).has(url.host);
}

/** `Sec-Fetch-Site` is set by browsers only; anything but same-origin/none from a browser is refused. */
export function isAllowedFetchSite(value: string | undefined): boolean {
  return value === undefined || value === 'same-origin' || value === 'none';
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s.trim();
}

/** Reads every credential form the API accepts: authToken, Authorization: Bearer, uid + apikey, serviceid. */
export function credentialsFromHeaders(headers: IncomingHttpHeaders): Credentials {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(headers, 'authorization') ?? '')?.[1];
  return {
    authToken: header(headers, 'authtoken') ?? bearer,
    uid: header(headers, 'uid'),
    apiKey: header(headers, 'apikey'),
    serviceId: header(headers, 'serviceid'),
  };
}

/** Headers every answer of ours carries, whichever listener or route sends it. */
export const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' } as const;

/** Content-Security-Policy for the UI we serve (the one policy, from shared/csp.ts). */
export const UI_CSP = CONTENT_SECURITY_POLICY;

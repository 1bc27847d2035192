/**
 * The key a caller without credentials is counted under, from its client address: every loopback address is
 * one client (a local process could otherwise send from 127.0.0.2, 127.0.0.3, … and count as many).
 */
export function clientKey(clientId: string): string {
  const id = clientId.replace(/^::ffff:/, '');
  return /^127\.|^::1$|^localhost$/.test(id) ? 'client:loopback' : `client:${id}`;
}

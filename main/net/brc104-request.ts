import { Peer, Random, SimplifiedFetchTransport, Utils, type AuthMessage, type Transport, type WalletInterface } from '@bsv/sdk';
import type { FetchLike } from './guarded-fetch.js';

/** The answer to one BRC-104 request, as the peer signed it. */
export interface AuthReply {
  /** The BRC-103 identity key of whoever signed the answer. */
  identityKey: string;
  status: number;
  /** The signed headers (x-bsv-* other than x-bsv-auth-*, and authorization), lower-case names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Raised when the peer's messages fail BRC-103 (a bad signature, a nonce not ours) or answer another request. */
export class AuthExchangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthExchangeError';
  }
}

/**
 * SimplifiedFetchTransport over a fetch of our choosing (the SDK lets a transport take one; AuthFetch does
 * not, and falls back to the global fetch on several paths), that also reports what the Peer refused of
 * an incoming message: the transport would swallow it, leaving the request to wait for its time cap.
 */
class ReportingTransport implements Transport {
  private readonly inner: SimplifiedFetchTransport;

  constructor(
    origin: string,
    fetchClient: FetchLike,
    private readonly handled: (message: AuthMessage, err: unknown) => void,
  ) {
    this.inner = new SimplifiedFetchTransport(origin, fetchClient as typeof fetch);
  }

  send(message: AuthMessage): Promise<void> {
    return this.inner.send(message);
  }

  async onData(callback: (message: AuthMessage) => Promise<void>): Promise<void> {
    await this.inner.onData(async (message) => {
      try {
        await callback(message);
        this.handled(message, null);
      } catch (err) {
        this.handled(message, err);
        throw err;
      }
    });
  }
}

/**
 * One request over BRC-103 mutual authentication carried by HTTP (BRC-104), the way @bsv/sdk's AuthFetch
 * frames it, but every byte through `fetchClient` (the guarded fetch) and nothing else: no fallback to an
 * unauthenticated request, no payment (402) handling, no certificates shown to the peer, a fresh session
 * each time. Only `content-type` is sent as a header (AuthFetch signs it without its parameters).
 */
export async function authRequest(
  wallet: WalletInterface,
  url: string,
  request: { method: 'POST'; contentType: string; body: string },
  fetchClient: FetchLike,
): Promise<AuthReply> {
  const target = new URL(url);
  const nonce = Random(32);
  const nonceText = Utils.toBase64(nonce);
  return new Promise<AuthReply>((resolve, reject) => {
    let settled = false;
    const settle = (err: Error | null, reply?: AuthReply) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve(reply!);
    };
    const transport = new ReportingTransport(target.origin, fetchClient, (message, err) => {
      if (err) settle(new AuthExchangeError(`its ${String(message.messageType).slice(0, 30)} message failed BRC-103 authentication`));
      // Past the handshake, a verified message was handed to the listener below: if it was not the answer
      // (another request's, a certificate request), no answer will come.
      else if (message.messageType !== 'initialResponse')
        settle(new AuthExchangeError('it answered with a message that is not the answer'));
    });
    const peer = new Peer(wallet, transport);
    // The wallet shows the peer no certificates of its own accord.
    peer.listenForCertificatesRequested(() => undefined);
    const listener = peer.listenForGeneralMessages((identityKey, payload) => {
      try {
        const r = new Utils.Reader(payload);
        if (Utils.toBase64(r.read(32)) !== nonceText) return;
        peer.stopListeningForGeneralMessages(listener);
        const status = r.readVarIntNum();
        const headers: Record<string, string> = {};
        for (let n = r.readVarIntNum(), i = 0; i < n; i++) {
          const name = Utils.toUTF8(r.read(r.readVarIntNum())).toLowerCase();
          headers[name] = Utils.toUTF8(r.read(r.readVarIntNum()));
        }
        const length = r.readVarIntNum();
        settle(null, { identityKey, status, headers, body: new Uint8Array(length > 0 ? r.read(length) : []) });
      } catch {
        settle(new AuthExchangeError('its answer is malformed'));
      }
    });
    peer
      .toPeer(serializeRequest(nonce, request, target))
      .catch((err: unknown) => settle(err instanceof Error ? err : new Error(String(err))));
  });
}

/** BRC-104's request payload: the request nonce, method, path, query, signed headers, body. */
function serializeRequest(nonce: number[], request: { method: string; contentType: string; body: string }, url: URL): number[] {
  const w = new Utils.Writer();
  const sized = (s: string): void => {
    const bytes = Utils.toArray(s, 'utf8');
    w.writeVarIntNum(bytes.length);
    w.write(bytes);
  };
  // Path, query and body are written as -1 when absent, as AuthFetch does (the server rebuilds them so).
  const optional = (s: string): void => {
    if (s === '') w.writeVarIntNum(-1);
    else sized(s);
  };
  w.write(nonce);
  sized(request.method);
  optional(url.pathname);
  optional(url.search);
  w.writeVarIntNum(1);
  sized('content-type');
  sized(request.contentType.split(';')[0].trim());
  optional(request.body);
  return w.toArray();
}

import { createNonce, MasterCertificate, Utils, verifyNonce, type ProtoWallet, type WalletInterface } from '@bsv/sdk';
import { authRequest, type AuthReply } from '../../../net/brc104-request.js';
import { guardedFetch } from '../../../net/guarded-fetch.js';
import { checkTarget, OutboundError, type OutboundLimits, type Resolver } from '../../../net/guarded-http.js';
import { invalidOperation, invalidParameter } from '../werr.js';

/** What an acquired certificate must be before the wallet keeps it (both protocols). */
export interface Candidate {
  type: string;
  serialNumber: string;
  certifier: string;
  revocationOutpoint: string;
  signature: string;
  fields: Record<string, string>;
  /** Each field's key, encrypted for this wallet by `revealer`. */
  keyring: Record<string, string>;
  revealer: string;
}

/** How long the certifier has to answer (handshake and signing): an unreachable one must not hold the app forever. */
export const ISSUANCE_TIMEOUT_MS = 30_000;

/** Each request to a certifier (the handshake, the signing request): a certificate answer is a few KiB; never redirected. */
export const CERTIFIER_LIMITS: OutboundLimits = { timeoutMs: ISSUANCE_TIMEOUT_MS, maxBytes: 1024 * 1024, maxRedirects: 0 };

/**
 * Where a certifier may be: public addresses, and loopback only for an app calling from this machine (it
 * could reach them itself); never private networks, link-local (cloud metadata) or other special ranges.
 * `limits` and `resolve` are test seams.
 */
export interface IssuanceNet {
  allowLoopback: boolean;
  limits?: OutboundLimits;
  resolve?: Resolver;
}

/** The certifier's answer is hostile until checked: every refusal names the certifier's URL and what was wrong. */
const bad = (url: string, what: string) => invalidOperation(`The certifier at ${url} answered with no valid certificate: ${what}.`);

/**
 * The BRC-103 peer (mutual authentication over HTTP, BRC-104: main/net/brc104-request.ts) signs as the wallet with ProtoWallet. A
 * certifier may ask the wallet for certificates during the handshake: this wallet shows it none (never
 * another certificate without the app asking for it through proveCertificate).
 */
function authWallet(wallet: ProtoWallet): WalletInterface {
  const shown = Object.create(wallet) as ProtoWallet & Partial<WalletInterface>;
  shown.listCertificates = async () => ({ totalCertificates: 0, certificates: [] });
  return shown as unknown as WalletInterface;
}

function certifierBase(certifierUrl: string): string {
  let url: URL;
  try {
    url = new URL(certifierUrl);
  } catch {
    throw invalidParameter('certifierUrl', 'an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidParameter('certifierUrl', 'an http or https URL');
  if (url.username || url.password) throw invalidParameter('certifierUrl', 'a URL without credentials');
  return url.toString().replace(/\/+$/, '');
}

/**
 * What went wrong reaching the certifier, in Keystead's words: guarded-http's messages are its own; the
 * SDK's may quote the host's answer (a body preview, a header), which would let an app read through the
 * wallet what it could not read itself, so only their first clause is kept.
 */
function unreachable(base: string, failure: unknown): Error {
  // The SDK's transport wraps the guarded fetch's refusal (`cause`).
  let err = failure;
  for (let e = failure, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof OutboundError) err = e;
  const why =
    err instanceof OutboundError
      ? err.message
      : err instanceof SyntaxError
        ? 'its handshake answer is not JSON'
        : String((err as Error)?.message ?? err)
            .split(/ - body preview| returned by |: /)[0]
            .slice(0, 200);
  return invalidOperation(`The certifier at ${base} could not be reached over BRC-103: ${why}.`.slice(0, 500));
}

async function within<T>(url: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(invalidOperation(`The certifier at ${url} did not answer within ${ISSUANCE_TIMEOUT_MS / 1000} s.`)),
      ISSUANCE_TIMEOUT_MS,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * BRC-52 issuance as the reference wallet runs it: the wallet encrypts the app's field values for the
 * certifier (MasterCertificate.createCertificateFields: the master keyring stays with the wallet), sends a
 * signing request to `<certifierUrl>/signCertificate` over BRC-103 with a nonce of its own, and accepts the
 * answer only if it comes from the named certifier, proves both nonces (the serial number is the certifier's
 * HMAC of them), and signs exactly the fields sent, for this wallet. acquire.ts then verifies the signature and
 * that the keyring opens every field, as for a direct certificate.
 */
export async function requestIssuance(
  wallet: ProtoWallet,
  req: { type: string; certifier: string; certifierUrl: string; fields: Record<string, string> },
  net: IssuanceNet,
): Promise<Candidate> {
  const base = certifierBase(req.certifierUrl);
  const rule = { limits: net.limits ?? CERTIFIER_LIMITS, trusted: () => false, allowLoopback: net.allowLoopback, resolve: net.resolve };
  // Refused before anything is computed or sent; every request is checked again when it is made (the guarded fetch).
  try {
    await checkTarget(base, rule, rule.limits.timeoutMs);
  } catch (err) {
    if (err instanceof OutboundError && (err.kind === 'address' || err.kind === 'url'))
      throw invalidParameter('certifierUrl', `a certifier Keystead may contact (${err.message})`);
    throw unreachable(base, err);
  }
  const subject = (await wallet.getPublicKey({ identityKey: true })).publicKey;
  const signer = authWallet(wallet);
  const clientNonce = await createNonce(signer, req.certifier);
  const { certificateFields, masterKeyring } = await MasterCertificate.createCertificateFields(wallet, req.certifier, req.fields);

  const answer = await within(
    base,
    (async () => {
      let reply: AuthReply;
      try {
        reply = await authRequest(
          signer,
          `${base}/signCertificate`,
          {
            method: 'POST',
            contentType: 'application/json',
            body: JSON.stringify({ clientNonce, type: req.type, fields: certificateFields, masterKeyring }),
          },
          guardedFetch(rule),
        );
      } catch (err) {
        throw unreachable(base, err);
      }
      if (reply.identityKey !== req.certifier) throw bad(base, `it is not the certifier ${req.certifier}`);
      if (reply.status < 200 || reply.status > 299) throw bad(base, `HTTP ${reply.status}`);
      try {
        return JSON.parse(Buffer.from(reply.body).toString('utf8')) as unknown;
      } catch {
        throw bad(base, 'the answer is not JSON');
      }
    })(),
  );

  const { certificate, serverNonce } = (answer ?? {}) as { certificate?: Record<string, unknown>; serverNonce?: unknown };
  if (!certificate || typeof certificate !== 'object') throw bad(base, 'no certificate');
  if (!isString(serverNonce)) throw bad(base, 'no serverNonce');
  const { type, serialNumber, subject: certSubject, certifier, revocationOutpoint, signature, fields } = certificate;
  if (![type, serialNumber, certSubject, certifier, revocationOutpoint, signature].every(isString))
    throw bad(base, 'a malformed certificate');
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) throw bad(base, 'a certificate without fields');
  if (!/^[0-9a-fA-F]{64}\.\d{1,10}$/.test(revocationOutpoint as string)) throw bad(base, 'a malformed revocation outpoint');
  if (!/^([0-9a-fA-F]{2}){8,80}$/.test(signature as string)) throw bad(base, 'a malformed signature');

  const nonceOk = await verifyNonce(serverNonce, signer, req.certifier).catch(() => false);
  if (!nonceOk) throw bad(base, 'its nonce is not its own');
  const serialOk = await wallet
    .verifyHmac({
      hmac: Utils.toArray(serialNumber as string, 'base64'),
      data: Utils.toArray(clientNonce + serverNonce, 'base64'),
      protocolID: [2, 'certificate issuance'],
      keyID: serverNonce + clientNonce,
      counterparty: req.certifier,
    })
    .then((r) => r.valid)
    .catch(() => false);
  if (!serialOk) throw bad(base, 'the serial number does not prove this request (nonces)');
  if (type !== req.type) throw bad(base, `type ${String(type)} instead of ${req.type}`);
  if (certSubject !== subject) throw bad(base, `subject ${String(certSubject)} instead of this wallet ${subject}`);
  if (certifier !== req.certifier) throw bad(base, `certifier ${String(certifier)} instead of ${req.certifier}`);
  const signed = fields as Record<string, unknown>;
  const sent = Object.keys(certificateFields);
  if (Object.keys(signed).length !== sent.length || !sent.every((n) => signed[n] === certificateFields[n])) {
    throw bad(base, 'fields other than the ones sent');
  }
  return {
    type: req.type,
    serialNumber: serialNumber as string,
    certifier: req.certifier,
    revocationOutpoint: revocationOutpoint as string,
    signature: signature as string,
    fields: certificateFields,
    keyring: masterKeyring,
    revealer: req.certifier,
  };
}

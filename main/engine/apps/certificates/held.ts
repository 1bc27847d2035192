import {
  MasterCertificate,
  ProtoWallet,
  type CertificateResult,
  type ListCertificatesArgs,
  type ListCertificatesResult,
  type ProveCertificateArgs,
  type ProveCertificateResult,
  type RelinquishCertificateArgs,
} from '@bsv/sdk';
import type { StoredCertificate } from '../../../store/repos/app-certificates.js';
import { publicKeyHex } from '../args.js';
import type { AppCall } from '../call.js';
import { invalidParameter, WalletErr } from '../werr.js';
import { certificatesChanged, notPrivileged, sdkChecked, strings, Validation } from './args.js';

/** As the reference lists a certificate: its signed values, the master keyring and who revealed it. */
const resultOf = (c: StoredCertificate): CertificateResult => ({
  type: c.type,
  subject: c.subject,
  serialNumber: c.serialNumber,
  certifier: c.certifier,
  revocationOutpoint: c.revocationOutpoint,
  signature: c.signature,
  fields: c.fields,
  keyring: c.masterKeyring,
  verifier: c.revealer,
});

/**
 * listCertificates: the wallet's certificates by certifiers and types (none given: all), oldest first. The app
 * needs the organisation's grant for each type it asks for, or for each type on the page when it asks for all.
 */
export async function listCertificates(call: AppCall): Promise<ListCertificatesResult> {
  const { args } = call;
  notPrivileged(args);
  const certifiers = strings(args, 'certifiers');
  const types = strings(args, 'types');
  const v = sdkChecked(() => Validation.validateListCertificatesArgs({ ...args, certifiers, types } as unknown as ListCertificatesArgs));
  for (const type of new Set(v.types)) await call.permit.certificate(type, 'list');
  const { total, certificates } = call.services.repos.appCertificates.list(call.wallet.id, v);
  if (v.types.length === 0) for (const type of new Set(certificates.map((c) => c.type))) await call.permit.certificate(type, 'list');
  return { totalCertificates: total, certificates: certificates.map(resultOf) };
}

/**
 * proveCertificate: a keyring that lets `verifier` decrypt exactly `fieldsToReveal` of one certificate the
 * wallet holds (named by any of its properties; it must match one). Audited: it reveals identity data.
 */
export async function proveCertificate(call: AppCall): Promise<ProveCertificateResult> {
  const { args } = call;
  notPrivileged(args);
  const certificate = args.certificate;
  if (!certificate || typeof certificate !== 'object' || Array.isArray(certificate)) throw invalidParameter('certificate', 'an object');
  const fieldsToReveal = strings(args, 'fieldsToReveal');
  const v = sdkChecked(() =>
    Validation.validateProveCertificateArgs({ ...args, certificate, fieldsToReveal } as unknown as ProveCertificateArgs),
  );
  publicKeyHex(args, 'verifier');
  const matches = call.services.repos.appCertificates.matching(call.wallet.id, v, 2);
  if (matches.length !== 1) throw invalidParameter('args', 'a unique certificate match');
  const held = matches[0];
  const detail = `type ${held.type} · serial ${held.serialNumber} · fields ${v.fieldsToReveal.join(',')} · verifier ${v.verifier}`;
  await call.permit.certificate(held.type, 'prove', v.fieldsToReveal, v.verifier);
  for (const name of v.fieldsToReveal) {
    if (!Object.hasOwn(held.fields, name)) {
      call.audit('proveCertificate', 'WERR_INVALID_PARAMETER', detail);
      throw invalidParameter('fieldsToReveal', `a subset of the certificate's fields (it has no field ${name})`);
    }
  }
  try {
    const keyringForVerifier = await MasterCertificate.createKeyringForVerifier(
      new ProtoWallet(await call.rootKey()),
      held.revealer,
      v.verifier,
      held.fields,
      v.fieldsToReveal,
      held.masterKeyring,
      held.serialNumber,
    );
    call.audit('proveCertificate', null, detail);
    return { keyringForVerifier };
  } catch (err) {
    call.audit('proveCertificate', err instanceof WalletErr ? err.name : 'ERROR', detail);
    if (err instanceof WalletErr) throw err;
    throw new WalletErr('WERR_INTERNAL', 1, "The certificate's keyring no longer opens its fields with this wallet's keys.");
  }
}

/** relinquishCertificate: the wallet forgets the certificate (its rows are deleted). Audited. */
export async function relinquishCertificate(call: AppCall): Promise<{ relinquished: true }> {
  const v = sdkChecked(() => Validation.validateRelinquishCertificateArgs(call.args as unknown as RelinquishCertificateArgs));
  await call.permit.certificate(v.type, 'relinquish');
  const detail = `type ${v.type} · serial ${v.serialNumber} · certifier ${v.certifier}`;
  if (!call.services.repos.appCertificates.remove(call.wallet.id, v.type, v.serialNumber, v.certifier)) {
    call.audit('relinquishCertificate', 'WERR_INVALID_PARAMETER', detail);
    throw invalidParameter('args', 'a certificate this wallet holds (type, serialNumber and certifier)');
  }
  call.audit('relinquishCertificate', null, detail);
  certificatesChanged(call);
  return { relinquished: true };
}

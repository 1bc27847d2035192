import { Certificate, MasterCertificate, ProtoWallet, type AcquireCertificateArgs, type WalletCertificate } from '@bsv/sdk';
import { classifyAddress } from '../../../net/address-class.js';
import type { StoredCertificate } from '../../../store/repos/app-certificates.js';
import { publicKeyHex } from '../args.js';
import type { AppCall } from '../call.js';
import { invalidParameter, WalletErr } from '../werr.js';
import { certificatesChanged, notPrivileged, objectOfStrings, sdkChecked, Validation } from './args.js';
import { requestIssuance, type Candidate } from './issuance.js';

export type { Candidate };

/** The reference's refusal of a certificate that does not add up (its WERR_INVALID_PARAMETER on `args`). */
const refused = (reason: string) =>
  invalidParameter('args', `valid encrypted and signed certificate and keyring from revealer. Error: ${reason}`);

/**
 * Checks a certificate for this wallet: signed by its certifier over exactly these values, issued to this
 * wallet's identity key (the root key's public key), and a keyring that opens every field with the wallet's
 * keys. Throws `refused` otherwise; answers the decrypted fields (never logged, never stored).
 */
export async function verifyForWallet(wallet: ProtoWallet, c: Candidate): Promise<Record<string, string>> {
  const subject = (await wallet.getPublicKey({ identityKey: true })).publicKey;
  const names = Object.keys(c.fields);
  if (names.length === 0) throw refused('the certificate has no fields');
  if (Object.keys(c.keyring).length !== names.length || !names.every((n) => typeof c.keyring[n] === 'string' && c.keyring[n] !== ''))
    throw refused('the keyring must hold a key for every field, and only for them');
  const cert = new Certificate(c.type, c.serialNumber, subject, c.certifier, c.revocationOutpoint, c.fields, c.signature);
  let valid: boolean;
  try {
    valid = await cert.verify();
  } catch {
    valid = false;
  }
  // Signed over this wallet's key as subject: a certificate issued to anyone else fails here too.
  if (!valid) throw refused(`the certifier's signature does not verify for subject ${subject}`);
  try {
    return await MasterCertificate.decryptFields(wallet, c.keyring, c.fields, c.revealer);
  } catch {
    throw refused("the keyring does not decrypt every field with this wallet's keys");
  }
}

const resultOf = (c: StoredCertificate): WalletCertificate => ({
  type: c.type,
  subject: c.subject,
  serialNumber: c.serialNumber,
  certifier: c.certifier,
  revocationOutpoint: c.revocationOutpoint,
  signature: c.signature,
  fields: c.fields,
});

/** acquireCertificate: 'direct' (the app hands over a signed certificate) or 'issuance' (from the certifier). */
export async function acquireCertificate(call: AppCall): Promise<WalletCertificate> {
  const { args } = call;
  notPrivileged(args);
  const fields = objectOfStrings(args, 'fields', true)!;
  const keyringForSubject = objectOfStrings(args, 'keyringForSubject', false);
  const protocol = args.acquisitionProtocol;
  if (protocol !== 'direct' && protocol !== 'issuance')
    throw invalidParameter('acquisitionProtocol', `valid. ${String(protocol)} is unrecognized.`);
  if (Object.keys(fields).length === 0) throw invalidParameter('fields', 'an object of at least one field');
  publicKeyHex(args, 'certifier');
  const sdkArgs = { ...args, fields, keyringForSubject } as unknown as AcquireCertificateArgs;
  const wallet = new ProtoWallet(await call.rootKey());
  const subject = (await wallet.getPublicKey({ identityKey: true })).publicKey;
  let candidate: Candidate;
  if (protocol === 'direct') {
    const v = sdkChecked(() => Validation.validateAcquireDirectCertificateArgs(sdkArgs));
    if (args.subject !== undefined && args.subject !== subject) throw refused(`the subject must be this wallet's identity key ${subject}`);
    await call.permit.certificate(v.type, 'acquire', Object.keys(v.fields));
    candidate = {
      type: v.type,
      serialNumber: v.serialNumber,
      certifier: v.certifier,
      revocationOutpoint: v.revocationOutpoint,
      signature: v.signature,
      fields: v.fields,
      keyring: v.keyringForSubject,
      revealer: v.keyringRevealer === 'certifier' ? v.certifier : v.keyringRevealer,
    };
  } else {
    const v = sdkChecked(() => Validation.validateAcquireIssuanceCertificateArgs(sdkArgs));
    await call.permit.certificate(v.type, 'acquire', Object.keys(v.fields));
    try {
      // Loopback certifiers only for an app calling from this machine (it could reach them itself).
      const net = { allowLoopback: classifyAddress(call.client) === 'loopback' };
      candidate = await requestIssuance(
        wallet,
        { type: v.type, certifier: v.certifier, certifierUrl: v.certifierUrl, fields: v.fields },
        net,
      );
    } catch (err) {
      call.audit('acquireCertificate', err instanceof WalletErr ? err.name : 'ERROR', `issuance from ${v.certifierUrl}`);
      throw err;
    }
  }
  try {
    await verifyForWallet(wallet, candidate);
  } catch (err) {
    call.audit(
      'acquireCertificate',
      err instanceof WalletErr ? err.name : 'ERROR',
      `type ${candidate.type} · certifier ${candidate.certifier}`,
    );
    throw err;
  }
  const stored: StoredCertificate = {
    type: candidate.type,
    serialNumber: candidate.serialNumber,
    certifier: candidate.certifier,
    subject,
    revealer: candidate.revealer,
    revocationOutpoint: candidate.revocationOutpoint,
    signature: candidate.signature,
    fields: candidate.fields,
    masterKeyring: candidate.keyring,
    originator: call.app.originator,
    protocol,
    acquiredAt: call.services.now(),
  };
  call.services.repos.appCertificates.put(call.wallet.id, stored);
  certificatesChanged(call);
  call.audit(
    'acquireCertificate',
    null,
    `${protocol} · type ${stored.type} · serial ${stored.serialNumber} · certifier ${stored.certifier} · fields ${Object.keys(stored.fields).join(',')}`,
  );
  call.services.logger.info(
    { originator: call.app.originator, wallet: call.wallet.walletId, type: stored.type },
    'a BRC-100 app acquired a certificate',
  );
  return resultOf(stored);
}

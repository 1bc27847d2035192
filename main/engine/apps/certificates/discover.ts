import {
  MasterCertificate,
  ProtoWallet,
  type DiscoverByAttributesArgs,
  type DiscoverByIdentityKeyArgs,
  type DiscoverCertificatesResult,
  type IdentityCertificate,
} from '@bsv/sdk';
import type { StoredCertificate } from '../../../store/repos/app-certificates.js';
import type { AppCall } from '../call.js';
import { objectOfStrings, sdkChecked, Validation } from './args.js';

/** Certificates read per discovery at most (each is decrypted to be matched). */
export const DISCOVERY_SCAN = 1000;

/**
 * Keystead keeps no list of trusted certifiers (the reference reads its user's trust settings): every
 * certifier is described as such, with the lowest trust, and apps decide for themselves.
 */
const certifierInfo = (certifier: string) => ({
  name: `Certifier ${certifier.slice(0, 16)}`,
  iconUrl: '',
  description: 'Not in a trust list',
  trust: 0,
});

interface Opened {
  held: StoredCertificate;
  decrypted: Record<string, string>;
}

/**
 * The wallet's own certificates, opened with its keys. Discovery is answered from these alone (no overlay
 * lookup, unlike the reference): a key other than this wallet's identity finds nothing, and attributes match
 * only what this wallet holds. A certificate whose keyring no longer opens is left out.
 */
async function opened(call: AppCall, wallet: ProtoWallet): Promise<Opened[]> {
  const { certificates } = call.services.repos.appCertificates.list(call.wallet.id, {
    certifiers: [],
    types: [],
    limit: DISCOVERY_SCAN,
    offset: 0,
  });
  const out: Opened[] = [];
  for (const held of certificates) {
    try {
      out.push({ held, decrypted: await MasterCertificate.decryptFields(wallet, held.masterKeyring, held.fields, held.revealer) });
    } catch {
      call.services.logger.warn(
        { wallet: call.wallet.walletId, type: held.type },
        'a held certificate no longer decrypts; left out of discovery',
      );
    }
  }
  return out;
}

/**
 * One page of matches as the SDK's IdentityCertificate: the fields decrypted, and a keyring for `anyone` (the
 * publicly revealed keyring) that opens them. The app needs the grant to disclose each certificate's type and
 * fields; the disclosure is audited.
 */
async function answer(
  call: AppCall,
  wallet: ProtoWallet,
  matches: Opened[],
  page: { limit: number; offset: number },
  method: string,
): Promise<DiscoverCertificatesResult> {
  const slice = matches.slice(page.offset, page.offset + page.limit);
  const certificates: IdentityCertificate[] = [];
  for (const { held, decrypted } of slice) {
    const names = Object.keys(held.fields);
    await call.permit.certificate(held.type, 'disclose', names);
    const publiclyRevealedKeyring = await MasterCertificate.createKeyringForVerifier(
      wallet,
      held.revealer,
      'anyone',
      held.fields,
      names,
      held.masterKeyring,
      held.serialNumber,
    );
    certificates.push({
      type: held.type,
      subject: held.subject,
      serialNumber: held.serialNumber,
      certifier: held.certifier,
      revocationOutpoint: held.revocationOutpoint,
      signature: held.signature,
      fields: held.fields,
      certifierInfo: certifierInfo(held.certifier),
      publiclyRevealedKeyring,
      decryptedFields: decrypted,
    });
  }
  if (certificates.length > 0) {
    call.audit(method, null, `disclosed ${certificates.map((c) => `type ${c.type} serial ${c.serialNumber}`).join('; ')}`);
  }
  return { totalCertificates: matches.length, certificates };
}

/** discoverByIdentityKey: this wallet's certificates when the key is its own identity key; nothing otherwise. */
export async function discoverByIdentityKey(call: AppCall): Promise<DiscoverCertificatesResult> {
  const v = sdkChecked(() => Validation.validateDiscoverByIdentityKeyArgs(call.args as unknown as DiscoverByIdentityKeyArgs));
  const wallet = new ProtoWallet(await call.rootKey());
  const me = (await wallet.getPublicKey({ identityKey: true })).publicKey;
  if (v.identityKey.toLowerCase() !== me) return { totalCertificates: 0, certificates: [] };
  const matches = (await opened(call, wallet)).filter((o) => o.held.subject === me);
  return answer(call, wallet, matches, v, 'discoverByIdentityKey');
}

/** discoverByAttributes: this wallet's certificates whose decrypted fields equal every attribute given. */
export async function discoverByAttributes(call: AppCall): Promise<DiscoverCertificatesResult> {
  const attributes = objectOfStrings(call.args, 'attributes', true)!;
  const v = sdkChecked(() =>
    Validation.validateDiscoverByAttributesArgs({ ...call.args, attributes } as unknown as DiscoverByAttributesArgs),
  );
  const wallet = new ProtoWallet(await call.rootKey());
  const wanted = Object.entries(v.attributes);
  if (wanted.length === 0) return { totalCertificates: 0, certificates: [] };
  const matches = (await opened(call, wallet)).filter((o) =>
    wanted.every(([name, value]) => Object.hasOwn(o.decrypted, name) && o.decrypted[name] === value),
  );
  return answer(call, wallet, matches, v, 'discoverByAttributes');
}

import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import jsrsasign from 'jsrsasign';

/**
 * App Store signed data made in the test: a certificate chain shaped like Apple's (a root; an intermediate
 * carrying Apple's intermediate marker extension 1.2.840.113635.100.6.2.1; a leaf carrying the leaf marker
 * 1.2.840.113635.100.6.11.1), and ES256 compact JWS signed by the leaf with the chain in `x5c`, as the App
 * Store signs transactions and notifications. The stage's verifier is given the root as its anchor, so the
 * library's real chain and signature checks run. Certificates are made with jsrsasign (the App Store library's
 * own X.509 dependency): Node's crypto reads certificates but cannot make them.
 */

const { KJUR } = jsrsasign;

export interface AppleChain {
  root: Buffer;
  intermediate: Buffer;
  leaf: Buffer;
  leafKey: KeyObject;
}

const keyPair = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const pem = (key: KeyObject, type: 'spki' | 'pkcs8') => key.export({ type, format: 'pem' }).toString();
/** X.509 UTCTime: YYMMDDHHMMSSZ. */
const utcTime = (date: Date) => `${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`;

function certificate(options: {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signer: KeyObject;
  ca: boolean;
  marker?: string;
  notBefore: Date;
  notAfter: Date;
}): Buffer {
  const cert = new KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { int: Math.floor(Math.random() * 1e9) },
    issuer: { str: options.issuer },
    subject: { str: options.subject },
    notbefore: utcTime(options.notBefore),
    notafter: utcTime(options.notAfter),
    sbjpubkey: pem(options.publicKey, 'spki'),
    ext: [
      { extname: 'basicConstraints', cA: options.ca, critical: true },
      // Apple's marker extensions carry an ASN.1 NULL; the verifier only asks that they are there.
      ...(options.marker ? [{ extname: options.marker, extn: '0500' }] : []),
    ],
    sigalg: 'SHA256withECDSA',
    cakey: pem(options.signer, 'pkcs8'),
  } as never);
  return Buffer.from(cert.getEncodedHex(), 'hex');
}

/** A fresh chain; `name` tells chains apart (another root for the negative cases). */
export function makeAppleChain(name = `Test Root ${randomUUID().slice(0, 8)}`, validity?: { notBefore: Date; notAfter: Date }): AppleChain {
  const notBefore = validity?.notBefore ?? new Date(Date.now() - 86_400_000);
  const notAfter = validity?.notAfter ?? new Date(Date.now() + 365 * 86_400_000);
  const [root, intermediate, leaf] = [keyPair(), keyPair(), keyPair()];
  const rootName = `/C=US/O=Test/CN=${name}`;
  const intermediateName = `/C=US/O=Test/CN=${name} WWDR`;
  return {
    root: certificate({ subject: rootName, issuer: rootName, publicKey: root.publicKey, signer: root.privateKey, ca: true, notBefore, notAfter }),
    intermediate: certificate({
      subject: intermediateName,
      issuer: rootName,
      publicKey: intermediate.publicKey,
      signer: root.privateKey,
      ca: true,
      marker: '1.2.840.113635.100.6.2.1',
      notBefore,
      notAfter,
    }),
    leaf: certificate({
      subject: `/C=US/O=Test/CN=${name} Signing`,
      issuer: intermediateName,
      publicKey: leaf.publicKey,
      signer: intermediate.privateKey,
      ca: false,
      marker: '1.2.840.113635.100.6.11.1',
      notBefore,
      notAfter,
    }),
    leafKey: leaf.privateKey,
  };
}

/** `payload` as the App Store signs it: ES256 compact JWS by the chain's leaf, `x5c` leaf, intermediate, root. */
export async function signJws(chain: AppleChain, payload: object): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256', x5c: [chain.leaf, chain.intermediate, chain.root].map((der) => der.toString('base64')) })
    .sign(chain.leafKey);
}

/** A JWS with one byte of its signature changed: a forgery of the same payload and chain. */
export function forge(jws: string): string {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const bytes = Buffer.from(signature, 'base64url');
  bytes[5] = bytes[5]! ^ 0xff;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

/**
 * A consumable's signed transaction info (JWSTransactionDecodedPayload) as the App Store writes it; dates are
 * epoch milliseconds.
 */
export function transactionPayload(fields: {
  bundleId: string;
  productId: string;
  appAccountToken?: string;
  transactionId?: string;
  environment?: 'Production' | 'Sandbox';
  quantity?: number;
}) {
  const now = Date.now();
  const transactionId = fields.transactionId ?? String(2000000000000000 + Math.floor(Math.random() * 1e12));
  return {
    transactionId,
    originalTransactionId: transactionId,
    bundleId: fields.bundleId,
    productId: fields.productId,
    purchaseDate: now - 1000,
    originalPurchaseDate: now - 1000,
    quantity: fields.quantity ?? 1,
    type: 'Consumable',
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: fields.environment ?? 'Sandbox',
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: 1990,
    currency: 'USD',
    ...(fields.appAccountToken ? { appAccountToken: fields.appAccountToken } : {}),
  };
}

/** An App Store Server Notification v2 payload (responseBodyV2DecodedPayload) about the app `bundleId`. */
export function notificationPayload(fields: {
  notificationType: string;
  subtype?: string;
  bundleId: string;
  environment?: 'Production' | 'Sandbox';
  appAppleId?: number;
  signedTransactionInfo?: string;
  notificationUUID?: string;
}) {
  return {
    notificationType: fields.notificationType,
    ...(fields.subtype ? { subtype: fields.subtype } : {}),
    notificationUUID: fields.notificationUUID ?? randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: {
      bundleId: fields.bundleId,
      environment: fields.environment ?? 'Sandbox',
      ...(fields.appAppleId === undefined ? {} : { appAppleId: fields.appAppleId }),
      ...(fields.signedTransactionInfo ? { signedTransactionInfo: fields.signedTransactionInfo } : {}),
    },
  };
}

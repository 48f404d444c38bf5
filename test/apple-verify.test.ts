import { describe, expect, it } from 'vitest';
import { verifyTransaction } from '../core/app-stores/apple.js';
import { parseAppleSettings, type AppleSettings } from '../core/app-stores/apple-settings.js';
import { forge, makeAppleChain, signJws, transactionPayload } from './support/app-store-signing.js';

/**
 * App Store signed transactions through Apple's own verifier (core/app-stores/apple.ts), against a certificate chain
 * made here: the library's chain, marker, signature, bundle id and environment checks all run for real.
 */

const BUNDLE = 'com.studio.game';
const chain = makeAppleChain();
const settings = (extra: Partial<AppleSettings> = {}): AppleSettings => ({
  bundleId: BUNDLE,
  environment: 'Sandbox',
  allowSandbox: false,
  rootCertificates: [chain.root],
  onlineChecks: false,
  ...extra,
});
const signed = (fields: Partial<Parameters<typeof transactionPayload>[0]> = {}, by = chain) =>
  signJws(by, transactionPayload({ bundleId: BUNDLE, productId: 'tickets_100', appAccountToken: '7f1d3a52-4c1e-4d1a-9a55-0c6b1d2e3f40', ...fields }));

describe('verifying a signed transaction', () => {
  it('decodes a transaction signed by a chain to the stage root', async () => {
    const decoded = await verifyTransaction(settings(), await signed({ transactionId: '2000000123456789' }));
    expect(decoded).toMatchObject({
      transactionId: '2000000123456789',
      bundleId: BUNDLE,
      productId: 'tickets_100',
      appAccountToken: '7f1d3a52-4c1e-4d1a-9a55-0c6b1d2e3f40',
      environment: 'Sandbox',
      type: 'Consumable',
      quantity: 1,
    });
  });

  it.each([
    [
      'a chain to another root',
      () => signed({}, makeAppleChain('Other Root')),
      "signedTransaction: not verified: its signature or certificate chain is not Apple's",
    ],
    ['a forged signature', async () => forge(await signed()), "signedTransaction: not verified: its signature or certificate chain is not Apple's"],
    ['another bundle id', () => signed({ bundleId: 'com.other.game' }), 'signedTransaction: not verified: it is for another app (bundle id or app Apple id)'],
    ['no JWS at all', async () => 'not-a-jws', 'signedTransaction: not a JWS with a JSON payload'],
  ])('refuses %s with 400 naming the field', async (_case, make, message) => {
    await expect(verifyTransaction(settings(), await make())).rejects.toMatchObject({ kind: 'InvalidInput', message });
  });

  it('refuses a chain whose certificates were not valid when the transaction was signed', async () => {
    const expired = makeAppleChain('Expired Root', { notBefore: new Date(Date.now() - 20 * 86_400_000), notAfter: new Date(Date.now() - 10 * 86_400_000) });
    await expect(verifyTransaction(settings({ rootCertificates: [expired.root] }), await signed({}, expired))).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: 'signedTransaction: not verified: a certificate of its chain is unreadable, expired, not yet valid or revoked',
    });
  });

  it('takes Sandbox data on a Production stage only when allowed; never Production data on a Sandbox stage', async () => {
    const production = settings({ environment: 'Production', appAppleId: 1234567890 });
    const sandboxData = await signed();
    await expect(verifyTransaction(production, sandboxData)).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: 'signedTransaction: Sandbox data is not taken on this stage (it takes Production)',
    });
    expect((await verifyTransaction({ ...production, allowSandbox: true }, sandboxData)).environment).toBe('Sandbox');
    const productionData = await signed({ environment: 'Production' });
    expect((await verifyTransaction(production, productionData)).environment).toBe('Production');
    await expect(verifyTransaction(settings(), productionData)).rejects.toMatchObject({
      kind: 'InvalidInput',
      message: 'signedTransaction: Production data is not taken on this stage (it takes Sandbox)',
    });
  });
});

describe('the AppleConfig setting', () => {
  const root = chain.root.toString('base64');

  it('parses a Production stage: Sandbox off, online checks on, no consumption consent, the API key optional', () => {
    expect(parseAppleSettings(JSON.stringify({ bundleId: BUNDLE, appAppleId: 1234567890, rootCertificates: [root] }))).toEqual({
      bundleId: BUNDLE,
      appAppleId: 1234567890,
      environment: 'Production',
      allowSandbox: false,
      rootCertificates: [chain.root],
      onlineChecks: true,
      consumptionConsent: false,
    });
    expect(parseAppleSettings('')).toBeUndefined();
  });

  it.each([
    [{ rootCertificates: [root] }, "apple config: bundleId must be the app's bundle id, e.g. com.studio.game"],
    [{ bundleId: BUNDLE, rootCertificates: [root] }, 'apple config: appAppleId is required for Production'],
    [{ bundleId: BUNDLE, environment: 'Xcode', rootCertificates: [root] }, 'apple config: environment must be "Production" or "Sandbox"'],
    [{ bundleId: BUNDLE, environment: 'Sandbox', rootCertificates: [] }, 'apple config: rootCertificates must be a non-empty list of Base64 DER certificates'],
    [
      { bundleId: BUNDLE, environment: 'Sandbox', rootCertificates: [root], keyId: 'K' },
      'apple config: keyId, issuerId and privateKey go together (an App Store Server API key)',
    ],
    [
      { bundleId: BUNDLE, environment: 'Sandbox', rootCertificates: [root], consumptionConsent: 'yes' },
      'apple config: consumptionConsent must be true or false',
    ],
  ])('refuses %j naming the field', (setting, message) => {
    expect(() => parseAppleSettings(JSON.stringify(setting))).toThrow(message);
  });
});

import { cursorSecretOf } from '../core/platform/cursors.js';
import { parseTokenKeys, ringKeys } from '../core/platform/tokens.js';

/**
 * Per-stage secrets, set with `npx sst secret set <Name> <value> --stage <stage>` (or `< file`, from stdin) before
 * the first deploy, and deployed again after a change. Each function is linked only to the ones its code reads
 * (functions/deployed.ts `functionNeeds`, infra/functions.ts) and reads them through `Resource`.
 */

/**
 * The ES256 (EC P-256) token keys: one private JWK with a `kid` (the original form), or the ring
 * `{"current": <private jwk>, "next": <private jwk>?, "previous": <public jwk>?}` that the rotation procedure
 * (README "Rotating the token key", `npm run admin -- rotate-signing-key`) moves through. Only functions that
 * issue tokens are linked to it.
 */
export const tokenSigningKey = new sst.Secret('TokenSigningKey');

/**
 * The ring's public keys alone, derived from TokenSigningKey at deploy: what functions that only verify tokens
 * (and JWKS) are linked to, so they never hold a private token key. A TokenSigningKey that does not parse fails
 * the deploy here, before any function gets it.
 */
export const tokenPublicKeys = new sst.Linkable('TokenPublicKeys', {
  properties: { keys: tokenSigningKey.value.apply((setting: string) => ringKeys(parseTokenKeys(setting))) },
});

/**
 * The key that seals the cursors of cursor-paged reads (core/platform/cursors.ts), derived from TokenSigningKey at
 * deploy: a key of its own (never a token key), given to the functions that page with cursors without giving
 * them the private token keys, and with no secret of its own to set. It changes with the ring's current key.
 */
export const cursorKey = new sst.Linkable('CursorKey', {
  properties: { key: tokenSigningKey.value.apply((setting: string) => cursorSecretOf(parseTokenKeys(setting))) },
});

/**
 * The ES256 private JWK (with a `kid`) that signs vendor PaymentRequests (vendor/signature), verified on chain with
 * `sui::ecdsa_r1::secp256r1_verify`. A key of its own, never a token key (`npm run admin -- generate-vendor-key`).
 * "" turns vendor/signature off (503).
 */
export const vendorSigningKey = new sst.Secret('VendorSigningKey', '');

/**
 * The OpenID Connect providers whose id_tokens zkLogin and social binding accept, as JSON:
 * `[{"name":"google","issuer":"https://accounts.google.com","jwksUri":"https://www.googleapis.com/oauth2/v3/certs","clientIds":["…"]}]`.
 * Not secret, but per stage and set the same way; "[]" turns those operations off (503).
 */
export const oauthProviders = new sst.Secret('OAuthProviders', '[]');

/**
 * The stage's chain (payments, the indexer), as JSON: `{"kind":"jsonrpc"|"graphql","url":"…","paymentEventType":
 * "0x…::pay::PaymentEvent","paymentFunction":"0x…::pay::pay","paymentKit":{"packageId":"0x…","registry":"…"}}`
 * (core/chain/source.ts; paymentEventType or paymentKit). "" turns chain features off (503).
 */
export const chainConfig = new sst.Secret('ChainConfig', '');

/**
 * The Ed25519 key that signs reward claims (sign_code), verified on chain with `sui::ed25519::ed25519_verify`: a
 * private JWK as JSON (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`) or Sui's `suiprivkey1…` (`sui keytool
 * generate ed25519`), or the claim settings form of core/rewards/claim-key.ts. "" turns claims off (503).
 */
export const claimSigningKey = new sst.Secret('ClaimSigningKey', '');

/**
 * The gas sponsor of players' reward claims (core/sponsorship/sponsor-key.ts): Sui's `suiprivkey1…` of an Ed25519
 * key whose address holds the SUI that pays the gas, or the sponsor settings `{"key": "suiprivkey1…", "gas_cap":
 * …, "player_daily_count": …, …}`. "" turns sponsored claims off (503).
 */
export const sponsorKey = new sst.Secret('SponsorKey', '');

/** Every secret of the stage. */
export const secrets = [tokenSigningKey, vendorSigningKey, oauthProviders, chainConfig, claimSigningKey, sponsorKey];

/**
 * The stage's App Store settings, as JSON (core/app-stores/apple-settings.ts): `{"bundleId":"com.studio.game",
 * "appAppleId":1234567890,"environment":"Production","rootCertificates":["<Apple Root CA - G3, Base64 DER>"],
 * "keyId":"…","issuerId":"…","privateKey":"-----BEGIN PRIVATE KEY-----…"}`. "" turns the App Store operations off (503).
 */
export const appleConfig = new sst.Secret('AppleConfig', '');

/**
 * The stage's Google Play settings, as JSON (core/app-stores/google-settings.ts): `{"packageName":"com.studio.game",
 * "pushAudience":"<the push subscription's audience>","pushServiceAccount":"pubsub-push@<project>.iam.gserviceaccount.com",
 * "serviceAccountKey":{<the Play Developer API service account's JSON key>}}`. "" turns google_callback off (503).
 */
export const googleConfig = new sst.Secret('GoogleConfig', '');

/**
 * The partner store's signing keys, one per region (core/partner-store/regions.ts): `{"default": <private ES256 JWK>,
 * "chengdu": <private ES256 JWK>}`, made by `npm run admin -- generate-store-keys`. "" turns the store's OAuth
 * endpoints off (503).
 */
export const storeKeys = new sst.Secret('StoreKeys', '');

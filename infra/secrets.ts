/**
 * Per-stage secrets, set with `npx sst secret set <Name> <value> --stage <stage>` before the first deploy.
 * Every function is linked to all of them (infra/functions.ts) and reads them through `Resource` (functions/deployed.ts).
 */

/** The private ES256 (EC P-256) JWK, as JSON with a `kid`, that signs this stage's tokens; its public half is served at /.well-known/jwks.json. */
export const tokenSigningKey = new sst.Secret('TokenSigningKey');

/**
 * The OpenID Connect providers whose id_tokens zkLogin and social binding accept, as JSON:
 * `[{"name":"google","issuer":"https://accounts.google.com","jwksUri":"https://www.googleapis.com/oauth2/v3/certs","clientIds":["…"]}]`.
 * Not secret, but per stage and set the same way; "[]" turns those operations off (503).
 */
export const oauthProviders = new sst.Secret('OAuthProviders', '[]');

/**
 * The stage's chain (payments, the indexer), as JSON: `{"kind":"jsonrpc"|"graphql","url":"…","paymentEventType":
 * "0x…::pay::PaymentEvent","paymentFunction":"0x…::pay::pay"}` (core/chain/source.ts). "" turns chain features off (503).
 */
export const chainConfig = new sst.Secret('ChainConfig', '');

/**
 * The Ed25519 key that signs reward claims (sign_code), verified on chain with `sui::ed25519::ed25519_verify`: a
 * private JWK as JSON (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`) or Sui's `suiprivkey1…` (`sui keytool
 * generate ed25519`). "" turns claims off (503).
 */
export const claimSigningKey = new sst.Secret('ClaimSigningKey', '');

/** Every secret the functions read. Later issues add theirs here. */
export const secrets = [tokenSigningKey, oauthProviders, chainConfig, claimSigningKey];

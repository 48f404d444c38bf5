import { STORE_SCOPES } from './names.js';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import { StoreJwks } from './models.js';
import { regionKey, type StoreRegion } from './regions.js';

/**
 * A region's authorization server metadata (RFC 8414 §2), what oauth4webapi and other clients discover: only
 * what the region serves. Its URLs are under the issuer. 503 where the stage has no store keys (the region
 * serves nothing then).
 */
export function serverMetadata(deps: Pick<PartnerStoreDeps, 'storeKeys'>, region: StoreRegion, issuer: string) {
  regionKey(deps, region);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/jwks.json`,
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    authorization_response_iss_parameter_supported: true,
    scopes_supported: [...STORE_SCOPES],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * The metadata where RFC 8414 §3.1 puts it, at the host root with the stage in its path: only this stage's
 * (another stage's issuer is another deployment's, 404).
 */
export function stageMetadata(deps: Pick<PartnerStoreDeps, 'storeKeys' | 'stage'>, region: StoreRegion, stage: string, issuer: string) {
  if (stage !== deps.stage) throw storeError('store.stage_unknown', `stage: ${stage.slice(0, 64)} is not this stage`);
  return serverMetadata(deps, region, issuer);
}

/** The region's public key (its JWKS): tokens of the region verify with it, and only with it. */
export function regionJwks(deps: Pick<PartnerStoreDeps, 'storeKeys'>, region: StoreRegion) {
  return StoreJwks.parse({ keys: [regionKey(deps, region).jwk] });
}

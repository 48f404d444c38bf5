import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Chain } from '../chain/types.js';
import type { IdTokenVerifier } from '../identity/id-tokens.js';
import type { ClaimSigner } from '../rewards/claim-key.js';
import type { AppleApiClients, AppleSettings } from '../stores/apple-settings.js';
import type { GoogleSettings } from '../stores/google-settings.js';
import type { StoreKeys } from '../store/regions.js';
import type { FileStore } from './files.js';
import type { TokenService } from './tokens.js';

/**
 * Everything a domain operation needs from the outside world, passed in rather than imported so the same
 * code runs in a Lambda (functions/deployed.ts builds it from SST's linked resources), in the local server
 * and in tests (each test file on its own table).
 */
export interface Deps {
  stage: string;
  production: boolean;
  db: DynamoDBDocumentClient;
  table: string;
  tokens: TokenService;
  files: FileStore;
  /** OpenID Connect id_tokens of the stage's configured providers (zkLogin, social binding). */
  idTokens: IdTokenVerifier;
  /** The stage's chain (payments, the indexer); undefined where none is configured: those features answer 503. */
  chain?: Chain;
  /** The stage's claim key (sign_code); undefined where none is configured: claims answer 503. */
  claims?: ClaimSigner;
  /** The stage's App Store settings (AppleConfig); undefined where none: the App Store operations answer 503. */
  appStore?: AppleSettings;
  /** The App Store Server API clients, when not the library's own made from `appStore` (core/stores/apple-api.ts). */
  appStoreApi?: AppleApiClients;
  /** The stage's Google Play settings (GoogleConfig); undefined where none: google_callback answers 503. */
  googlePlay?: GoogleSettings;
  /** The partner store's region keys (StoreKeys); undefined where none: the store's OAuth endpoints answer 503. */
  storeKeys?: StoreKeys;
  now: () => Date;
}

import type { PlatformDeps } from '../platform/deps.js';
import type { StoreKeys } from './regions.js';

/** What the partner store needs besides the platform's part. */
export interface PartnerStoreDeps extends PlatformDeps {
  /** The partner store's region keys (StoreKeys); undefined where none: the store's OAuth endpoints answer 503. */
  storeKeys?: StoreKeys;
}

/** What the token endpoint and its grants need of the stage: the table, the clock and the region's key. */
export type TokenDeps = Pick<PartnerStoreDeps, 'db' | 'table' | 'now' | 'storeKeys'>;

import type { PlatformDeps } from '../platform/deps.js';
import type { Chain } from './types.js';

/** What the chain reads need besides the platform's part. */
export interface ChainDeps extends PlatformDeps {
  /** The stage's chain (payments, the indexer); undefined where none is configured: those features answer 503. */
  chain?: Chain;
}

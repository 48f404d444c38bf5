import type { ChainDeps } from './chain/deps.js';
import type { IdentityDeps } from './identity/deps.js';
import type { PlatformDeps } from './platform/deps.js';
import type { RewardsDeps } from './rewards/deps.js';
import type { PartnerStoreDeps } from './partner-store/deps.js';
import type { StoresDeps } from './app-stores/deps.js';
import type { SponsorshipDeps } from './sponsorship/deps.js';

/**
 * Everything the domain operations need from the outside world: the platform's part and each domain's own,
 * assembled here, above the domains, so no domain (nor core/platform) names another's settings. Built by
 * functions/deployed.ts from SST's linked resources, by the local server and by the tests; the HTTP layer hands
 * it to the handlers, and each domain function takes only the part it declares.
 */
export interface Deps extends PlatformDeps, IdentityDeps, ChainDeps, RewardsDeps, SponsorshipDeps, StoresDeps, PartnerStoreDeps {}

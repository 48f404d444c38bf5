import type { Handlers, RouteGroup } from '../../core/http/operation.js';
import { setSponsorship, sponsorshipOf } from '../../core/sponsorship/settings.js';
import { sponsorClaim } from '../../core/sponsorship/sponsor.js';
import type { sponsorshipOps } from '../routes/sponsorship.js';

/** Sponsored claims' operations of the pay group, spread into its handlers. Routes only translate HTTP to core/sponsorship. */
export const sponsorshipHandlers: Handlers<RouteGroup<typeof sponsorshipOps>> = {
  claim_sponsor: ({ deps, auth, body }) => sponsorClaim(deps, auth, body),
  sponsorship_set: ({ deps, body }) => setSponsorship(deps, body),
  sponsorship_get: ({ deps, query }) => sponsorshipOf(deps, query.game_code),
};

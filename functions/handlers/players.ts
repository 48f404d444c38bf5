import type { FirstReads, Handlers, RouteGroup } from '../../core/http/operation.js';
import { grantReads, studioGrant, studioPlayer, studioPlayerView } from '../../core/payments/player-view.js';
import { studioScores } from '../../core/rankings/player-scores.js';
import type { innerPlayersOps } from '../routes/players.js';

/** A studio's players, spread into the inner group's handlers. Routes only translate HTTP to the domains. */
export const innerPlayersHandlers: Handlers<RouteGroup<typeof innerPlayersOps>> = {
  player_view: async ({ deps, auth, query }) => {
    const player = await studioPlayer(deps, query);
    const [view, scores] = await Promise.all([studioPlayerView(deps, auth.sub, player, query), studioScores(deps, auth.sub, player.uid)]);
    return { ...view, scores };
  },
  player_tickets_grant: ({ deps, auth, body, req }) => studioGrant(deps, auth, body, req.header('idempotency-key')),
};

/** What the grant reads in the authorization layer's batch (one read request for the call, not two). */
export const innerPlayersReads: FirstReads<RouteGroup<typeof innerPlayersOps>> = {
  player_tickets_grant: ({ body }) => grantReads(body),
};

import { allow, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { SponsorBody, SponsoredClaim, Sponsorship, SponsorshipQuery, SponsorshipSave } from '../../core/sponsorship/models.js';
import { merchantToken, platformToken } from './errors.js';

/**
 * Sponsored claims in the pay group, which reads the chain (docs/claims.md "Sponsored claims"): a player's
 * redemption whose gas the stage's sponsor pays, and a studio's sponsorship of its game (console operations of
 * ours).
 */
export const sponsorshipOps = {
  claim_sponsor: {
    name: 'claim sponsor',
    method: 'POST',
    path: '/merchant/sign/sponsor',
    tag: 'sponsored claims',
    auth: allow(['platform'], [owns.record('body.id', 'history entry', 'platform_player_id')], { movesValue: true }),
    summary: "Have the stage pay the gas of one of the caller's claims (extra operation)",
    description:
      "Takes the claim call the player built with the Sui SDK (`transaction_kind`: `redeem<T>(verifier, message, signature, clock)` of the game's claim function, built with `onlyTransactionKind: true`) for the entry's current claim (sign_code first), and answers the whole transaction with the claim's recipient as sender and the stage's sponsor as gas owner, signed by the sponsor. The player signs the same bytes and executes them with both signatures. " +
      'Nothing is signed unless the kind is exactly that one call: no other command, no other input, no use of the gas coin. Asking again while the transaction is pending (its gas coin unmoved, its epoch current) answers the same transaction. ' +
      "Each signing counts against the player's and the game's day (claims, and gas budgets up to the stage's cap each).",
    body: SponsorBody,
    status: 200,
    envelope: 'merchant',
    response: SponsoredClaim,
    errors: {
      400: 'id or transaction_kind missing or malformed, or the transaction kind is not exactly the claim call (the message names what differs)',
      ...platformToken,
      404: "no history entry with that id (another player's is as unknown)",
      409: "the entry's claim is not signed or has expired (sign_code), the reward is paid already, or the game has no claim function set for sponsorship",
      429: "the player's or the game's sponsored claims or gas of the day are used up (Retry-After: the day's end, UTC)",
      503: "the stage has no sponsor, the chain could not be read, the sponsor's balance is under its threshold, or every gas coin is in a pending transaction",
    },
    codes: [
      'sponsor.transaction_refused',
      'sponsor.claim_not_ready',
      'sponsor.already_paid',
      'sponsor.game_not_sponsored',
      'sponsor.over_limit',
      'sponsor.unconfigured',
      'sponsor.unavailable',
      'chain.unreadable',
      'chain.unconfigured',
      'data.changed_concurrently',
    ],
  },
  sponsorship_set: {
    name: 'sponsorship set',
    method: 'POST',
    path: '/merchant/games/sponsorship',
    tag: 'sponsored claims',
    auth: consoleAuth([owns.game('body.game_code')]),
    summary: "Sponsor the claims of one of the caller's games (extra operation)",
    description:
      "`target` is the game's claim function (`<package>::<module>::<function>`, the function its verifier object's module pays claims with): only one call of it, for the entry's own claim, is sponsored. `daily_count` and `daily_gas` lower the stage's daily limits for the game's players together (unset: the stage's). Answers the sponsorship in force.",
    body: SponsorshipSave,
    status: 200,
    envelope: 'merchant',
    response: Sponsorship,
    errors: {
      400: "a field is missing or invalid, or a daily limit is above the stage's",
      ...merchantToken,
      403: "the game is another merchant's",
      404: 'no game with that code',
      503: 'the stage has no sponsor',
    },
    codes: ['sponsor.limit_above_stage', 'sponsor.unconfigured'],
  },
  sponsorship_get: {
    name: 'sponsorship get',
    method: 'GET',
    path: '/merchant/games/sponsorship',
    tag: 'sponsored claims',
    auth: consoleAuth([owns.game('query.game_code')], { whileSuspended: true }),
    summary: "The sponsorship of one of the caller's games, and what it signed today (extra operation)",
    description:
      '`target` is null while the game has none: then none of its claims is sponsored. `today` counts the claims signed today (UTC), their gas budgets (`gas`, the most they can cost the sponsor) and what those already paid on chain cost it (`gas_spent`).',
    query: SponsorshipQuery,
    status: 200,
    envelope: 'merchant',
    response: Sponsorship,
    errors: {
      400: 'game_code missing or malformed',
      ...merchantToken,
      403: "the game is another merchant's",
      404: 'no game with that code',
      503: 'the stage has no sponsor',
    },
    codes: ['sponsor.unconfigured'],
  },
} as const satisfies Record<string, OperationSpec>;

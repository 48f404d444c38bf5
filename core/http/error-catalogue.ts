import { accessErrors } from '../access/errors.js';
import { gameErrors } from '../games/errors.js';
import { goodsErrors } from '../goods/errors.js';
import { heroErrors } from '../heroes/errors.js';
import { identityErrors } from '../identity/errors.js';
import { merchantErrors } from '../merchants/errors.js';
import { paymentErrors } from '../payments/errors.js';
import { platformErrors, type ErrorCatalogue, type ErrorEntry } from '../platform/errors.js';
import { privacyErrors } from '../privacy/errors.js';
import { leagueErrors } from '../leagues/errors.js';
import { rankingErrors } from '../rankings/errors.js';
import { rewardErrors } from '../rewards/errors.js';
import { sponsorErrors } from '../sponsorship/errors.js';
import { storeErrors } from '../partner-store/errors.js';
import { storesErrors } from '../app-stores/errors.js';
import { ticketErrors } from '../tickets/errors.js';
import { statusOfKind } from './error-statuses.js';
import { httpErrors } from './errors.js';

type CodeOf<T> = T extends ErrorCatalogue<infer C> ? C : never;

/** Every catalogued code, as a type: what a route table's `codes` may name (a typo fails the type check). */
export type ErrorCode = CodeOf<
  | typeof platformErrors
  | typeof httpErrors
  | typeof accessErrors
  | typeof merchantErrors
  | typeof gameErrors
  | typeof ticketErrors
  | typeof paymentErrors
  | typeof goodsErrors
  | typeof identityErrors
  | typeof heroErrors
  | typeof rankingErrors
  | typeof rewardErrors
  | typeof leagueErrors
  | typeof sponsorErrors
  | typeof storeErrors
  | typeof storesErrors
  | typeof privacyErrors
>;

/** Every catalogue of error codes, by the folder that declares it: the API's whole error surface. */
export const errorCatalogues: readonly { folder: string; entries: readonly ErrorEntry[] }[] = [
  { folder: 'core/platform', entries: platformErrors.entries },
  { folder: 'core/http', entries: httpErrors.entries },
  { folder: 'core/access', entries: accessErrors.entries },
  { folder: 'core/merchants', entries: merchantErrors.entries },
  { folder: 'core/games', entries: gameErrors.entries },
  { folder: 'core/tickets', entries: ticketErrors.entries },
  { folder: 'core/payments', entries: paymentErrors.entries },
  { folder: 'core/goods', entries: goodsErrors.entries },
  { folder: 'core/identity', entries: identityErrors.entries },
  { folder: 'core/heroes', entries: heroErrors.entries },
  { folder: 'core/rankings', entries: rankingErrors.entries },
  { folder: 'core/rewards', entries: rewardErrors.entries },
  { folder: 'core/leagues', entries: leagueErrors.entries },
  { folder: 'core/sponsorship', entries: sponsorErrors.entries },
  { folder: 'core/partner-store', entries: storeErrors.entries },
  { folder: 'core/app-stores', entries: storesErrors.entries },
  { folder: 'core/privacy', entries: privacyErrors.entries },
];

export const allErrorEntries: readonly ErrorEntry[] = errorCatalogues.flatMap((catalogue) => catalogue.entries);

/** The status every code is answered with (its kind's, core/http/error-statuses.ts). */
export const statusOfCode: ReadonlyMap<string, number> = new Map(allErrorEntries.map((entry) => [entry.code, statusOfKind[entry.kind]]));

/** The codes whose answers carry a Retry-After header (declared `[kind, 'Retry-After']` in their catalogue). */
export const retryAfterCodes: ReadonlySet<string> = new Set(allErrorEntries.filter((entry) => entry.retryAfter).map((entry) => entry.code));

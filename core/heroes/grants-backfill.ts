import * as z from 'zod/mini';
import { indexBackfill } from '../platform/index-backfill.js';
import { answerTextOf, eitherForm } from '../platform/kept-answers.js';
import { playerItemsKeys } from '../platform/players.js';
import { objectOf } from '../shared/records.js';
import { Hero } from './models.js';

/**
 * Hero grants: the kinds of items written before an index that `npm run admin -- backfill-indexes` gives its keys
 * (core/platform/index-backfill.ts, listed in tools/admin/index-backfills.ts). A module of its own so that
 * no function serving requests bundles them.
 */

/**
 * Grants made before the player's items index (gsi6) have no entry in it, so a deletion would not find them
 * (core/platform/index-backfill.ts): they get the keys grantHero sets, of the player their answer names (kept as
 * JSON text since, as a map before: core/platform/kept-answers.ts).
 */
const GrantedTo = z.pick(objectOf(Hero), { userId: true });

export const heroGrantsBackfill = indexBackfill({
  kind: 'hero_grants',
  match: { type: 'hero_grant' },
  source: z.object({ answer: z.optional(GrantedTo), answer_json: z.optional(answerTextOf(GrantedTo)) }).check(eitherForm()),
  keys: (grant) => playerItemsKeys((grant.answer_json ?? grant.answer)!.userId, 'HEROGRANT'),
});

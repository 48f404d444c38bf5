import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { objectOf } from '../shared/records.js';
import { answered, pageCursor } from '../shared/fields.js';
import { AccountRecord, idToken, SavedParams, SocialBinding } from '../identity/models.js';

/** deletion/challenge's answer: the single-use message the account's wallet signs to delete the account. */
export const DeletionChallenge = z.object({ address: answered.address, nonce: z.string(), message: z.string(), expiresAt: answered.time });

/** The rule between the two proofs, stated on each (a generated client keeps a field's description). */
const oneProof = z.describe('Send exactly one of signature (a wallet account) or id_token (a zkLogin account).');

/**
 * account delete's body: exactly one proof of control. A wallet account signs its deletion message; a zkLogin
 * account sends a fresh id_token of its identity.
 */
export const DeletionBody = z.lazy(() =>
  z
    .object({
      signature: z.optional(z.string().check(z.minLength(1), z.maxLength(4096), oneProof, example(EXAMPLE.signature))),
      id_token: z.optional(idToken.check(oneProof)),
    })
    .check(
      z.refine((body) => (body.signature === undefined) !== (body.id_token === undefined), {
        message: 'send exactly one of signature (a wallet account) or id_token (a zkLogin account)',
        path: ['signature'],
      }),
    ),
);
export type DeletionBody = z.infer<typeof DeletionBody>;

const Zk = z.object({ provider: z.string(), iss: z.string(), aud: z.string(), sub: z.string() });
/**
 * "a deletion by its proof" (keys.ts erasureKey) as stored, as deletion.ts reads it: while the deletion runs, the
 * player (uid, address, zkLogin identity, pseudonym) and the run's lease; once done, the answer too; after the
 * sweep, nothing of the player.
 */
export const ErasureRecord = z.object({
  status: z.enum(['running', 'done']),
  /** The gone mark's key: which player, without the player's id. */
  gone: z.string(),
  deleted_at: z.string(),
  uid: z.optional(z.string()),
  address: z.optional(z.string()),
  zk: z.optional(Zk),
  pseudonym: z.optional(z.string()),
  identifiers: z._default(z.array(z.string()), []),
  names: z._default(z.array(z.string()), []),
  studios: z._default(z.array(z.string()), []),
  nfts: z._default(z.array(z.string()), []),
  seasons: z._default(z.array(z.string()), []),
  runner: z.optional(z.string()),
  lease_until: z.optional(z.number()),
  /** The answer's JSON text (kept-answers.ts); `answer`, the answer itself, in records written before. */
  answer_json: z.optional(z.string()),
  answer: z.optional(z.unknown()),
});
export type ErasureRecord = z.infer<typeof ErasureRecord>;

/** A value a deletion learned of the player, as stored beside its record (learned.ts keepLearned). */
export const StoredLearned = z.object({ value: z.string() });

/** The tickets a deletion forfeited in one project level. */
const Forfeit = z.object({ projectName: answered.projectName, level: z.int(), tickets: z.int() });

/** account delete's answer (the same for every retry of the request). */
export const DeletionResult = z.object({
  deleted: z.literal(true),
  deleted_at: answered.time,
  /** Every unspent ticket, all project levels together. */
  forfeited_tickets: z.int(),
  forfeited: z.array(Forfeit),
  /** Hero NFTs released (they stay the wallet's on chain). */
  heroes_released: z.int(),
});
export type DeletionResult = z.infer<typeof DeletionResult>;

const next = z.nullable(answered.cursor);

/** The export's sections that can be long, each answered a page at a time: those of stored items as they are, */
export const ITEM_SECTIONS = ['ledger', 'orders', 'payments', 'vendor_orders', 'vendor_rewards', 'history'] as const;
/** and the scores, read from the board's keys (core/rankings/keys.ts) into kills and wins. */
export const EXPORT_SECTIONS = [...ITEM_SECTIONS, 'scores'] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];

/** A section page's cursor: the rule that it comes with its section is the query's, stated here, on the parameter. */
const sectionCursor = pageCursor.check(z.describe('The `next` of the previous page of `section`; requires `section`.'));

/** account_export's query: nothing for the whole document; a section (and the `next` of its previous page) for one page. */
export const ExportQuery = z.lazy(() =>
  z
    .object({ section: z.optional(z.enum(EXPORT_SECTIONS)), cursor: z.optional(sectionCursor) })
    .check(z.refine((query) => query.cursor === undefined || query.section !== undefined, { message: 'required with a cursor', path: ['section'] })),
);

/**
 * A stored item as exported: its own attributes, without the table's (keys, index keys, `type`, `expiresAt`)
 * and without request fingerprints. Its shape is the stored record's, which differs per kind and over time.
 */
const ExportedItem = z.record(z.string(), z.unknown());

/** A player's kills and wins in one season of one game, the name the game reported, the wallet it named if any. */
export const ExportedScore = z.object({
  game_code: answered.gameCode,
  season_type: z.int(),
  season_range: answered.seasonRange,
  name: z.string(),
  kills: z.int(),
  wins: z.int(),
  wallet_address: z.nullable(answered.address),
});
export type ExportedScore = z.infer<typeof ExportedScore>;

/** One page of a section (`?section=…&cursor=…`): `next` the cursor of the page after it, null on the last. */
export const ExportSectionPage = z.lazy(() =>
  z.union([
    z.object({ section: z.enum(ITEM_SECTIONS), items: z.array(ExportedItem), next }),
    z.object({ section: z.literal('scores'), items: z.array(ExportedScore), next }),
  ]),
);
export type ExportSectionPage = z.infer<typeof ExportSectionPage>;

const itemsPage = z.object({ items: z.array(ExportedItem), next });

/**
 * A hero as heroes_list shows it (core/heroes/models.ts `Hero`), without its player. Declared here rather than
 * derived: the route table loads with its group, and the heroes' models would bring the payments' into
 * withoutkey's cold start.
 */
const ExportedHero = z.object({
  id: z.string(),
  level: z.int(),
  experience: z.int(),
  source: z.enum(['nft', 'granted']),
  nftObjectId: z.nullable(z.string()),
  created_at: answered.time,
  updated_at: answered.time,
});

/**
 * A balance, with the ledger entries its item holds (core/tickets/held-ledger.ts): deductions not (yet) moved into
 * the ledger, which the `ledger` section therefore does not list. The balance is the sum of the `ledger` section's
 * changes of its project level and of these.
 */
const ExportedBalance = z.object({
  project: z.string(),
  level: z.int(),
  balance: z.int(),
  entries: z
    .array(z.object({ ref: z.string(), change: z.int(), created_at: answered.time }))
    .check(z.describe('The ledger entries the balance holds itself, oldest first: the `ledger` section does not list them.')),
});

/** account_export's document: everything the platform holds about the caller, the long sections' first pages. */
export const PlayerExport = z.lazy(() =>
  z.object({
    format: z.literal('player-export/1'),
    generated_at: answered.time,
    uid: answered.userId,
    account: z.nullable(z.omit(objectOf(AccountRecord), { private_key: true })),
    /** `type` 1 an external wallet registered by signature, 2 a zkLogin address. */
    wallet: z.nullable(z.object({ address: answered.address, type: z.int() })),
    zklogin: z.object({ is_zklogin: z.boolean(), address: z.nullable(answered.address) }),
    social: z.array(SocialBinding),
    params: z.nullable(SavedParams),
    balances: z.array(ExportedBalance),
    heroes: z.array(ExportedHero),
    /** The player's tier in each game's league, from the season `from` begins (as the last settlement they took part in wrote it). */
    league_tiers: z.array(z.object({ game_code: answered.gameCode, tier: z.int(), from: answered.time })),
    ledger: itemsPage,
    orders: itemsPage,
    payments: itemsPage,
    vendor_orders: itemsPage,
    vendor_rewards: itemsPage,
    history: itemsPage,
    scores: z.object({ items: z.array(ExportedScore), next }),
  }),
);
export type PlayerExport = z.infer<typeof PlayerExport>;

/** account_export's answer: the document, or one page of a section. */
export const ExportAnswer = z.lazy(() => z.union([PlayerExport, ExportSectionPage]));

/**
 * An ISO 8601 date and time with its offset (`Z` or `±hh:mm`), e.g. `2026-03-04T12:00:00Z` or
 * `2026-03-04T13:00:00.250+01:00`. A regex and Date.parse rather than zod's `iso.datetime`, whose regexes would
 * load with the group.
 */
const isoTime = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, 'expected an ISO 8601 date and time with its offset'),
  z.refine((text) => !Number.isNaN(Date.parse(text)), 'expected an ISO 8601 date and time with its offset'),
);

/**
 * The instants a deletion notice's key can hold. Its time is `toISOString`'s text, which writes the years 0000 to
 * 9999 as four digits, so those texts sort as their instants; past either end it writes `+010000-…` or
 * `-000001-…`, which sort before them all, and a read from such a text would match every key.
 */
export const NOTICE_TIMES = { first: Date.parse('0000-01-01T00:00:00.000Z'), last: Date.parse('9999-12-31T23:59:59.999Z') };

/** player_deletions' `since`: an ISO time of an instant a notice's key can hold (NOTICE_TIMES). */
const noticeSince = isoTime.check(
  z.refine((text) => {
    const instant = Date.parse(text);
    // An unparsable text is isoTime's refusal, not this one's.
    return Number.isNaN(instant) || (instant >= NOTICE_TIMES.first && instant <= NOTICE_TIMES.last);
  }, 'expected an instant from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (UTC)'),
);
z.globalRegistry.add(noticeSince, {
  examples: [EXAMPLE.time],
  description:
    'Only players deleted after this instant: an ISO 8601 date and time with its offset, from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z once in UTC (400 naming since otherwise); nothing is deleted after the last.',
});

/** player_deletions' query: the `next` of a previous page; only players deleted after `since`. */
export const DeletionsQuery = z.lazy(() => z.object({ cursor: z.optional(pageCursor), since: z.optional(noticeSince) }));

/** player_deletions' answer: the studio's deleted players, newest first, by id only. */
export const DeletedPlayersPage = z.lazy(() =>
  z.object({
    items: z.array(z.object({ game_player_id: answered.playerId, deleted_at: answered.time })),
    next,
  }),
);
export type DeletedPlayersPage = z.infer<typeof DeletedPlayersPage>;

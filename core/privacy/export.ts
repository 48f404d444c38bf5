import { TIER_PREFIX } from '../leagues/keys.js';
import { StoredTier } from '../leagues/tiers.js';
import { findAccount, toAccountRecord } from '../identity/accounts.js';
import { type AccountRecord, SavedParams, SocialBinding, WalletType } from '../identity/models.js';
import { BALANCE_PREFIX, LEDGER_END, LEDGER_PREFIX, storedBalance } from '../tickets/balances.js';
import { toHero } from '../heroes/heroes.js';
import { HERO_PREFIX } from '../heroes/keys.js';
import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';
import { readSection, type SectionPage } from './export-sections.js';
import { ACCOUNT_SORT, PARAMS_SORT, SOCIAL_PREFIX, userPartition } from '../identity/keys.js';
import { EXPORT_SECTIONS, type ExportSection, type ExportSectionPage, type PlayerExport } from './models.js';

/**
 * account_export (docs/api.md, "Players' data: export and deletion"): what the platform holds about a player,
 * as one JSON document, read only by the keys and indexes of the player's own items (export-sections.ts).
 *
 * Sizes. A Lambda answers at most 6 MB. An exported record is under 1 KB: the largest of a player who used
 * every part of the platform, a pay order, is 0.7 KB (test/player-export.test.ts measures them), and goods
 * orders, rewards and scores have fixed fields. The one that grows is a reward history entry signed again and
 * again (each signing's nonce is kept, up to 1,000 of them: about 23 KB); but a Query reads at most 1 MB of
 * items, so a page of stored records stays near 1 MB whatever they hold (the page is then shorter, with its
 * `next`). A section's page of PAGE_ITEMS is thus at most about 0.5 MB, or 1.2 MB of such history entries; the
 * document, seven first pages of FIRST_PAGE_ITEMS, about 0.7 MB, or 1.7 MB at worst. A ledger page item
 * (core/tickets/held-ledger.ts) is exported as its PAGE_ENTRIES lines, about 1.7 KB together: a ledger section's
 * page of them about 0.85 MB, the document's first one 0.17 MB. A balance shows the entries its item holds, about
 * 0.1 KB each, up to HOLD_MAX of them (more only while page moves fail).
 */
export const EXPORT_FORMAT = 'player-export/1';
/** Items of a section's page asked for by `section` (and `cursor`). */
export const PAGE_ITEMS = 500;
/** Items of each section's first page in the document, where seven sections share one answer. */
export const FIRST_PAGE_ITEMS = 100;

/** The document, or with `section` one page of that section (the first without a cursor). */
export function playerExport(deps: PlatformDeps, uid: string, query: { section?: ExportSection; cursor?: string }): Promise<PlayerExport | ExportSectionPage> {
  if (query.section === undefined) return exportDocument(deps, uid, FIRST_PAGE_ITEMS);
  return exportPage(deps, uid, query.section, query.cursor, PAGE_ITEMS);
}

async function exportDocument(deps: PlatformDeps, uid: string, firstPage: number): Promise<PlayerExport> {
  const generatedAt = deps.now().toISOString();
  const profile = readProfile(deps, uid);
  // Payments are the address's: that section waits for the account; the others are read meanwhile.
  const firstPageOf = async (name: ExportSection): Promise<[ExportSection, SectionPage]> => {
    const address = name === 'payments' ? (await profile).account?.wallet_address : undefined;
    return [name, await readSection(deps, name, { uid, address }, undefined, firstPage)];
  };
  const [player, pages] = await Promise.all([profile, Promise.all(EXPORT_SECTIONS.map(firstPageOf))]);
  const sections = Object.fromEntries(pages) as Record<ExportSection, SectionPage>;
  return { format: EXPORT_FORMAT, generated_at: generatedAt, uid, ...player, ...(sections as Pick<PlayerExport, ExportSection>) };
}

async function exportPage(deps: PlatformDeps, uid: string, section: ExportSection, cursor: string | undefined, limit: number) {
  const address = section === 'payments' ? (await findAccount(deps, uid))?.wallet_address : undefined;
  return { section, ...(await readSection(deps, section, { uid, address }, cursor, limit)) } as ExportSectionPage;
}

type Profile = Pick<PlayerExport, 'account' | 'wallet' | 'zklogin' | 'social' | 'params' | 'balances' | 'heroes' | 'league_tiers'>;

/**
 * The player's partition but the ledger, which can be long and is a section of its own: the sort keys before
 * `LEDGER#` and those from `LEDGER$` on (`$` follows `#`, so no ledger entry's key is at or past it). Account,
 * social listing, params, balances, heroes and league tiers: a player has few of each.
 */
async function readProfile(deps: Pick<PlatformDeps, 'db' | 'table'>, uid: string): Promise<Profile> {
  const range = (condition: string, bound: string) =>
    queryItems(deps, {
      KeyConditionExpression: `pk = :pk AND sk ${condition} :bound`,
      ExpressionAttributeValues: { ':pk': userPartition(uid), ':bound': bound },
      ConsistentRead: true,
    });
  const items = (await Promise.all([range('<', LEDGER_PREFIX), range('>=', LEDGER_END)])).flat();
  const of = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix));
  const stored = items.find((item) => item.sk === ACCOUNT_SORT);
  const account = stored ? withoutKey(toAccountRecord(stored)) : null;
  const params = items.find((item) => item.sk === PARAMS_SORT);
  const zkLogin = account?.wallet_type === WalletType.zkLogin;
  return {
    account,
    wallet: account ? { address: account.wallet_address, type: account.wallet_type } : null,
    zklogin: { is_zklogin: zkLogin, address: zkLogin ? account.wallet_address : null },
    social: of(SOCIAL_PREFIX).map((item) => SocialBinding.parse(item)),
    params: params ? SavedParams.parse(params) : null,
    // With the ledger entries the balance item holds (core/tickets/held-ledger.ts), which no ledger item shows.
    balances: of(BALANCE_PREFIX).map((item) => {
      const { projectName, level, balance, entries = [] } = storedBalance(item);
      return { project: projectName, level, balance, entries };
    }),
    heroes: of(HERO_PREFIX).map((item) => {
      const { userId: _player, ...hero } = toHero(item);
      return hero;
    }),
    league_tiers: of(TIER_PREFIX).map((item) => {
      const { game_code, tier, from } = StoredTier.parse(item);
      return { game_code, tier, from };
    }),
  };
}

/** The contract's record holds `private_key` (always ''): the export leaves it out rather than show an empty key. */
const withoutKey = ({ private_key: _never, ...account }: AccountRecord) => account;

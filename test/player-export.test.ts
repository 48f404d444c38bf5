import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tierKey } from '../core/leagues/keys.js';
import { FIRST_PAGE_ITEMS, PAGE_ITEMS } from '../core/privacy/export.js';
import { EXPORT_SECTIONS } from '../core/privacy/models.js';
import { ledgerKey } from '../core/tickets/balances.js';
import { HOLD_MAX, PAGE_ENTRIES, pageItem } from '../core/tickets/held-ledger.js';
import type { createAllApps } from '../functions/apps.js';
import { busyPlayer, settledSeason, startSharedWorld, type World } from './support/busy-players.js';
import type { TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import type { TestIssuer } from './support/oauth-issuer.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * account_export (docs/api.md, "Players' data: export and deletion"): a player who used every part of the
 * platform finds each thing they did in their export, and nothing of another player who shared their project,
 * game and season; the long sections page through cursors bound to the player and the section.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let issuer: TestIssuer;
let world: World;
let stopWorld: () => Promise<void>;
let ann: Awaited<ReturnType<typeof busyPlayer>>;
let bob: Awaited<ReturnType<typeof busyPlayer>>;
const base = '/v2-testing';
const document = servedDocument(base);

beforeAll(async () => {
  ({ stop: stopWorld, ...world } = await startSharedWorld());
  ({ deps, app, issuer } = world);
  ann = await busyPlayer(world, `Ann-${randomUUID().slice(0, 8)}`);
  bob = await busyPlayer(world, `Bob-${randomUUID().slice(0, 8)}`);
  await settledSeason(world, [ann, bob]);
}, 60_000);
afterAll(() => stopWorld());

/** GET /account/export, checked against the served OpenAPI document. */
async function exportOf(token: string | undefined, query?: Record<string, string>) {
  const res = await call(app, 'GET', `${base}/account/export`, { token, query });
  expect(documentErrors(document, '/account/export', 'get', res.status, res.body)).toEqual([]);
  return res;
}

const exported = async (token: string) => {
  const res = await exportOf(token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ statusCode: 200, message: 'success', totalPage: 1 });
  return res.body.data;
};

describe('account_export', () => {
  it("holds what the player did: account, wallet, social binding, params, balances, heroes, and each long section's records", async () => {
    const data = await exported(ann.platform);
    expect(data).toMatchObject({ format: 'player-export/1', generated_at: expect.any(String), uid: ann.uid });
    expect(data.account).toEqual({
      id: expect.any(Number),
      create_time: expect.any(String),
      update_time: expect.any(String),
      wallet_address: ann.address,
      wallet_type: 1,
      status: 1,
      uid: ann.uid,
    });
    expect(data.wallet).toEqual({ address: ann.address, type: 1 });
    expect(data.zklogin).toEqual({ is_zklogin: false, address: null });
    expect(data.social).toEqual([{ provider: 'google', socialId: ann.socialId, email: `${ann.name}@example.com`, bound_at: expect.any(String) }]);
    expect(data.params).toEqual({ params: { referrer: `friend-of-${ann.name}` }, updated_at: expect.any(String) });
    // 100 bought, 7 spent, 10 on goods, 40 rewarded; the hero grant's project holds nothing.
    expect(data.balances).toEqual([{ project: ann.projectName, level: 1, balance: 123, entries: [] }]);
    expect(data.heroes).toHaveLength(2);
    expect(data.heroes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'nft', nftObjectId: ann.heroes.nft, level: 1 }),
        expect.objectContaining({ id: ann.heroes.granted, source: 'granted', nftObjectId: null, level: 1 }),
      ]),
    );

    const refs = data.ledger.items.map((entry: { ref: string; change: number }) => [entry.ref, entry.change]);
    expect(refs).toEqual(
      expect.arrayContaining([
        [`order#${ann.order.id}`, 100],
        [expect.stringMatching(new RegExp(`^minus#.*${ann.spendKey}$`)), -7],
        [`goods#${ann.goodsOrder.id}`, -10],
        [`reward#${ann.billNo}`, 40],
      ]),
    );
    expect(data.ledger.items).toHaveLength(4);
    expect(data.orders.items).toEqual([
      expect.objectContaining({ id: ann.order.id, bill_no: ann.order.bill_no, user_id: ann.uid, status: 1, tx_digest: ann.digest }),
    ]);
    expect(data.payments.items).toEqual([expect.objectContaining({ bill_no: ann.order.bill_no, fromer: ann.address, amount: '1500000000' })]);
    expect(data.vendor_orders.items).toEqual([expect.objectContaining({ id: ann.goodsOrder.id, userId: ann.uid, quantity: 2, total: 10 })]);
    expect(data.vendor_rewards.items).toEqual([expect.objectContaining({ bill_no: ann.billNo, amount: '40' })]);
    expect(data.history.items).toEqual([expect.objectContaining({ game_code: world.rewarded.code, platform_player_id: ann.uid, rank: 1, status: 0 })]);
    // addWin counts into the current week and month; the rewarded game's past week holds the settled wins.
    expect(data.scores.items).toEqual(
      expect.arrayContaining([
        { game_code: world.shop.gameCode, season_type: 1, season_range: expect.any(String), name: ann.name, kills: 3, wins: 1, wallet_address: null },
        { game_code: world.shop.gameCode, season_type: 2, season_range: expect.any(String), name: ann.name, kills: 3, wins: 1, wallet_address: null },
        { game_code: world.rewarded.code, season_type: 1, season_range: expect.any(String), name: ann.name, kills: 0, wins: 10, wallet_address: ann.address },
      ]),
    );
    for (const name of EXPORT_SECTIONS) expect(data[name].next, name).toBeNull();
  });

  it("leaves out the table's own attributes and request fingerprints", async () => {
    const data = await exported(ann.platform);
    const records = EXPORT_SECTIONS.flatMap((name) => data[name].items as Record<string, unknown>[]);
    expect(records.length).toBeGreaterThan(10);
    for (const record of records) {
      const internal = Object.keys(record).filter((name) => /^(pk|sk|type|expiresAt|fingerprint|request|gsi\d+(pk|sk))$/.test(name));
      expect(internal, JSON.stringify(record)).toEqual([]);
    }
  });

  it('holds nothing of another player who shared its project, game and season', async () => {
    for (const [self, other] of [
      [ann, bob],
      [bob, ann],
    ] as const) {
      const text = JSON.stringify(await exported(self.platform));
      for (const value of [self.uid, self.address, self.name]) expect(text).toContain(value);
      for (const value of [other.uid, other.address, other.address.slice(2), other.name, other.socialId]) expect(text).not.toContain(value);
    }
  });

  it('says whether the account is a zkLogin one, and answers a player without an account with empty sections', async () => {
    const login = await call(app, 'POST', `${base}/account/login/zk`, { body: { id_token: await issuer.sign() } });
    expect(login.status).toBe(200);
    const zk = await exported(login.body.platformToken.accessToken);
    expect(zk.wallet).toEqual({ address: login.body.address, type: 2 });
    expect(zk.zklogin).toEqual({ is_zklogin: true, address: login.body.address });

    const nobody = await exported((await deps.tokens.issue('platform', randomUUID())).token);
    expect(nobody).toMatchObject({
      account: null,
      wallet: null,
      zklogin: { is_zklogin: false, address: null },
      social: [],
      params: null,
      balances: [],
      heroes: [],
      league_tiers: [],
    });
    for (const name of EXPORT_SECTIONS) expect(nobody[name]).toEqual({ items: [], next: null });
  });
});

describe('deductions held in a balance item (core/tickets/held-ledger.ts)', () => {
  it('are each exported once: a page of them as its lines in the ledger, those the balance holds in the balance', async () => {
    const shop = await projectWithLevel(deps);
    const player = await playerWithTokens(deps, shop.gameCode);
    const projectName = shop.project.project_name;
    await giveTickets(deps, player.uid, projectName, 1, 200);
    const refs: string[] = [];
    for (let i = 0; i < HOLD_MAX + 3; i++) {
      const res = await call(app, 'POST', `${base}/account/game/minus_tickets`, {
        token: shop.server,
        body: { userId: player.uid, projectName, level: 1, amount: i + 1 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      refs.push(res.body.data);
    }
    const data = await exported(player.platform);
    const [balance] = data.balances;
    // One page moved out (the oldest PAGE_ENTRIES), the rest held.
    expect(balance.entries.map((entry: { ref: string }) => entry.ref)).toEqual(refs.slice(PAGE_ENTRIES));
    expect(balance.entries[0]).toEqual({ ref: refs[PAGE_ENTRIES], change: -(PAGE_ENTRIES + 1), created_at: expect.any(String) });
    const lines = data.ledger.items as { ref: string; change: number }[];
    expect(lines.filter((line) => line.ref.startsWith('page#'))).toEqual([]);
    const deductions = lines.filter((line) => line.ref.startsWith('minus#'));
    expect(deductions.map((line) => line.ref)).toEqual(refs.slice(0, PAGE_ENTRIES));
    // A paged line reads as an entry of its own would.
    expect(deductions[0]).toEqual({ uid: player.uid, projectName, level: 1, ref: refs[0], change: -1, created_at: expect.any(String) });
    const sum = (changes: { change: number }[]) => changes.reduce((total, line) => total + line.change, 0);
    expect(sum(lines) + sum(balance.entries)).toBe(balance.balance);
    expect(balance.balance).toBe(200 - ((HOLD_MAX + 3) * (HOLD_MAX + 4)) / 2);
  });

  it('pages the ledger by its items, a page item with all its lines on one page, each line once', async () => {
    const player = await playerWithTokens(deps);
    const target = { uid: player.uid, projectName: 'p-paged', level: 1 };
    const pages = Array.from({ length: FIRST_PAGE_ITEMS + 20 }, (_, p) =>
      pageItem(
        target,
        Array.from({ length: PAGE_ENTRIES }, (_, i) => ({
          ref: `minus#${String(p).padStart(3, '0')}-${i}-${randomUUID()}`,
          change: -1,
          created_at: new Date().toISOString(),
        })),
      ),
    );
    for (let start = 0; start < pages.length; start += 25)
      await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pages.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })) } }));

    const first = (await exported(player.platform)).ledger;
    expect(first.items).toHaveLength(FIRST_PAGE_ITEMS * PAGE_ENTRIES);
    const refs: string[] = first.items.map((line: { ref: string }) => line.ref);
    const rest = await exportOf(player.platform, { section: 'ledger', cursor: first.next });
    expect(rest.body.data).toMatchObject({ section: 'ledger', next: null });
    refs.push(...rest.body.data.items.map((line: { ref: string }) => line.ref));
    const written = pages.flatMap((page) => (page.entries as { ref: string }[]).map((entry) => entry.ref));
    expect(refs).toHaveLength(written.length);
    expect(refs.sort()).toEqual(written.sort());
  });
});

describe('a league tier', () => {
  it('is in the profile: the tier in each game’s league and the season it starts', async () => {
    const player = await playerWithTokens(deps);
    const from = '2031-03-17T00:00:00.000Z';
    await deps.db.send(
      new PutCommand({ TableName: deps.table, Item: { ...tierKey(player.uid, 'arena'), type: 'league_tier', game_code: 'arena', tier: 3, from } }),
    );
    expect((await exported(player.platform)).league_tiers).toEqual([{ game_code: 'arena', tier: 3, from }]);
  });
});

describe('paging a long section', () => {
  it(`answers ${FIRST_PAGE_ITEMS} in the document, then pages of ${PAGE_ITEMS} through cursors, each entry once`, async () => {
    const player = await playerWithTokens(deps);
    const written = Array.from({ length: 1_200 }, (_, i) => `test#${String(i).padStart(4, '0')}-${randomUUID()}`);
    await writeLedger(player.uid, written);

    const first = (await exported(player.platform)).ledger;
    expect(first.items).toHaveLength(FIRST_PAGE_ITEMS);
    const refs: string[] = first.items.map((entry: { ref: string }) => entry.ref);
    const sizes: number[] = [];
    let next: string | null = first.next;
    while (next) {
      const res = await exportOf(player.platform, { section: 'ledger', cursor: next });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.section).toBe('ledger');
      expect(res.body.data.items.length).toBeLessThanOrEqual(PAGE_ITEMS);
      sizes.push(res.body.data.items.length);
      refs.push(...res.body.data.items.map((entry: { ref: string }) => entry.ref));
      next = res.body.data.next;
    }
    expect(sizes).toEqual([500, 500, 100]);
    expect(new Set(refs).size).toBe(1_200);
    expect(refs.sort()).toEqual([...written].sort());

    // A section without a cursor: its first page of PAGE_ITEMS.
    const alone = await exportOf(player.platform, { section: 'ledger' });
    expect(alone.body.data.items).toHaveLength(PAGE_ITEMS);
    expect(alone.body.data.items.map((entry: { ref: string }) => entry.ref)).toEqual(refs.slice(0, PAGE_ITEMS));
  });

  it('refuses with 400 naming the cursor a cursor that is not one of ours, of another section, or of another player', async () => {
    const player = await playerWithTokens(deps);
    await writeLedger(
      player.uid,
      Array.from({ length: FIRST_PAGE_ITEMS + 1 }, () => `test#${randomUUID()}`),
    );
    const cursor = (await exported(player.platform)).ledger.next as string;
    expect(cursor).toEqual(expect.any(String));
    const forged = (change: (value: { o: string; s: string; k: Record<string, string> }) => void) => {
      const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      change(value);
      return Buffer.from(JSON.stringify(value)).toString('base64url');
    };
    const refusals: [string, string, Record<string, string>][] = [
      ['not base64 JSON', player.platform, { section: 'ledger', cursor: 'bm90LWpzb24' }],
      ['another section', player.platform, { section: 'orders', cursor }],
      ['another player', ann.platform, { section: 'ledger', cursor }],
      ["another player's, made ours", ann.platform, { section: 'ledger', cursor: forged((value) => (value.o = ann.uid)) }],
      ['outside the section', player.platform, { section: 'ledger', cursor: forged((value) => (value.k.sk = 'TICKETS#x')) }],
      ['an extra key attribute', player.platform, { section: 'ledger', cursor: forged((value) => (value.k.gsi1pk = 'x')) }],
    ];
    for (const [label, token, query] of refusals) {
      const res = await exportOf(token, query);
      expect(res.status, label).toBe(400);
      expect(res.body, label).toEqual({ statusCode: 400, message: 'query.cursor: not the `next` of a previous page of this read', error: 'input.invalid' });
    }
    const withoutSection = await exportOf(player.platform, { cursor });
    expect(withoutSection.status).toBe(400);
    expect(withoutSection.body.message).toMatch(/^query\.section: /);
    const noSuchSection = await exportOf(player.platform, { section: 'wallet' });
    expect(noSuchSection.status).toBe(400);
    expect(noSuchSection.body.message).toMatch(/^query\.section: /);
  });

  it("refuses a cursor altered to another place of the player's own section, and the untouched one still pages", async () => {
    const player = await playerWithTokens(deps);
    await writeLedger(
      player.uid,
      Array.from({ length: FIRST_PAGE_ITEMS + 1 }, () => `test#${randomUUID()}`),
    );
    const cursor = (await exported(player.platform)).ledger.next as string;
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Valid-looking: the player's partition, a key of the section's range (its start), the same owner and section.
    value.k.sk = 'LEDGER#';
    const altered = Buffer.from(JSON.stringify(value)).toString('base64url');
    const refused = await exportOf(player.platform, { section: 'ledger', cursor: altered });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ statusCode: 400, message: 'query.cursor: not the `next` of a previous page of this read', error: 'input.invalid' });
    const untouched = await exportOf(player.platform, { section: 'ledger', cursor });
    expect(untouched.status).toBe(200);
    expect(untouched.body.data).toMatchObject({ section: 'ledger', next: null });
    expect(untouched.body.data.items).toHaveLength(1);
  });
});

describe('who may export', () => {
  it('takes only a platform token: none or a game token is 401, a game server is refused 403', async () => {
    for (const token of [undefined, ann.game]) {
      const res = await exportOf(token);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(token === undefined ? 'auth.token_missing' : 'auth.token_invalid');
    }
    const server = await exportOf(world.shop.server);
    expect([server.status, server.body.error]).toEqual([403, 'auth.kind_refused']);
  });
});

describe('sizes', () => {
  it('keeps a page of the largest records far below the 6 MB a Lambda may answer', async () => {
    const data = await exported(ann.platform);
    const largest = Math.max(...EXPORT_SECTIONS.flatMap((name) => data[name].items.map((record: unknown) => JSON.stringify(record).length)));
    console.log(`player export: the largest record is ${largest} bytes`);
    expect(largest).toBeLessThan(2_000);
    // At that size, a section's page and the document's seven first pages.
    expect(PAGE_ITEMS * largest).toBeLessThan(1_000_000);
    expect(EXPORT_SECTIONS.length * FIRST_PAGE_ITEMS * largest).toBeLessThan(1_500_000);
  });
});

/** Ledger entries written directly, as core/tickets/balances.ts writes them (25 a BatchWriteItem). */
async function writeLedger(uid: string, refs: string[]) {
  for (let start = 0; start < refs.length; start += 25) {
    const puts = refs.slice(start, start + 25).map((ref) => ({
      PutRequest: {
        Item: { ...ledgerKey(uid, ref), type: 'ledger', projectName: 'p-paged', level: 1, ref, change: 1, created_at: new Date().toISOString() },
      },
    }));
    await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: puts } }));
  }
}

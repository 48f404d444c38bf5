import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ItemKind } from '../core/platform/item-kinds.js';
import { playerItemsKeys } from '../core/platform/players.js';
import { leagueTier } from '../core/leagues/items.js';
import { STORE_USER_KINDS } from '../core/partner-store/items.js';
import { footprintSize, itemsOf } from '../core/platform/footprint.js';
import { scrubbed } from '../core/platform/scrub.js';
import { EXPORT_SECTIONS } from '../core/privacy/models.js';
import { ITEM_KINDS, PLAYER_KINDS, playerFootprint } from '../core/privacy/player-kinds.js';
import { pageItem } from '../core/tickets/held-ledger.js';
import { ledgerEntry, ticketBalance } from '../core/tickets/items.js';
import { createTestDeps, type TestDeps } from './support/deps.js';

/**
 * The kinds a player's deletion and export walk (core/privacy/player-kinds.ts) and those a store user's deletion
 * walks (core/partner-store/items.ts) are every kind a domain declares with player data (core/<domain>/items.ts),
 * and an item of a player's partition that no kind declares stops the
 * deletion's read instead of being left behind or deleted by guess.
 */
let deps: TestDeps;
beforeAll(async () => {
  deps = await createTestDeps();
});

const core = join(import.meta.dirname, '..', 'core');

/** Every kind exported by a core/<domain>/items.ts. */
async function declaredKinds(): Promise<{ file: string; name: string; kind: ItemKind<never> }[]> {
  const found: { file: string; name: string; kind: ItemKind<never> }[] = [];
  for (const domain of readdirSync(core)) {
    const file = join(core, domain, 'items.ts');
    if (!existsSync(file)) continue;
    for (const [name, value] of Object.entries(await import(file))) {
      if (value && typeof value === 'object' && 'player' in value && 'name' in value)
        found.push({ file: `core/${domain}/items.ts`, name, kind: value as ItemKind<never> });
    }
  }
  return found;
}

describe('the kinds of items that hold a player’s data', () => {
  it('lists every kind declared with player data, and only declared kinds', async () => {
    const declared = await declaredKinds();
    const walked = [...PLAYER_KINDS, ...STORE_USER_KINDS] as readonly ItemKind<never>[];
    expect(declared.length).toBeGreaterThanOrEqual(new Set(walked).size);
    const unlisted = declared.filter(({ kind }) => !('holdsNoPlayerData' in kind.player) && !('ownFlow' in kind.player) && !walked.includes(kind));
    expect(unlisted.map(({ file, name }) => `${file} ${name}`)).toEqual([]);
    for (const kind of walked) expect(declared.some((d) => d.kind === kind)).toBe(true);
    // A store user's items are never a player's: the two lists share only the platform's own idempotency record.
    expect(PLAYER_KINDS.filter((kind) => STORE_USER_KINDS.includes(kind as never)).map((kind) => kind.name)).toEqual(['idempotency record']);
  });

  it('gives each export section exactly one kind', () => {
    for (const section of EXPORT_SECTIONS) {
      expect(
        PLAYER_KINDS.filter((kind) => kind.player.export?.section === section).map((kind) => kind.name),
        section,
      ).toHaveLength(1);
    }
    const named = PLAYER_KINDS.flatMap((kind) => (kind.player.export ? [kind.player.export.section] : []));
    expect([...named].sort()).toEqual([...EXPORT_SECTIONS].sort());
  });

  it('classifies a player’s items by the kinds’ declarations', async () => {
    const uid = randomUUID();
    await put({ pk: `USER#${uid}`, sk: 'TICKETS#shop#1', type: 'tickets', projectName: 'shop', level: 1, balance: 5 });
    await put({
      pk: `USER#${uid}`,
      sk: 'LEDGER#order#7',
      type: 'ledger',
      ref: 'order#7',
      projectName: 'shop',
      level: 1,
      change: 5,
      created_at: '2026-11-01T00:00:00.000Z',
    });
    await put({ pk: `USER#${uid}`, sk: 'LEAGUE#arena', type: 'league_tier', game_code: 'arena', tier: 2, from: '2031-03-17T00:00:00.000Z' });
    // A page of ledger entries a balance held (core/tickets/held-ledger.ts) is a ledger item.
    await put(pageItem({ uid, projectName: 'shop', level: 1 }, [{ ref: 'minus#a', change: -1, created_at: '2026-11-02T00:00:00.000Z' }]));
    const footprint = await playerFootprint(deps, { uid, address: undefined });
    expect(itemsOf(footprint, ticketBalance).map((item) => item.sk)).toEqual(['TICKETS#shop#1']);
    expect(itemsOf(footprint, ledgerEntry).map((item) => item.sk)).toEqual(['LEDGER#order#7', 'LEDGER#page#minus#a']);
    expect(itemsOf(footprint, leagueTier).map((item) => item.sk)).toEqual(['LEAGUE#arena']);
    expect(footprintSize(footprint)).toBe(4);
  });

  it('forfeits a balance with the ledger entries it holds, and exports a ledger page as its lines', () => {
    const run = { uid: 'u-1', pseudonym: 'former:1', deletedAt: '2026-11-03T00:00:00.000Z', now: new Date('2026-11-03T00:00:01.000Z') };
    const held = [
      { ref: 'minus#a', change: -2, created_at: '2026-11-01T00:00:00.000Z' },
      { ref: 'minus#b', change: -3, created_at: '2026-11-02T00:00:00.000Z' },
    ];
    const balance = { pk: 'USER#u-1', sk: 'TICKETS#shop#1', type: 'tickets', projectName: 'shop', level: 1, balance: 5, entries: held, pages: 2 };
    const kept = ticketBalance.player.deletion.kept(balance, run);
    expect(kept).toEqual([
      {
        pk: 'USER#former:1',
        sk: 'LEDGER#page#minus#a',
        type: 'ledger',
        uid: 'former:1',
        projectName: 'shop',
        level: 1,
        ref: 'page#minus#a',
        change: -5,
        created_at: held[0]!.created_at,
        entries: held,
      },
      expect.objectContaining({ pk: 'USER#former:1', sk: expect.stringMatching(/^LEDGER#forfeit#shop#1#/), uid: 'former:1', change: -5 }),
    ]);
    // An empty balance forfeits nothing, but what it held is kept; one that held nothing leaves nothing.
    expect(ticketBalance.player.deletion.kept({ ...balance, balance: 0 }, run).map((item) => item.sk)).toEqual(['LEDGER#page#minus#a']);
    expect(ticketBalance.player.deletion.kept({ ...balance, balance: 0, entries: [] }, run)).toEqual([]);

    const lines = ledgerEntry.player.export.lines;
    const entry = {
      pk: 'USER#u-1',
      sk: 'LEDGER#order#7',
      type: 'ledger',
      uid: 'u-1',
      projectName: 'shop',
      level: 1,
      ref: 'order#7',
      change: 5,
      created_at: 't',
    };
    expect(lines(entry)).toEqual([entry]);
    const page = pageItem({ uid: 'u-1', projectName: 'shop', level: 1 }, held);
    expect(lines(page)).toEqual(
      held.map((line) => ({ pk: 'USER#u-1', sk: 'LEDGER#page#minus#a', type: 'ledger', uid: 'u-1', projectName: 'shop', level: 1, ...line })),
    );
  });

  it('stops at an item of the player’s partition or of their index partition that no kind declares, naming it', async () => {
    const uid = randomUUID();
    const mystery = { pk: `USER#${uid}`, sk: 'MYSTERY#1' };
    await put({ ...mystery, type: 'mystery' });
    await expect(playerFootprint(deps, { uid, address: undefined })).rejects.toThrow(/no declared kind \(pk USER#.*, sk MYSTERY#1\)/);

    const other = randomUUID();
    const something = { pk: `SOMETHING#${randomUUID()}`, sk: 'SOMETHING' };
    await put({ ...something, ...playerItemsKeys(other, 'STORECODE') });
    await expect(playerFootprint(deps, { uid: other, address: undefined })).rejects.toThrow(/no declared kind \(pk SOMETHING#/);
    // Gone again: test/stored-items.test.ts holds every item the suite leaves to a declared kind.
    for (const Key of [mystery, something]) await deps.db.send(new DeleteCommand({ TableName: deps.table, Key }));
  });
});

describe('every kind of stored item', () => {
  it('gives every `type` that core/ or functions/ writes exactly one declared kind, in the domain that writes it', async () => {
    const written = writtenTypes();
    // The scan finds every form: item literals, update values, and constants of the file they are written with.
    const types = new Set(written.map(({ type }) => type));
    for (const known of ['account', 'store_user', 'hero', 'tickets', 'job_run', 'revocation', 'server-token', 'payment_event', 'login-throttle'])
      expect(types, known).toContain(known);
    expect(types.size).toBeGreaterThanOrEqual(60);

    // Each domain lists every kind it declares in its ITEM_KINDS, and the privacy domain's list is all of theirs.
    const byDomain = new Map<string, readonly ItemKind<never>[]>();
    for (const domain of readdirSync(core)) {
      const file = join(core, domain, 'items.ts');
      if (!existsSync(file)) continue;
      const module = (await import(file)) as Record<string, unknown>;
      const listed = (module.ITEM_KINDS ?? []) as readonly ItemKind<never>[];
      const exported = Object.values(module).filter((value) => value && typeof value === 'object' && 'player' in value && 'name' in value);
      expect(
        exported.filter((kind) => !listed.includes(kind as ItemKind<never>)),
        `core/${domain}/items.ts ITEM_KINDS`,
      ).toEqual([]);
      byDomain.set(domain, listed);
    }
    const every = [...byDomain.values()].flat();
    expect(new Set(every).size, 'a kind listed twice').toBe(every.length);
    expect(new Set(ITEM_KINDS)).toEqual(new Set(every));

    const problems: string[] = [];
    for (const { type, domain, at } of written) {
      if (type.startsWith('?')) {
        problems.push(`${at}: writes a \`type\` the scan cannot read (${type.slice(1)}): write it as a text or a constant of the file`);
        continue;
      }
      const kinds = (domain === undefined ? every : (byDomain.get(domain) ?? [])).filter((kind) => kind.type === type);
      if (kinds.length !== 1) problems.push(`${at}: writes \`type\` '${type}', which ${kinds.length} kinds of core/${domain ?? '*'}/items.ts declare`);
    }
    for (const [domain, kinds] of byDomain) {
      for (const kind of kinds)
        if (kind.type !== undefined && !written.some((w) => w.type === kind.type && w.domain === domain))
          problems.push(`core/${domain}/items.ts declares ${kind.name} of \`type\` '${kind.type}', which nothing in core/${domain} writes`);
    }
    expect(problems).toEqual([]);
  });
});

describe('what a kept record keeps of a deleted player', () => {
  const personal = { identifiers: ['u-123e4567', '0xabc'], names: ['ledger', 'Ann'], pseudonym: 'former:1' };

  it('replaces identifiers inside any text, keys included, and a name only as a whole text', () => {
    expect(scrubbed({ pk: 'USER#u-123e4567', note: 'paid by 0xabc', name: 'Ann', said: 'Anna' }, personal)).toEqual({
      pk: 'USER#former:1',
      note: 'paid by former:1',
      name: '',
      said: 'Anna',
    });
  });

  it('leaves the platform’s own catalogue values alone when a name happens to equal one', () => {
    expect(scrubbed({ type: 'ledger', code: 'Ann', holding: 'ledger', memo: 'ledger' }, personal)).toEqual({
      type: 'ledger',
      code: 'Ann',
      holding: 'ledger',
      memo: '',
    });
  });

  it('scrubs a kept answer’s JSON text as the value it holds', () => {
    const kept = scrubbed({ answer_json: JSON.stringify({ uid: 'u-123e4567', name: 'Ann', type: 'ledger' }) }, personal) as { answer_json: string };
    expect(JSON.parse(kept.answer_json)).toEqual({ uid: 'former:1', name: '', type: 'ledger' });
    expect(scrubbed({ answer_json: 'not json, by u-123e4567' }, personal)).toEqual({ answer_json: 'not json, by former:1' });
  });
});

const put = (item: Record<string, unknown>) => deps.db.send(new PutCommand({ TableName: deps.table, Item: item }));

/** Values of a `type:` that are no item's: JSON Schema types and an HTTP scheme (the OpenAPI document), an import attribute, a key format. */
const NOT_ITEM_TYPES = new Set(['string', 'integer', 'object', 'null', 'http', 'json', 'pkcs8']);

/**
 * Every `type` core/ and functions/ write, and where: `type: '…'` in an item, `':type': '…'` in an update, or either
 * naming a constant of the file (`const NAME = '…'`). A value the scan cannot read is given as `?<what it is>`: a
 * constant it cannot find, or a variable as the `:type` of a file whose updates name `#type` the attribute `type`.
 * The domains' items.ts are left out: they declare the types (a forfeit's ledger entry built there is of a type its
 * domain writes elsewhere too).
 */
function writtenTypes(): { type: string; domain: string | undefined; at: string }[] {
  const root = join(import.meta.dirname, '..');
  const found: { type: string; domain: string | undefined; at: string }[] = [];
  for (const top of ['core', 'functions']) {
    for (const name of readdirSync(join(root, top), { recursive: true, encoding: 'utf8' })) {
      const path = `${top}/${name.split('\\').join('/')}`;
      if (!path.endsWith('.ts') || /^core\/[^/]+\/items\.ts$/.test(path)) continue;
      const text = readFileSync(join(root, path), 'utf8');
      const constants = new Map([...text.matchAll(/\bconst ([A-Z][A-Z0-9_]*) = '([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
      const updatesType = text.includes(`'#type': 'type'`);
      const domain = /^core\/([^/]+)\//.exec(path)?.[1];
      text.split('\n').forEach((line, i) => {
        if (/^\s*(\/\/|\/\*|\*)/.test(line)) return;
        for (const [, form, literal, named] of line.matchAll(/(?<![\w$#.'"])(type|':type'): (?:'([\w-]+)'|([A-Za-z_$][\w$.]*))/g)) {
          const at = `${path}:${i + 1}`;
          if (literal !== undefined) {
            if (form === "':type'" || !NOT_ITEM_TYPES.has(literal)) found.push({ type: literal, domain, at });
          } else if (/^[A-Z][A-Z0-9_]*$/.test(named!)) found.push({ type: constants.get(named!) ?? `?${named}`, domain, at });
          else if (form === "':type'" && updatesType) found.push({ type: `?${named}`, domain, at });
        }
      });
    }
  }
  return found;
}

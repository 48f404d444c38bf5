import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ItemKind } from '../core/platform/item-kinds.js';
import { playerItemsKeys } from '../core/platform/players.js';
import { readFootprint, footprintSize, itemsOf } from '../core/privacy/footprint.js';
import { EXPORT_SECTIONS } from '../core/privacy/models.js';
import { PLAYER_KINDS } from '../core/privacy/player-kinds.js';
import { ledgerEntry, ticketBalance } from '../core/tickets/items.js';
import { createTestDeps, type TestDeps } from './support/deps.js';

/**
 * The kinds a player's deletion and export walk (core/privacy/player-kinds.ts) are every kind a domain declares with
 * player data (core/<domain>/items.ts), and an item of a player's partition that no kind declares stops the
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
    expect(declared.length).toBeGreaterThanOrEqual(PLAYER_KINDS.length);
    const unlisted = declared.filter(({ kind }) => !('holdsNoPlayerData' in kind.player) && !PLAYER_KINDS.includes(kind as never));
    expect(unlisted.map(({ file, name }) => `${file} ${name}`)).toEqual([]);
    for (const kind of PLAYER_KINDS) expect(declared.some((d) => d.kind === kind)).toBe(true);
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
    await put({ pk: `USER#${uid}`, sk: 'LEDGER#order#7', type: 'ledger', projectName: 'shop', level: 1, change: 5 });
    const footprint = await readFootprint(deps, { uid, address: undefined });
    expect(itemsOf(footprint, ticketBalance).map((item) => item.sk)).toEqual(['TICKETS#shop#1']);
    expect(itemsOf(footprint, ledgerEntry).map((item) => item.sk)).toEqual(['LEDGER#order#7']);
    expect(footprintSize(footprint)).toBe(2);
  });

  it('stops at an item of the player’s partition or of their index partition that no kind declares, naming it', async () => {
    const uid = randomUUID();
    await put({ pk: `USER#${uid}`, sk: 'MYSTERY#1', type: 'mystery' });
    await expect(readFootprint(deps, { uid, address: undefined })).rejects.toThrow(/no declared kind \(pk USER#.*, sk MYSTERY#1\)/);

    const other = randomUUID();
    await put({ pk: `SOMETHING#${randomUUID()}`, sk: 'SOMETHING', ...playerItemsKeys(other, 'STORECODE') });
    await expect(readFootprint(deps, { uid: other, address: undefined })).rejects.toThrow(/no declared kind \(pk SOMETHING#/);
  });
});

const put = (item: Record<string, unknown>) => deps.db.send(new PutCommand({ TableName: deps.table, Item: item }));

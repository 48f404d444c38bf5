import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { goneKey, isNotGoneCheck, playerItemsKeys } from '../core/platform/players.js';
import { scoreKey } from '../core/rankings/keys.js';
import { balanceKey, balanceOf, creditItems, type HeldEntry } from '../core/tickets/balances.js';
import { HOLD_MAX, PAGE_ENTRIES, pageMoveItems } from '../core/tickets/held-ledger.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { resumeDeletions, SWEEP_AFTER_SECONDS } from '../core/privacy/deletion.js';
import { LEASE_SECONDS } from '../core/privacy/keys.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { ledgerMismatches } from './support/ledgers.js';
import type { TestIssuer } from './support/oauth-issuer.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';
import { type FaultInjector, faults, injectFaults, withFault } from './support/table-faults.js';
import { scanAll } from './support/table-snapshot.js';
import { goodsFor } from './support/goods.js';
import { grantedHero, heroNft, heroPlayer, heroWorld } from './support/heroes.js';
import { busyPlayer as usedEverything, settledSeason, startSharedWorld, type World } from './support/busy-players.js';
import { drainRankStream, gameWithServer, headPages, headTop, seasonScores, snapshotPages, takeSnapshots } from './support/rankings.js';
import { weekOf } from '../core/rankings/seasons.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * A player's account deletion (docs/security.md "Deleting a player's account"): a player who used every part
 * of the platform deletes their account with a fresh proof, and afterwards a scan of the whole table finds no
 * personal value of theirs but in the studios' notices; what accounting keeps adds up; tokens are refused;
 * the same wallet signs in to a new, empty account.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let issuer: TestIssuer;
const base = '/v2-testing';
const document = servedDocument(base);

let world: World;

let stopWorld: () => Promise<void>;

beforeAll(async () => {
  ({ stop: stopWorld, ...world } = await startSharedWorld());
  ({ deps, app, issuer } = world);
});
afterAll(() => stopWorld());

const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, any>;
};

/**
 * A player who has used every part of the platform a player can (test/support/busy-players.ts: social binding,
 * params, a paid order, a keyed spend, a goods order, a vendor reward, a score with a result id, a hero NFT bound
 * and a hero granted), a second order never paid, and a settled reward; with the values that identify them.
 */
async function busyPlayer() {
  const player = await usedEverything(world, `Zed-${randomUUID().slice(0, 8)}`);
  await ok(
    call(app, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: player.projectName, priceId: world.shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    }),
  );
  await settledSeason(world, [player]);
  // 100 bought, 7 spent, 2 goods at 5, 40 rewarded.
  return { ...player, tickets: 100 - 7 - 10 + 40, studios: [world.shop.owner.accountId, world.rewarded.owner.accountId] };
}

async function deletionSignature(token: string, keypair: Ed25519Keypair) {
  const challenge = await ok(call(app, 'POST', `${base}/account/deletion/challenge`, { token }));
  return (await keypair.signPersonalMessage(new TextEncoder().encode(challenge.data.message))).signature;
}

/** Every item holding one of `values` anywhere (keys and nested attributes included, 0x-less addresses too). */
function holders(items: Record<string, unknown>[], values: string[]) {
  return items.filter((item) => {
    const text = JSON.stringify(item, (_key, value) => (value instanceof Set ? [...value] : value));
    return values.some((value) => text.includes(value));
  });
}

describe('account delete', () => {
  it('leaves no personal value in the table but the studios’ notices, keeps accounting under a pseudonym, and refuses the tokens', async () => {
    const player = await busyPlayer();
    const personal = [player.uid, player.address, player.address.slice(2), player.name, player.socialId, `${player.name}@example.com`];
    expect(holders(await scanAll(deps), personal).length).toBeGreaterThan(15);

    const signature = await deletionSignature(player.platform, player.keypair);
    const deleted = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } });
    const answer = await ok(Promise.resolve(deleted));
    expect(answer.data).toEqual({
      deleted: true,
      deleted_at: expect.any(String),
      forfeited_tickets: player.tickets,
      forfeited: [{ projectName: player.projectName, level: 1, tickets: player.tickets }],
      heroes_released: 1,
    });

    // Until its sweep the deletion's record and what it learned (beside it, in its partition) still know the
    // player; the deletions job sweeps them.
    const running = holders(await scanAll(deps), personal).filter((item) => !String(item.pk).startsWith('DELETIONS#'));
    expect(new Set(running.map((item) => String(item.pk).split('#')[0]))).toEqual(new Set(['ERASURE']));
    expect(new Set(running.map((item) => item.pk)).size).toBe(1);
    expect(running.filter((item) => item.sk === 'ERASURE').map((item) => item.status)).toEqual(['done']);
    deps.setNow(new Date(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000));
    try {
      expect(await resumeDeletions(deps, { deadline: Date.now() + 60_000 })).toEqual({ finished: 1, failed: 0 });
    } finally {
      deps.setNow(undefined);
    }
    const items = await scanAll(deps);
    const left = holders(items, personal);
    expect(left.map((item) => item.pk).filter((pk) => !String(pk).startsWith('DELETIONS#'))).toEqual([]);
    expect(left.map((item) => item.pk).every((pk) => String(pk).startsWith('DELETIONS#'))).toBe(true);
    expect(left.map((item) => String(item.pk).slice('DELETIONS#'.length))).toEqual(expect.arrayContaining(player.studios));
    for (const notice of left) expect(notice).toMatchObject({ game_player_id: player.uid, deleted_at: answer.data.deleted_at, expiresAt: expect.any(Number) });
    expect(ledgerMismatches(items)).toEqual([]);

    // What accounting keeps, under one pseudonym: the paid order, its payment, the goods order, the settled reward.
    const pseudonyms = new Set(JSON.stringify(items).match(/former:[0-9a-f-]{36}/g));
    expect(pseudonyms.size).toBe(1);
    const [pseudonym] = [...pseudonyms] as [string];
    const kept = (type: string) => items.filter((item) => item.type === type && JSON.stringify(item).includes(pseudonym));
    // The paid order as it was; the unpaid one cancelled, so a payment still arriving for it is a stranded one.
    expect(kept('order').sort((a, b) => Number(a.id) - Number(b.id))).toEqual([
      expect.objectContaining({ status: 1, tickets: 100, project_name: player.projectName, user_id: pseudonym }),
      expect.objectContaining({ status: 2, tickets: 100, project_name: player.projectName, user_id: pseudonym }),
    ]);
    expect(kept('payment_event')).toEqual([expect.objectContaining({ amount: '1500000000', gsi2pk: `PAYER#${pseudonym}` })]);
    expect(kept('vendor_order')).toEqual([expect.objectContaining({ total: 10, userId: pseudonym })]);
    expect(kept('reward')).toHaveLength(1);
    expect(kept('history_rank')).toEqual([expect.objectContaining({ reward_amount: 500, platform_player_id: pseudonym })]);
    const ledger = items.filter((item) => item.pk === `USER#${pseudonym}`);
    expect(ledger.map((entry) => Number(entry.change)).reduce((a, b) => a + b, 0)).toBe(0);
    expect(ledger.map((entry) => String(entry.sk).split('#').slice(0, 2).join('#')).sort()).toEqual(
      ['LEDGER#forfeit', 'LEDGER#goods', 'LEDGER#minus', 'LEDGER#order', 'LEDGER#reward'].sort(),
    );

    const afterDeletion = [
      call(app, 'POST', `${base}/account/params`, { token: player.platform, body: {} }),
      call(app, 'POST', `${base}/account/game/minus_tickets`, {
        token: player.game,
        body: { userId: player.uid, projectName: player.projectName, level: 1, amount: 1 },
      }),
      call(app, 'GET', `${base}/account/user/deposit`, { token: player.platform }),
    ];
    for (const refused of await Promise.all(afterDeletion)) expect([refused.status, refused.body.error]).toEqual([401, 'auth.account_deleted']);

    // The same request again: the same answer, nothing written.
    const before = await scanAll(deps);
    const again = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } });
    expect({ status: again.status, text: again.text }).toEqual({ status: 200, text: deleted.text });
    expect(await scanAll(deps)).toEqual(before);
  });

  it('lets the same wallet sign in again to a new, empty account', async () => {
    const player = await playerWithTokens(deps);
    const signature = await deletionSignature(player.platform, player.keypair);
    await ok(call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } }));

    const nonce = await ok(call(app, 'GET', `${base}/account/nonce`, { query: { address: player.address } }));
    const signed = (await player.keypair.signPersonalMessage(new TextEncoder().encode(nonce.data.message))).signature;
    const uuid = randomUUID();
    const signIn = await ok(call(app, 'POST', `${base}/account/register/chainwallet`, { body: { uuid, address: player.address, signature: signed } }));
    expect(signIn).toMatchObject({ platformToken: { accessToken: expect.any(String) } });
    const platform = signIn.platformToken.accessToken;
    const balance = await ok(call(app, 'GET', `${base}/account/user/deposit`, { token: platform }));
    expect(balance.data).toEqual([]);
  });

  it('refuses a request without a fresh proof, and writes nothing', async () => {
    const [player, other] = [await playerWithTokens(deps), await playerWithTokens(deps)];
    const before = await scanAll(deps);
    const refusals = [
      [{}, 400, 'input.invalid'],
      [{ signature: 'AAAA', id_token: 'a.b.c' }, 400, 'input.invalid'],
      [{ signature: 'AAAA' }, 401, 'deletion.message_missing'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const res = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body });
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(code);
      expect(documentErrors(document, '/account/delete', 'post', res.status, res.body)).toEqual([]);
    }
    const wrong = await deletionSignature(player.platform, other.keypair);
    const forged = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature: wrong } });
    expect([forged.status, forged.body.error]).toEqual([401, 'deletion.signature_invalid']);
    const tokenOnly = await call(app, 'POST', `${base}/account/delete`, { token: player.game, body: { signature: wrong } });
    expect(tokenOnly.status).toBe(401);
    // A game server may not delete a player (nor ask for the message): 403, not merely a token of the wrong kind.
    const server = (await deps.tokens.issue('server', randomUUID(), { merchant_id: 1 })).token;
    for (const path of ['/account/delete', '/account/deletion/challenge']) {
      const refused = await call(app, 'POST', `${base}${path}`, { token: server, body: { signature: wrong } });
      expect([refused.status, refused.body.error]).toEqual([403, 'auth.kind_refused']);
      expect(documentErrors(document, path, 'post', refused.status, refused.body)).toEqual([]);
    }
    const after = await scanAll(deps);
    // Only the deletion message the challenge stored (live five minutes) is new.
    expect(after.filter((item) => !before.some((seen) => seen.pk === item.pk && seen.sk === item.sk)).map((item) => String(item.pk))).toEqual([
      `ERASENONCE#${player.address}`,
    ]);
  });
});

/**
 * A lighter player for the loops below: tickets, a keyed spend, a spend without a key (its entry held in the
 * balance), a score, a goods order and a social binding.
 */
async function player() {
  const shop = await projectWithLevel(deps);
  const projectName = shop.project.project_name;
  const someone = await playerWithTokens(deps, shop.gameCode);
  await giveTickets(deps, someone.uid, projectName, 1, 30);
  await ok(
    call(app, 'POST', `${base}/account/game/minus_tickets`, {
      token: shop.server,
      headers: { 'Idempotency-Key': `spend-${randomUUID()}` },
      body: { userId: someone.uid, projectName, level: 1, amount: 4 },
    }),
    201,
  );
  await ok(
    call(app, 'POST', `${base}/account/game/minus_tickets`, { token: shop.server, body: { userId: someone.uid, projectName, level: 1, amount: 2 } }),
    201,
  );
  const name = `Ann-${randomUUID().slice(0, 8)}`;
  await ok(
    call(app, 'POST', `${base}/merchant/games/addWin`, {
      token: shop.server,
      body: { game_code: shop.gameCode, game_player_id: someone.uid, game_player_name: name, kills: 2, wins: 0, result_id: `r-${randomUUID()}` },
    }),
  );
  const goods = await goodsFor(deps, { ...shop.owner, project: shop.project } as Parameters<typeof goodsFor>[1], { price: 3 });
  await ok(
    call(app, 'POST', `${base}/account/vendor/order`, { token: someone.platform, body: { userId: someone.uid, goodsId: goods.id, quantity: 1, projectName } }),
  );
  const socialId = `social-${randomUUID()}`;
  await ok(call(app, 'POST', `${base}/account/social/bind`, { token: someone.platform, body: { id_token: await issuer.sign({ sub: socialId }) } }));
  return { ...someone, projectName, personal: [someone.uid, someone.address, someone.address.slice(2), name, socialId], tickets: 30 - 4 - 2 - 3 };
}

/** The deletions job's pass at `at` (its sweeps fall due five minutes after an answer). */
async function jobAt(at: number) {
  deps.setNow(new Date(at));
  try {
    return await resumeDeletions(deps, { deadline: Date.now() + 60_000 });
  } finally {
    deps.setNow(undefined);
  }
}

/** Nothing personal of the player is left but their studios' notices, and every ledger adds up. */
async function expectGone(personal: string[]) {
  const items = await scanAll(deps);
  expect(holders(items, personal).filter((item) => !String(item.pk).startsWith('DELETIONS#'))).toEqual([]);
  expect(ledgerMismatches(items)).toEqual([]);
}

describe('account delete under races and faults', () => {
  let injector: FaultInjector | undefined;
  /** The table's fault injector, installed on the first use (once per client). */
  const tableFaults = () => (injector ??= injectFaults(deps.db));

  it('several requests at once: one deletion; the others 409 deletion.running or its answer; never a 5xx', async () => {
    const someone = await player();
    const signature = await deletionSignature(someone.platform, someone.keypair);
    const send = () => call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } });
    const answers = await Promise.all(Array.from({ length: 6 }, send));
    for (const res of answers) {
      expect([200, 409], JSON.stringify(res.body)).toContain(res.status);
      expect(documentErrors(document, '/account/delete', 'post', res.status, res.body)).toEqual([]);
      if (res.status === 409) {
        expect(res.body.error, JSON.stringify(res.body)).toBe('deletion.running');
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    const done = answers.filter((res) => res.status === 200);
    expect(done.length).toBeGreaterThan(0);
    for (const res of done) expect(res.body).toEqual(done[0]!.body);
    expect(done[0]!.body.data.forfeited_tickets).toBe(someone.tickets);
    expect(await send()).toMatchObject({ status: 200, body: done[0]!.body });
    // The job sweeps every deletion due (an earlier test's too).
    expect(await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000)).toMatchObject({ failed: 0 });
    await expectGone(someone.personal);
  });

  it('a start cancelled by other transactions at every try: 409 deletion.running with a short Retry-After, nothing written; sent again, it deletes', async () => {
    const someone = await player();
    const signature = await deletionSignature(someone.platform, someone.keypair);
    const send = () => call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } });
    const raced = await withFault(tableFaults(), faults['transaction conflict']!, 0, send, 'TransactWriteItemsCommand');
    expect(raced.status, JSON.stringify(raced.body)).toBe(409);
    expect(raced.body.error).toBe('deletion.running');
    expect(raced.headers.get('retry-after')).toBe('1');
    expect(documentErrors(document, '/account/delete', 'post', raced.status, raced.body)).toEqual([]);
    const items = await scanAll(deps);
    expect(items.filter((item) => item.type === 'erasure' && item.gone === goneKey(someone.uid).pk)).toEqual([]);
    expect(items.filter((item) => item.pk === goneKey(someone.uid).pk)).toEqual([]);
    // The proof was not consumed either: the same request deletes the account.
    expect((await ok(send())).data.forfeited_tickets).toBe(someone.tickets);
  });

  it('a failure at any command of the deletion: the same request again (or the job) finishes it, and the table ends as after a clean one', async () => {
    const injector = tableFaults();
    let interrupted = 0;
    for (let after = 0; ; after++) {
      const someone = await player();
      const signature = await deletionSignature(someone.platform, someone.keypair);
      const send = () => call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } });
      const failed = await withFault(injector, faults['service error']!, after, send);
      const reached = injector.sent > after;
      if (!reached) {
        expect(failed.status).toBe(200);
        break;
      }
      interrupted++;
      expect([409, 503], JSON.stringify(failed.body)).toContain(failed.status);
      expect(documentErrors(document, '/account/delete', 'post', failed.status, failed.body)).toEqual([]);
      // The failed run could not let go of its lease: the retry takes over once it lapses (or, every other time, the job does).
      const later = Date.now() + (LEASE_SECONDS + 1) * 1000;
      deps.setNow(new Date(later));
      let answer: Record<string, any>;
      try {
        if (after % 2 === 0) answer = await ok(send());
        else {
          await resumeDeletions(deps, { deadline: Date.now() + 60_000 });
          answer = await ok(send());
        }
      } finally {
        deps.setNow(undefined);
      }
      expect(answer.data).toMatchObject({ deleted: true, forfeited_tickets: someone.tickets });
      await jobAt(later + (SWEEP_AFTER_SECONDS + 1) * 1000);
      await expectGone(someone.personal);
      const tokens = await call(app, 'GET', `${base}/account/user/deposit`, { token: someone.platform });
      expect(tokens.status).toBe(401);
    }
    // A deletion sends dozens of commands; each was the failing one once.
    expect(interrupted).toBeGreaterThan(20);
    // A whole deletion and its retry per command: the loop's length, not a timing bound.
  }, 120_000);

  it('a credit that lands between rounds (a writer without the gone check) is forfeited by the next round; the deletion still finishes', async () => {
    const someone = await player();
    const signature = await deletionSignature(someone.platform, someone.keypair);
    const landed = creditBetweenRounds({ uid: someone.uid, projectName: someone.projectName, level: 1 }, 9);
    const res = await call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } });
    expect(landed.count()).toBe(1);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      forfeited_tickets: someone.tickets + 9,
      forfeited: [{ projectName: someone.projectName, level: 1, tickets: someone.tickets + 9 }],
    });
    await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000);
    await expectGone(someone.personal);
  });

  it('a score report that read no gone mark and commits after the deletion has answered: the sweep deletes what it wrote', async () => {
    const someone = await player();
    const game = await gameWithServer(deps);
    const signature = await deletionSignature(someone.platform, someone.keypair);
    const name = `Racer-${randomUUID().slice(0, 8)}`;
    // The report's transaction is held until the whole deletion has run and answered: the report read the player's
    // gone mark before it existed, and commits after the deletion's last round.
    let deletion: Promise<{ status: number; body: unknown }> | undefined;
    const hold = `holdReport${randomUUID()}`;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const report = context.commandName === 'TransactWriteItemsCommand' && JSON.stringify(args.input).includes(`SCORE#${game.code}`);
        if (!deletion && report) {
          deletion = call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } });
          await ok(deletion);
        }
        return next(args);
      },
      { step: 'initialize', name: hold },
    );
    const report = await call(app, 'POST', `${base}/merchant/games/addWin`, {
      token: game.server,
      body: { game_code: game.code, game_player_id: someone.uid, game_player_name: name, kills: 5, wins: 1 },
    });
    deps.db.middlewareStack.remove(hold);
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(deletion).toBeDefined();
    expect((await seasonScores(deps, game.code, weekOf(new Date()), 1)).map(({ id }) => id)).toEqual([someone.uid]);
    await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000);
    expect(await seasonScores(deps, game.code, weekOf(new Date()), 1)).toEqual([]);
    await expectGone([...someone.personal, name]);
  });

  it('keeps what it learned beside its record, so the record stays small however many seasons and names the player had', async () => {
    const someone = await player();
    // Scores in 300 weeks of a game, under a name of their own each (as a game server may report them).
    const weeks = Array.from({ length: 300 }, (_, i) => weekOf(new Date(Date.UTC(2021, 0, 4) + i * 7 * 86_400_000)));
    const names = weeks.map((_, i) => `Old name ${i} ${randomUUID()}`);
    for (let i = 0; i < weeks.length; i += 25) {
      await Promise.all(
        weeks.slice(i, i + 25).map((season, j) =>
          deps.db.send(
            new PutCommand({
              TableName: deps.table,
              Item: {
                ...scoreKey('old-game', season, someone.uid, 1),
                type: 'score',
                game_code: 'old-game',
                season_type: season.type,
                season_range: season.range,
                game_player_id: someone.uid,
                game_player_name: names[i + j],
                ...playerItemsKeys(someone.uid, 'SCORE'),
              },
            }),
          ),
        ),
      );
    }
    const signature = await deletionSignature(someone.platform, someone.keypair);
    await ok(call(app, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } }));
    const erasure = (await scanAll(deps)).filter((item) => item.type === 'erasure' && item.gone === goneKey(someone.uid).pk);
    expect(erasure).toHaveLength(1);
    expect(JSON.stringify(erasure[0]).length).toBeLessThan(2_000);
    const learned = (await scanAll(deps)).filter((item) => item.pk === erasure[0]!.pk && item.sk !== 'ERASURE');
    expect(learned.length).toBeGreaterThan(600);
    await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000);
    expect((await scanAll(deps)).filter((item) => item.pk === erasure[0]!.pk).map((item) => item.sk)).toEqual(['ERASURE']);
    await expectGone([...someone.personal, ...names]);
  });

  it('refuses credits from the start: a vendor reward racing the deletion is 409 tickets.player_deleted and writes nothing', async () => {
    const shop = await projectWithLevel(deps);
    const someone = await playerWithTokens(deps, shop.gameCode);
    // The gone mark lands after the authorization layer read it (the deletion's first write, a moment later).
    const started = goneMarkBeforeNextCredit(someone.uid);
    const before = await scanAll(deps);
    const res = await call(app, 'POST', `${base}/wallet/vendor/reward`, {
      token: shop.server,
      body: { userId: someone.uid, projectName: shop.project.project_name, level: 1, amount: 5, billNo: `VR${Date.now()}` },
    });
    expect(started.count()).toBe(1);
    expect([res.status, res.body.error]).toEqual([409, 'tickets.player_deleted']);
    expect(documentErrors(document, '/wallet/vendor/reward', 'post', res.status, res.body)).toEqual([]);
    // Besides the mark itself, only the id counter the reward's record drew from moved (ids are never reused).
    const written = (await scanAll(deps)).filter((item) => !before.some((seen) => seen.pk === item.pk && seen.sk === item.sk));
    expect(written.map((item) => String(item.pk)).filter((pk) => !pk.startsWith('COUNTER#'))).toEqual([goneKey(someone.uid).pk]);
    expect(await balanceOf(deps, { uid: someone.uid, projectName: shop.project.project_name, level: 1 })).toBe(0);
  });
});

describe('a player whose deductions are held in their balances (core/tickets/held-ledger.ts)', () => {
  /** A player and `count` deductions of `amount` without an Idempotency-Key in a new project's level 1, from `tickets`; their refs. */
  async function spender(tickets: number, count: number, amount: number, someone?: Awaited<ReturnType<typeof playerWithTokens>>) {
    const shop = await projectWithLevel(deps);
    const player = someone ?? (await playerWithTokens(deps, shop.gameCode));
    const projectName = shop.project.project_name;
    await giveTickets(deps, player.uid, projectName, 1, tickets);
    const refs: string[] = [];
    for (let i = 0; i < count; i++) {
      const body = { userId: player.uid, projectName, level: 1, amount };
      refs.push((await ok(call(app, 'POST', `${base}/account/game/minus_tickets`, { token: shop.server, body }), 201)).data);
    }
    return { player, projectName, refs };
  }

  /** The deletion's pseudonym, from its record (until the sweep). */
  const pseudonymOf = async (uid: string) => String((await scanAll(deps)).find((item) => item.type === 'erasure' && item.uid === uid)!.pseudonym);

  it('keeps the entries a balance held under the pseudonym, beside its forfeit: the ledger sums and the forfeit is the balance alone', async () => {
    // A page moved out and 12 entries held; in a second project, every ticket spent: nothing to forfeit, 3 entries held.
    const paged = await spender(100, HOLD_MAX + 4, 2);
    const spent = await spender(3, 3, 1, paged.player);
    const { uid } = paged.player;
    const own = (await scanAll(deps)).filter((item) => item.pk === `USER#${uid}`);
    expect(own.filter((item) => String(item.sk).startsWith('TICKETS#')).map((item) => (item.entries as unknown[]).length)).toEqual(
      expect.arrayContaining([HOLD_MAX + 4 - PAGE_ENTRIES, 3]),
    );
    expect(own.filter((item) => String(item.sk).startsWith('LEDGER#page#'))).toHaveLength(1);

    const signature = await deletionSignature(paged.player.platform, paged.player.keypair);
    const answer = await ok(call(app, 'POST', `${base}/account/delete`, { token: paged.player.platform, body: { signature } }));
    const left = 100 - 2 * (HOLD_MAX + 4);
    expect(answer.data).toMatchObject({ forfeited_tickets: left, forfeited: [{ projectName: paged.projectName, level: 1, tickets: left }] });

    const pseudonym = await pseudonymOf(uid);
    const items = await scanAll(deps);
    expect(items.filter((item) => item.pk === `USER#${uid}`)).toEqual([]);
    expect(ledgerMismatches(items)).toEqual([]);
    const kept = items.filter((item) => item.pk === `USER#${pseudonym}`);
    // Every deduction once, in a page (the one moved, or one per balance of what it held).
    const lines = kept.flatMap((item) => ((item.entries ?? []) as HeldEntry[]).map((entry) => [item.projectName, entry.ref]));
    expect(lines.sort()).toEqual([...paged.refs.map((ref) => [paged.projectName, ref]), ...spent.refs.map((ref) => [spent.projectName, ref])].sort());
    expect(kept.map((item) => `${String(item.projectName)} ${String(item.sk).split('#').slice(0, 2).join('#')}`).sort()).toEqual(
      [
        `${paged.projectName} LEDGER#forfeit`,
        ...[paged.projectName, paged.projectName, spent.projectName].map((project) => `${project} LEDGER#page`),
        ...[paged.projectName, spent.projectName].map((project) => `${project} LEDGER#test`),
      ].sort(),
    );
    await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000);
    await expectGone([uid, paged.player.address, paged.player.address.slice(2)]);
  });

  it('a page moved out between the deletion’s read and its forfeit: the forfeit is refused, and the next round keeps each entry once', async () => {
    const { player, projectName, refs } = await spender(30, PAGE_ENTRIES + 2, 1);
    const target = { uid: player.uid, projectName, level: 1 };
    // The move a deduction made just before the gone mark, landing late: the balance had no `pages` yet.
    const moved = afterTransaction(
      (input) => input.includes('LEDGER#forfeit#') && input.includes(`USER#${player.uid}`),
      async () => {
        const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: balanceKey(target), ConsistentRead: true }));
        const held = stored.Item!.entries as HeldEntry[];
        await deps.db.send(new TransactWriteCommand({ TransactItems: pageMoveItems(deps.table, target, held.slice(0, PAGE_ENTRIES)) }));
      },
      { before: true },
    );
    const signature = await deletionSignature(player.platform, player.keypair);
    const answer = await ok(call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } }));
    expect(moved.count()).toBe(1);
    expect(answer.data).toMatchObject({ forfeited_tickets: 30 - refs.length });

    const pseudonym = await pseudonymOf(player.uid);
    const items = await scanAll(deps);
    expect(ledgerMismatches(items)).toEqual([]);
    const kept = items.filter((item) => item.pk === `USER#${pseudonym}`);
    expect(kept.flatMap((item) => ((item.entries ?? []) as HeldEntry[]).map((entry) => entry.ref)).sort()).toEqual([...refs].sort());
  });
});

/**
 * Runs `write` once, right after the next transaction that the test's condition picks out has been written:
 * a write another process makes at that moment. Answers how many times it ran.
 */
function afterTransaction(picks: (input: string) => boolean, write: () => Promise<unknown>, { before = false } = {}) {
  let armed = true;
  let ran = 0;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const picked = armed && context.commandName === 'TransactWriteItemsCommand' && picks(JSON.stringify(args.input));
      if (picked) {
        armed = false;
        if (before) await write().then(() => ran++);
      }
      const out = await next(args);
      if (picked && !before) await write().then(() => ran++);
      return out;
    },
    { step: 'initialize', name: `afterTransaction-${randomUUID()}` },
  );
  return { count: () => ran };
}

/** After the deletion's first forfeit, `tickets` more land on the balance it forfeited, as a credit without the gone check writes them. */
function creditBetweenRounds(target: { uid: string; projectName: string; level: number }, tickets: number) {
  const credit = creditItems(deps, target, tickets, `reward#late-${randomUUID()}`).filter((item) => !isNotGoneCheck(item));
  return afterTransaction(
    (input) => input.includes('LEDGER#forfeit#'),
    () => deps.db.send(new TransactWriteCommand({ TransactItems: credit })),
  );
}

/** The player's gone mark, written just before the next transaction that credits them is sent. */
function goneMarkBeforeNextCredit(uid: string) {
  return afterTransaction(
    (input) => input.includes(`USER#${uid}`) && input.includes('LEDGER#'),
    () => deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...goneKey(uid), type: 'gone', deleted_at: Math.floor(Date.now() / 1000) } })),
    { before: true },
  );
}

describe('a zkLogin account', () => {
  const loginZk = async (sub: string) => ok(call(app, 'POST', `${base}/account/login/zk`, { body: { id_token: await issuer.sign({ sub }) } }));

  it('deletes with a fresh id_token of its identity; signing in again reaches the same address with a new, empty account', async () => {
    const sub = `zk-${randomUUID()}`;
    const first = await loginZk(sub);
    const token = first.platformToken.accessToken;
    await giveTickets(deps, first.uid, (await projectWithLevel(deps)).project.project_name, 1, 5);

    const before = await scanAll(deps);
    const wrongKind = await call(app, 'POST', `${base}/account/deletion/challenge`, { token });
    expect([wrongKind.status, wrongKind.body.error]).toEqual([409, 'deletion.proof_kind_wrong']);
    const other = await call(app, 'POST', `${base}/account/delete`, { token, body: { id_token: await issuer.sign({ sub: `zk-${randomUUID()}` }) } });
    expect([other.status, other.body.error]).toEqual([403, 'deletion.proof_other_account']);
    const issued = await issuer.sign({ sub });
    deps.setNow(new Date(Date.now() + 11 * 60 * 1000));
    try {
      const stale = await call(app, 'POST', `${base}/account/delete`, { token, body: { id_token: issued } });
      expect([stale.status, stale.body.error]).toEqual([401, 'deletion.proof_stale']);
    } finally {
      deps.setNow(undefined);
    }
    expect(await scanAll(deps)).toEqual(before);

    const deleted = await ok(call(app, 'POST', `${base}/account/delete`, { token, body: { id_token: await issuer.sign({ sub }) } }));
    expect(deleted.data).toMatchObject({ deleted: true, forfeited_tickets: 5 });
    await jobAt(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000);
    await expectGone([first.uid, first.address, first.address.slice(2), sub]);

    const again = await loginZk(sub);
    expect(again.address).toBe(first.address);
    expect(again.uid).not.toBe(first.uid);
    const deposits = await ok(call(app, 'GET', `${base}/account/user/deposit`, { token: again.platformToken.accessToken }));
    expect(deposits.data).toEqual([]);
  });
});

describe('a player with heroes', () => {
  it('releases their hero NFTs (the binding keeps the level, without the player) and deletes their heroes and grants', async () => {
    const heroDeps = await createTestDeps();
    const world = await heroWorld(heroDeps);
    const main = createAllApps(heroDeps);
    try {
      const someone = await heroPlayer(world, heroDeps);
      const nft = heroNft(someone.address);
      world.script.putObject(nft);
      expect((await world.request('POST', '/heroes/bind', { token: someone.hero, body: { objectId: nft.objectId } })).status).toBe(200);
      await grantedHero(world, someone.uid);

      const challenge = await ok(call(main, 'POST', `${base}/account/deletion/challenge`, { token: someone.platform }));
      const { signature } = await someone.keypair.signPersonalMessage(new TextEncoder().encode(challenge.data.message));
      const deleted = await ok(call(main, 'POST', `${base}/account/delete`, { token: someone.platform, body: { signature } }));
      expect(deleted.data).toMatchObject({ heroes_released: 1 });

      const items = await scanAll(heroDeps);
      const binding = items.find((item) => item.pk === `HERONFT#${nft.objectId}` && item.sk === 'BINDING');
      expect(binding).toMatchObject({ level: 1, released_at: expect.any(String) });
      expect(binding).not.toHaveProperty('uid');
      const refused = await world.request('GET', '/heroes', { token: someone.hero });
      expect(refused.status).toBe(401);
      const left = holders(items, [someone.uid, someone.address]).filter((item) => !['DELETIONS', 'ERASURE'].includes(String(item.pk).split('#')[0]!));
      expect(left).toEqual([]);
    } finally {
      await world.node.stop();
    }
  });
});

describe('the rank pages', () => {
  it("lose the player from the head by the stream's removals, or, when that batch was dropped, from the head and the snapshot by the deletion's sweep", async () => {
    const streamed = await createTestDeps({ stream: true });
    const streamedApp = createAllApps(streamed);
    const shop = await projectWithLevel(streamed);
    const [leaving, staying] = [await playerWithTokens(streamed, shop.gameCode), await playerWithTokens(streamed, shop.gameCode)];
    for (const [who, name, wins] of [
      [leaving, 'Leaving', 5],
      [staying, 'Staying', 3],
    ] as const) {
      await ok(
        call(streamedApp, 'POST', `${base}/merchant/games/addWin`, {
          token: shop.server,
          body: { game_code: shop.gameCode, game_player_id: who.uid, game_player_name: name, kills: 0, wins },
        }),
      );
    }
    await drainRankStream(streamed);
    await takeSnapshots(streamed);
    const ref = { board: 'wins' as const, game: shop.gameCode, season: weekOf(new Date()) };
    /** The player ids the board's head, its top and its snapshot hold, with the head's and the snapshot's counts. */
    const held = async () => {
      const [head, snapshot, top] = await Promise.all([headPages(streamed, ref), snapshotPages(streamed, ref), headTop(streamed, ref)]);
      const idsOf = (pages: typeof head.pages) => pages.flatMap((page) => page.entries.map((entry) => entry.id));
      return {
        head: idsOf(head.pages),
        top: (top ?? []).map((entry) => entry.id),
        snapshot: idsOf(snapshot.pages),
        counts: [head.directory.players, snapshot.directory.players],
      };
    };
    const both = [leaving.uid, staying.uid];
    expect(await held()).toEqual({ head: both, top: both, snapshot: both, counts: [2, 2] });

    const challenge = await ok(call(streamedApp, 'POST', `${base}/account/deletion/challenge`, { token: leaving.platform }));
    const { signature } = await leaving.keypair.signPersonalMessage(new TextEncoder().encode(challenge.data.message));
    await ok(call(streamedApp, 'POST', `${base}/account/delete`, { token: leaving.platform, body: { signature } }));
    // The stream's batch with the score items' removals is never applied (dropped): the sweep takes the player off.
    expect(await held()).toEqual({ head: both, top: both, snapshot: both, counts: [2, 2] });
    streamed.setNow(new Date(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000));
    try {
      expect(await resumeDeletions(streamed, { deadline: Date.now() + 60_000 })).toEqual({ finished: 1, failed: 0 });
    } finally {
      streamed.setNow(undefined);
    }
    const one = [staying.uid];
    expect(await held()).toEqual({ head: one, top: one, snapshot: one, counts: [1, 1] });
    expect(holders(await scanAll(streamed), [leaving.uid]).map((item) => String(item.pk).split('#')[0])).toEqual(['DELETIONS']);
    // The batch applied after all changes nothing more, nor does the next snapshot.
    await drainRankStream(streamed);
    await takeSnapshots(streamed);
    expect(await held()).toEqual({ head: one, top: one, snapshot: one, counts: [1, 1] });
  });
});

import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bcs } from '@mysten/sui/bcs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { balanceOf } from '../core/tickets/balances.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { indexedPayment, playerWithTokens, randomDigest } from './support/payments.js';
import { claimableGame, pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';

/**
 * Amounts in base units past 2^53 (docs/api.md, "Amounts in base units"): exact up to u64's maximum from the request
 * body (a JSON integer literal of any size, or decimal text) through the table to the response and the signed claim.
 * Requests are sent as raw JSON text, so the literals are exactly what a client writes.
 */

const base = '/v2-testing';
const TWO_53_PLUS_1 = '9007199254740993';
const U64_MAX = '18446744073709551615';

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

/** A request whose JSON body is `json` verbatim (JSON.stringify cannot write an integer past 2^53). */
async function rawCall(method: string, path: string, token: string, json: string) {
  const res = await app.request(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: json });
  return { status: res.status, text: await res.text() };
}

describe('reward tables and history entries', () => {
  it('keeps a reward of 2^53 + 1 and of u64 max exact: as a JSON integer literal or decimal text, in the table, the history and the signed claim', async () => {
    const game = await claimableGame(deps, [{ rank: 1, amount: 1 }]);
    const set = await rawCall(
      'POST',
      '/merchant/games/rewards',
      game.owner.token,
      `{"game_code":"${game.code}","rewards":[{"rank":1,"amount":${U64_MAX}},{"rank":2,"amount":"${TWO_53_PLUS_1}"}]}`,
    );
    expect(set.status, set.text).toBe(200);
    // The integer field is written with all its digits; the new decimal-text field beside it.
    expect(set.text).toContain(`{"rank":1,"amount":${U64_MAX},"amount_base":"${U64_MAX}"}`);
    expect(set.text).toContain(`{"rank":2,"amount":${TWO_53_PLUS_1},"amount_base":"${TWO_53_PLUS_1}"}`);
    const read = await app.request(`${base}/merchant/games/rewards?game_code=${game.code}`, { headers: { authorization: `Bearer ${game.owner.token}` } });
    const readText = await read.text();
    expect(readText).toContain(`"amount":${U64_MAX},"amount_base":"${U64_MAX}"`);
    // No coin in the stage's claim settings: the amounts are SUI's base units (MIST).
    expect(JSON.parse(readText).data.coin_type).toBe('0x2::sui::SUI');

    const player = await playerWithTokens(deps);
    await scoresInPastWeek(deps, game, [
      { id: player.uid, wins: 9 },
      { id: 'second', wins: 5 },
    ]);
    const admin = await accountWithToken(deps, 'admin');
    const settle = await call(app, 'POST', `${base}/merchant/games/history/test`, {
      token: admin.token,
      body: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
    });
    expect(settle.status, JSON.stringify(settle.body)).toBe(200);
    const history = await app.request(`${base}/merchant/games/history/rank?game_code=${game.code}&season_type=1&season_range=${pastWeek().range}`);
    const text = await history.text();
    expect(text).toContain(`"reward_amount":${U64_MAX},"status":0,"reward_amount_base":"${U64_MAX}"`);
    expect(text).toContain(`"reward_amount":${TWO_53_PLUS_1},"status":0,"reward_amount_base":"${TWO_53_PLUS_1}"`);

    const entryId = (JSON.parse(text) as { data: { id: number; platform_player_id: string }[] }).data.find((e) => e.platform_player_id === player.uid)!.id;
    const signed = await call(app, 'POST', `${base}/merchant/sign/code`, { token: player.platform, body: { id: entryId } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.data.amount).toBe(U64_MAX);
    // The signed bytes carry the exact u64 (amount follows chain, game, coin_type, history_id, recipient).
    const claim = bcs
      .struct('RewardClaim', {
        chain: bcs.string(),
        game: bcs.Address,
        coin_type: bcs.string(),
        history_id: bcs.u64(),
        recipient: bcs.Address,
        amount: bcs.u64(),
      })
      .parse(Buffer.from(signed.body.data.message, 'hex'));
    expect(claim.amount).toBe(U64_MAX);
  });

  it.each([
    ['u64 max + 1 as a literal', '18446744073709551616'],
    ['u64 max + 1 as text', '"18446744073709551616"'],
    ['a negative literal', '-1'],
    ['zero', '0'],
    ['a fraction', '1.5'],
    ['text with a leading zero', '"012"'],
    ['text with a sign', '"+12"'],
    ['text with a fraction', '"1.0"'],
    ['a huge fraction literal', '18446744073709551615.5'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_what, literal) => {
    const game = await rewardGame(deps);
    const before = await itemCount(deps);
    const res = await rawCall('POST', '/merchant/games/rewards', game.owner.token, `{"game_code":"${game.code}","rewards":[{"rank":1,"amount":${literal}}]}`);
    expect(res.status, res.text).toBe(400);
    expect(JSON.parse(res.text).message).toMatch(/^body\.rewards\.0\.amount: expected an integer from 1 to 18446744073709551615/);
    expect(await itemCount(deps)).toBe(before);
  });

  it('refuses an integer past 2^53 in a field that is not an amount (it is not silently rounded)', async () => {
    const game = await rewardGame(deps);
    const res = await rawCall(
      'POST',
      '/merchant/games/rewards',
      game.owner.token,
      `{"game_code":"${game.code}","rewards":[{"rank":${TWO_53_PLUS_1},"amount":1}]}`,
    );
    expect(res.status, res.text).toBe(400);
    expect(JSON.parse(res.text).message).toMatch(/^body\.rewards\.0\.rank: /);
  });
});

describe('price levels, recharge orders and orderComplete', () => {
  /** A project of an 18-decimal coin (0.01 of it is 10^16 base units, past 2^53) and a player. */
  async function shop() {
    const owner = await merchantWithToken(deps);
    const project = await call(app, 'POST', `${base}/merchant/projects`, {
      token: owner.token,
      body: {
        project_name: `wide-${randomDigest().slice(0, 10)}`,
        receive_address: Ed25519Keypair.generate().toSuiAddress(),
        coin_type: '0xe18::coin::E18',
        precison: 18,
      },
    });
    expect(project.status, JSON.stringify(project.body)).toBe(200);
    const player = await playerWithTokens(deps);
    const saveLevel = (level: number, amount: string) =>
      rawCall(
        'POST',
        '/merchant/projects/levels',
        owner.token,
        `{"project_name":"${project.body.data.project_name}","level":${level},"amount":${amount},"tickets":7}`,
      );
    const recharge = (priceId: number, level: number, amount: string) =>
      rawCall(
        'POST',
        '/account/user/rechargeOrder',
        player.platform,
        `{"userId":"${player.uid}","project":"${project.body.data.project_name}","priceId":${priceId},"prevId":-1,"level":${level},"amount":${amount}}`,
      );
    return { project: project.body.data as { project_name: string; receive_address: string }, player, saveLevel, recharge };
  }

  it.each([
    ['2^53 + 1 as a JSON integer', 1, TWO_53_PLUS_1, '0.009007199254740993'],
    ["u64's maximum as decimal text", 2, `"${U64_MAX}"`, '18.446744073709551615'],
  ])('a level priced at %s is ordered and completed at exactly that price', async (_what, levelNo, literal, coins) => {
    const { project, player, saveLevel, recharge } = await shop();
    const exact = literal.replaceAll('"', '');
    const saved = await saveLevel(levelNo, literal);
    expect(saved.status, saved.text).toBe(200);
    const level = JSON.parse(saved.text).data as { priceId: number; amount: string; amount_base: string };
    expect(level).toMatchObject({ amount: coins, amount_base: exact });
    const listed = await call(app, 'GET', `${base}/account/user/project/level`, { query: { project: project.project_name } });
    expect(listed.body.data).toEqual([expect.objectContaining({ level: levelNo, amount: coins, amount_base: exact })]);

    // The neighbour a double would round to is a changed price: 409, nothing written.
    const rounded = (BigInt(exact) - 1n).toString();
    const before = await itemCount(deps);
    const wrong = await recharge(level.priceId, levelNo, rounded);
    expect(wrong.status, wrong.text).toBe(409);
    expect(JSON.parse(wrong.text).message).toContain(`is ${exact} base units`);
    expect(await itemCount(deps)).toBe(before);

    const ordered = await recharge(level.priceId, levelNo, literal);
    expect(ordered.status, ordered.text).toBe(200);
    const order = JSON.parse(ordered.text) as { id: number; bill_no: string; amount: string; amount_base: string };
    expect(order).toMatchObject({ amount: coins, amount_base: exact });

    // A payment one base unit short is refused; the exact amount completes the order.
    const pay = async (amount: string) => {
      const digest = await indexedPayment(deps, {
        billNo: order.bill_no,
        amount,
        from: player.address,
        to: project.receive_address,
        coinType: '0xe18::coin::E18',
      });
      return call(app, 'POST', `${base}/account/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } });
    };
    const short = await pay(rounded);
    expect(short.status, JSON.stringify(short.body)).toBe(409);
    expect(short.body.message).toContain(`order ${order.id} costs ${exact}`);
    const done = await pay(exact);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await balanceOf(deps, { uid: player.uid, projectName: project.project_name, level: levelNo })).toBe(7);
    const coinsList = await call(app, 'GET', `${base}/account/game/pay/coins`, { token: player.platform });
    expect(coinsList.body.data).toEqual([expect.objectContaining({ id: order.id, amount: coins, amount_base: exact, status: 1 })]);
  });

  it('refuses a price past u64 or in any other spelling with a 400 naming body.amount', async () => {
    const { saveLevel } = await shop();
    for (const literal of ['18446744073709551616', '"18446744073709551616"', '0', '-5', '"1e3"', '2.5']) {
      const res = await saveLevel(1, literal);
      expect(res.status, literal).toBe(400);
      expect(JSON.parse(res.text).message, literal).toMatch(/^body\.amount: expected an integer from 1 to 18446744073709551615/);
    }
  });
});

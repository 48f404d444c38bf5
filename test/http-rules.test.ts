import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, importJWK } from 'jose';
import { createAllApps } from '../functions/apps.js';
import { chainRoutes } from '../functions/routes/chain.js';
import { adminConsoleRoutes } from '../functions/routes/admin-console.js';
import { boardsRoutes } from '../functions/routes/boards.js';
import { innerRoutes } from '../functions/routes/inner.js';
import { outerRoutes } from '../functions/routes/outer.js';
import { payRoutes } from '../functions/routes/pay.js';
import { withoutkeyRoutes } from '../functions/routes/withoutkey.js';
import type { TokenKind } from '../core/platform/tokens.js';
import { createTokenService, generateSigningJwk } from '../core/platform/tokens.js';
import type { OperationSpec } from '../core/http/operation.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const itemCount = () => countItems(deps);

const allOps = [innerRoutes, boardsRoutes, adminConsoleRoutes, outerRoutes, withoutkeyRoutes, payRoutes, chainRoutes].flatMap(
  (group) => Object.values(group.ops) as OperationSpec[],
);
const protectedOps = allOps.filter((op) => op.auth !== 'open');
const kindsOf = (op: OperationSpec) => (op.auth === 'open' ? [] : op.auth.tokens);
const allKinds: TokenKind[] = ['merchant', 'server', 'platform', 'game', 'hero', 'store'];

describe('auth rules on every protected operation', () => {
  it.each(protectedOps.map((op) => [op.name, op] as const))('%s: no token, expired, forged, unsigned or wrong-audience tokens are 401', async (_name, op) => {
    const { accountId, email } = await merchantWithToken(deps);
    const path = `${base}${op.path}`;
    // A merchant-path error carries data: null, or what the operation declares for that status (gamelist's 401).
    const envelopeOf = (status: 401) =>
      op.path.startsWith('/merchant')
        ? { code: status, message: expect.any(String), data: op.errorData?.[status] ?? null, error: 'auth.token_missing' }
        : { statusCode: status, message: expect.any(String), error: 'auth.token_missing' };

    const none = await call(app, op.method, path);
    expect(none.status).toBe(401);
    expect(none.body).toEqual(envelopeOf(401));

    const kind = kindsOf(op)[0]!;
    deps.setNow(new Date(Date.now() - 40 * 24 * 3600_000));
    const old = await deps.tokens.issue(kind, accountId, { role: 'admin', email });
    deps.setNow(undefined);
    const expired = await call(app, op.method, path, { token: old.token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);

    const otherKey = await createTokenService({
      signingKey: { ...(await generateSigningJwk()), kid: deps.signingKey.kid },
      issuer: 'game-platform/v2-testing',
    });
    const forged = await otherKey.issue(kind, accountId, { role: 'admin', email });
    expect((await call(app, op.method, path, { token: forged.token })).status).toBe(401);

    const unsigned = new UnsecuredJWT({ role: 'admin' })
      .setAudience(kind)
      .setSubject(accountId)
      .setIssuer('game-platform/v2-testing')
      .setExpirationTime('1h')
      .encode();
    expect((await call(app, op.method, path, { token: unsigned })).status).toBe(401);

    for (const wrong of allKinds.filter((k) => !kindsOf(op).includes(k))) {
      const wrongAudience = await deps.tokens.issue(wrong, accountId, { role: 'admin', merchant_id: 1 });
      const refused = await call(app, op.method, path, { token: wrongAudience.token });
      // A kind the operation refuses on purpose is 403 with its reason; any other kind is not valid here (401).
      const why = op.auth === 'open' ? undefined : op.auth.refused?.[wrong];
      if (why !== undefined) {
        expect([refused.status, refused.body.error], `${wrong} token`).toEqual([403, 'auth.kind_refused']);
        expect(refused.body.message).toBe(`a ${wrong} token may not: ${why}`);
        continue;
      }
      expect(refused.status, `${wrong} token`).toBe(401);
      expect(refused.body.message).toMatch(/^token is not valid here: expected a /);
    }

    // Right key, right audience, but another issuer (another stage's key would also fail on the signature).
    const key = await importJWK(deps.signingKey, 'ES256');
    const otherStage = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'ES256', kid: deps.signingKey.kid })
      .setAudience(kind)
      .setSubject(accountId)
      .setIssuer('game-platform/prod')
      .setExpirationTime('1h')
      .sign(key);
    expect((await call(app, op.method, path, { token: otherStage })).status).toBe(401);
  });
});

describe('bad input: 400 naming the field, nothing written', () => {
  const cases: { op: string; method: string; path: string; body?: unknown; query?: Record<string, string>; field: RegExp; code?: string }[] = [
    { op: 'create_merchant', method: 'POST', path: '/merchant/create', body: { merchant_name: 5 }, field: /^body\.merchant_name/ },
    {
      op: 'create_merchant',
      method: 'POST',
      path: '/merchant/create',
      body: { merchant_name: 'A', social_links: [{ name: 'x', url: 'javascript:alert(1)' }] },
      field: /^body\.social_links\.0\.url/,
    },
    { op: 'create_merchant', method: 'POST', path: '/merchant/create', body: '{"merchant_name": ', field: /^body: must be valid JSON/, code: 'body.malformed' },
    { op: 'create_merchant', method: 'POST', path: '/merchant/create', body: { merchant_name: '   ' }, field: /^body\.merchant_name/ },
    { op: 'savemerchantgame', method: 'POST', path: '/merchant/games/save', body: { code: 'bad code!', game_name: 'x' }, field: /^body\.code/ },
    {
      op: 'savemerchantgame',
      method: 'POST',
      path: '/merchant/games/save',
      body: { code: 'ok', game_name: 'x', images: ['../etc/passwd'] },
      field: /^body\.images\.0/,
    },
    { op: 'savemerchantgame', method: 'POST', path: '/merchant/games/save', body: { code: 'ok' }, field: /^body\.game_name/ },
    { op: 'update_single_game', method: 'POST', path: '/merchant/games/update', body: { code: 'ok', link: { web: 'not a url' } }, field: /^body\.link\.web/ },
    { op: 'update_single_game', method: 'POST', path: '/merchant/games/update', body: { game_name: 'x' }, field: /^body\.code/ },
    { op: 'query merchant game', method: 'GET', path: '/merchant/games', query: { page: '-1' }, field: /^query\.page/ },
    { op: 'gamelist', method: 'GET', path: '/merchant/games/list', query: { pageSize: '1000' }, field: /^query\.pageSize/ },
    { op: 'gamelist', method: 'GET', path: '/merchant/games/list', query: { page: 'abc' }, field: /^query\.page/ },
    { op: 'merchantStatus', method: 'GET', path: '/merchant/status', query: { merchant_id: 'abc' }, field: /^query\.merchant_id/ },
    { op: 'merchantStatus (set)', method: 'POST', path: '/merchant/status', body: { merchant_id: 1, status: 9 }, field: /^body\.status/ },
    { op: 'merchantStatus (set)', method: 'POST', path: '/merchant/status', body: { status: 1 }, field: /^body\.merchant_id/ },
    { op: 'merchantStatus (set)', method: 'POST', path: '/merchant/status', body: { merchant_id: 1, status: 1, reason: '  ' }, field: /^body\.reason/ },
    { op: 'merchant_orders', method: 'GET', path: '/merchant/orders', query: { limit: '0' }, field: /^query\.limit/ },
    { op: 'merchant_orders', method: 'GET', path: '/merchant/orders', query: { status: 'refunded' }, field: /^query\.status/ },
    { op: 'admin_merchants', method: 'GET', path: '/merchant/admin/merchants', query: { status: '3' }, field: /^query\.status/ },
    { op: 'game_detail', method: 'GET', path: '/merchant/games/detail', query: {}, field: /^query\.code/ },
    { op: 'save_file', method: 'POST', path: '/merchant/file', body: { file: 'x' }, field: /^body: expected multipart/, code: 'body.malformed' },
    { op: 'merchant_login', method: 'POST', path: '/merchant/login', body: { email: 'a@b.co' }, field: /^body\.password/ },
    { op: 'getNonce', method: 'GET', path: '/account/nonce', query: { address: '0x12' }, field: /^query\.address/ },
    { op: 'login_zk', method: 'POST', path: '/account/login/zk', body: { id_token: 'not a jwt' }, field: /^body\.id_token/ },
    {
      op: 'chainwallet_register',
      method: 'POST',
      path: '/account/register/chainwallet',
      body: { uuid: 'x', address: '0x1', signature: 'AA==' },
      field: /^body\.uuid/,
    },
    { op: 'chainwallet/token', method: 'GET', path: '/account/chainwallet/token', query: {}, field: /^query\.game_code/ },
    { op: 'bind social', method: 'POST', path: '/account/social/bind', body: {}, field: /^body\.id_token/ },
    { op: 'save_params', method: 'POST', path: '/account/params', body: { 'bad key!': 'x' }, field: /^body\.bad key!/ },
    { op: 'save_params', method: 'POST', path: '/account/params', body: { ref: 'x'.repeat(513) }, field: /^body\.ref/ },
    { op: 'querybysocialid', method: 'GET', path: '/account/social', query: { provider: 'google' }, field: /^query\.socialId/ },
    { op: 'account delete', method: 'POST', path: '/account/delete', body: {}, field: /^body\.signature/ },
    { op: 'account delete', method: 'POST', path: '/account/delete', body: { signature: 'AAAA', id_token: 'a.b.c' }, field: /^body\.signature/ },
    { op: 'account_export', method: 'GET', path: '/account/export', query: { section: 'wallet' }, field: /^query\.section/ },
    { op: 'account_export', method: 'GET', path: '/account/export', query: { cursor: 'bm90LWpzb24' }, field: /^query\.section/ },
    { op: 'account_export', method: 'GET', path: '/account/export', query: { section: 'ledger', cursor: 'bm90LWpzb24' }, field: /^query\.cursor/ },
    { op: 'player_deletions', method: 'GET', path: '/merchant/players/deletions', query: { since: '2026-01-01' }, field: /^query\.since/ },
    { op: 'player_deletions', method: 'GET', path: '/merchant/players/deletions', query: { cursor: 'not a cursor' }, field: /^query\.cursor/ },
    {
      op: 'project create',
      method: 'POST',
      path: '/merchant/projects',
      body: { project_name: 'p1', receive_address: '0x1', coin_type: '0x2::sui::SUI', precison: 9 },
      field: /^body\.receive_address/,
    },
    { op: 'project update', method: 'POST', path: '/merchant/projects/update', body: { project_name: 'p1', status: 5 }, field: /^body\.status/ },
    // An update that changes nothing is 400 naming the body (it was a 500).
    {
      op: 'project update',
      method: 'POST',
      path: '/merchant/projects/update',
      body: { project_name: 'p1' },
      field: /^body: nothing to change: give at least one of description, receive_address, status$/,
    },
    {
      op: 'level save',
      method: 'POST',
      path: '/merchant/projects/levels',
      body: { project_name: 'p1', level: 1, amount: 1.5, tickets: 1 },
      field: /^body\.amount/,
    },
    { op: 'user/project/level', method: 'GET', path: '/account/user/project/level', query: {}, field: /^query\.project/ },
    {
      op: 'rechargeOrder',
      method: 'POST',
      path: '/account/user/rechargeOrder',
      body: { userId: randomUUID(), project: 'p1', priceId: 0, prevId: -1, level: 1, amount: 1 },
      field: /^body\.priceId/,
    },
    { op: 'getDepositaddress', method: 'GET', path: '/account/user/getDepositaddress', query: { project: 'bad name!' }, field: /^query\.project/ },
    {
      op: 'user/orderComplete',
      method: 'POST',
      path: '/account/user/orderComplete',
      body: { orderId: 1, transactionId: 'not-a-digest' },
      field: /^body\.transactionId/,
    },
    { op: 'user/deposit', method: 'GET', path: '/account/user/deposit', query: { pageSize: '0' }, field: /^query\.pageSize/ },
    { op: 'game/pay/coins', method: 'GET', path: '/account/game/pay/coins', query: { page: '-1' }, field: /^query\.page/ },
    { op: 'game/tickets', method: 'GET', path: '/account/game/tickets', query: { projectName: 'p1' }, field: /^query\.level/ },
    {
      op: 'minus_tickets',
      method: 'POST',
      path: '/account/game/minus_tickets',
      body: { userId: randomUUID(), projectName: 'p1', level: 1, amount: 0 },
      field: /^body\.amount/,
    },
    { op: 'remainBalance', method: 'GET', path: '/account/game/remainBalance', query: { projectName: 'bad name!' }, field: /^query\.projectName/ },
    { op: 'vendor_pay_query', method: 'GET', path: '/wallet/vendor/pay', query: {}, field: /^query\.billNo/ },
    {
      op: 'vendor_reward',
      method: 'POST',
      path: '/wallet/vendor/reward',
      body: { billNo: 'R-1', userId: randomUUID(), projectName: 'p', level: 1, amount: 0 },
      field: /^body\.amount/,
    },
    { op: 'vendor/signature', method: 'GET', path: '/wallet/vendor/signature', query: { billNo: 'R-1' }, field: /^query\.billNo/ },
    { op: 'goods_create', method: 'POST', path: '/merchant/goods', body: { name: 'x', projectName: 'p', level: 1, price: 0 }, field: /^body\.price/ },
    { op: 'goods_list', method: 'GET', path: '/merchant/goods', query: { pageSize: '101' }, field: /^query\.pageSize/ },
    {
      op: 'createOrder',
      method: 'POST',
      path: '/account/vendor/order',
      body: { userId: randomUUID(), goodsId: 1, quantity: 0, projectName: 'p1' },
      field: /^body\.quantity/,
    },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/abc',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1', outerOrderId: 'o-1' },
      field: /^path\.goodsId/,
    },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/1',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1' },
      field: /^body\.outerOrderId/,
    },
    { op: 'traceKey', method: 'GET', path: '/account/vendor/traceKey', query: {}, field: /^query\.key/ },
    { op: 'customGoods_query', method: 'GET', path: '/account/vendor/goods/query', query: {}, field: /^query\.outerOrderId/ },
    {
      op: 'addWin',
      method: 'POST',
      path: '/merchant/games/addWin',
      body: { game_code: 'g1', game_player_id: 'p', game_player_name: '', kills: -1, wins: 1 },
      field: /^body\.kills/,
    },
    {
      op: 'addWin',
      method: 'POST',
      path: '/merchant/games/addWin',
      body: { game_code: 'g1', game_player_id: 'p', game_player_name: '', kills: 0, wins: 0 },
      field: /^body\.kills/,
    },
    { op: 'gameRank', method: 'GET', path: '/merchant/games/rank', query: {}, field: /^query\.game_code/ },
    { op: 'gameRank', method: 'GET', path: '/merchant/games/rank', query: { game_code: 'g1', limit: '101' }, field: /^query\.limit/ },
    {
      op: 'rank_around',
      method: 'GET',
      path: '/merchant/games/rank/around',
      query: { game_code: 'g1', board: 'kills', season_type: '1', game_player_id: 'p', around: '26' },
      field: /^query\.around/,
    },
    {
      op: 'rank_around',
      method: 'GET',
      path: '/merchant/games/rank/around',
      query: { game_code: 'g1', board: 'deaths', season_type: '1', game_player_id: 'p' },
      field: /^query\.board/,
    },
    { op: 'submitgamescore', method: 'POST', path: '/chain/game/score', body: { game_code: 'g1', result_id: 'r1', scores: [] }, field: /^body\.scores/ },
    { op: 'board shards set', method: 'POST', path: '/merchant/games/boards', body: { game_code: 'g1', shards: 17 }, field: /^body\.shards/ },
    { op: 'board shards get', method: 'GET', path: '/merchant/games/boards', query: {}, field: /^query\.game_code/ },
    // Rewards: reward table, history, claims.
    {
      op: 'reward table set',
      method: 'POST',
      path: '/merchant/games/rewards',
      body: {
        game_code: 'g1',
        rewards: [
          { rank: 1, amount: 1 },
          { rank: 1, amount: 2 },
        ],
      },
      field: /^body\.rewards/,
    },
    {
      op: 'reward table set',
      method: 'POST',
      path: '/merchant/games/rewards',
      body: { game_code: 'g1', rewards: [{ rank: 100, amount: 1 }] },
      field: /^body\.rewards\.0\.rank/,
    },
    { op: 'reward table get', method: 'GET', path: '/merchant/games/rewards', query: {}, field: /^query\.game_code/ },
    {
      op: 'history rank',
      method: 'GET',
      path: '/merchant/games/history/rank',
      query: { game_code: 'g1', season_type: '1', season_range: '2026-03-03-03-09' },
      field: /^query\.season_range/,
      code: 'season.range_invalid',
    },
    {
      op: 'history rank',
      method: 'GET',
      path: '/merchant/games/history/rank',
      query: { game_code: 'g1', season_type: '3', season_range: '2026-03-02-03-08' },
      field: /^query\.season_type/,
    },
    {
      op: 'history test',
      method: 'POST',
      path: '/merchant/games/history/test',
      body: { game_code: 'g1', season_type: 2, season_range: '2026-03-02-03-08' },
      field: /^body\.season_range/,
      code: 'season.range_invalid',
    },
    { op: 'sign_code', method: 'POST', path: '/merchant/sign/code', body: { id: 0 }, field: /^body\.id/ },
    { op: 'get_sign', method: 'GET', path: '/merchant/sign', query: { id: 'abc' }, field: /^query\.id/ },
    { op: 'rewrad_history', method: 'GET', path: '/chain/reward/history', query: { pageSize: '0' }, field: /^query\.pageSize/ },
    { op: 'revoke_tokens', method: 'POST', path: '/merchant/tokens/revoke', body: { tokens: 'all' }, field: /^body\.tokens/ },
    {
      op: 'admin_revoke_tokens',
      method: 'POST',
      path: '/merchant/admin/tokens/revoke',
      body: { account_id: 'not an id!', tokens: 'server' },
      field: /^body\.account_id/,
    },
    { op: 'stranded_list', method: 'GET', path: '/merchant/payments/stranded', query: { project: 'p1', status: '7' }, field: /^query\.status/ },
    { op: 'stage_overview', method: 'GET', path: '/merchant/admin/overview', query: { days: '32' }, field: /^query\.days/ },
    {
      op: 'stranded_credit',
      method: 'POST',
      path: '/merchant/payments/stranded/credit',
      body: { project_name: 'p1', tx_digest: 'not-a-digest', event_seq: '0' },
      field: /^body\.tx_digest/,
    },
    {
      op: 'stranded_refund',
      method: 'POST',
      path: '/merchant/payments/stranded/refund',
      body: { project_name: 'p1', tx_digest: '11111111111111111111111111111111', event_seq: 'x', refund_digest: '11111111111111111111111111111111' },
      field: /^body\.event_seq/,
    },
    {
      op: 'store client register',
      method: 'POST',
      path: '/merchant/admin/store/clients',
      body: { region: 'default', type: 'public', name: 'app', redirect_uris: ['https://app.example/cb#x'], scopes: ['profile'] },
      field: /^body\.redirect_uris\.0/,
    },
    { op: 'store client list', method: 'GET', path: '/merchant/admin/store/clients', query: { region: 'default', limit: '01' }, field: /^query\.limit/ },
    // Integer query and path parameters are an optional '-' and decimal digits, no leading zeros, in range.
    ...['', '0x10', '1e1', '+1', ' 1', '1 ', '01', '-0', '1.0', '1_0', '١'].map((page) => ({
      op: 'gamelist',
      method: 'GET',
      path: '/merchant/games/list',
      query: { page },
      field: /^query\.page: expected an integer from 0 to 10000 in decimal digits/,
    })),
    { op: 'gamelist', method: 'GET', path: '/merchant/games/list', query: { pageSize: '101' }, field: /^query\.pageSize: expected an integer from 1 to 100$/ },
    // Pages past 10,000 (a list reads (page + 1) * pageSize entries; a page of 2^53 was a 503 from DynamoDB's read limit).
    { op: 'gamelist', method: 'GET', path: '/merchant/games/list', query: { page: '10001' }, field: /^query\.page: expected an integer from 0 to 10000$/ },
    {
      op: 'gamelist',
      method: 'GET',
      path: '/merchant/games/list',
      query: { pageSize: '00' },
      field: /^query\.pageSize: expected an integer from 1 to 100 in decimal digits/,
    },
    { op: 'merchantStatus', method: 'GET', path: '/merchant/status', query: { merchant_id: '' }, field: /^query\.merchant_id/ },
    { op: 'merchantStatus', method: 'GET', path: '/merchant/status', query: { merchant_id: '0x10' }, field: /^query\.merchant_id/ },
    { op: 'get_sign', method: 'GET', path: '/merchant/sign', query: { id: '1e1' }, field: /^query\.id/ },
    { op: 'get_sign', method: 'GET', path: '/merchant/sign', query: { id: '9007199254740992' }, field: /^query\.id: expected an integer of at least 1$/ },
    {
      op: 'get_sign',
      method: 'GET',
      path: '/merchant/sign',
      query: { id: '99999999999999999999999' },
      field: /^query\.id: expected an integer of at least 1$/,
    },
    { op: 'get_sign', method: 'GET', path: '/merchant/sign', query: { id: '0' }, field: /^query\.id: expected an integer of at least 1$/ },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/0x10',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1', outerOrderId: 'o-1' },
      field: /^path\.goodsId/,
    },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/+1',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1', outerOrderId: 'o-1' },
      field: /^path\.goodsId/,
    },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/%201',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1', outerOrderId: 'o-1' },
      field: /^path\.goodsId/,
    },
    {
      op: 'customGoods',
      method: 'POST',
      path: '/account/vendor/goods/01',
      body: { userId: randomUUID(), quantity: 1, projectName: 'p1', outerOrderId: 'o-1' },
      field: /^path\.goodsId/,
    },
    { op: 'game/tickets', method: 'GET', path: '/account/game/tickets', query: { projectName: 'p1', level: '1e1' }, field: /^query\.level/ },
    { op: 'game/tickets', method: 'GET', path: '/account/game/tickets', query: { projectName: 'p1', level: '' }, field: /^query\.level/ },
    { op: 'getDepositaddress', method: 'GET', path: '/account/user/getDepositaddress', query: { project: 'p1', orderId: '+1' }, field: /^query\.orderId/ },
    {
      op: 'history rank',
      method: 'GET',
      path: '/merchant/games/history/rank',
      query: { game_code: 'g1', season_type: ' 1', season_range: '2026-03-02-03-08' },
      field: /^query\.season_type/,
    },
    { op: 'gameRank', method: 'GET', path: '/merchant/games/rank', query: { game_code: 'g1', limit: '01' }, field: /^query\.limit/ },
    { op: 'stranded_list', method: 'GET', path: '/merchant/payments/stranded', query: { project: 'p1', status: '0x1' }, field: /^query\.status/ },
    { op: 'rewrad_history', method: 'GET', path: '/chain/reward/history', query: { page: '1e1' }, field: /^query\.page/ },
    { op: 'user/deposit', method: 'GET', path: '/account/user/deposit', query: { page: '-1' }, field: /^query\.page/ },
    { op: 'server_token_issue', method: 'POST', path: '/merchant/tokens', body: { name: '   ' }, field: /^body\.name/ },
    { op: 'server_token_list', method: 'GET', path: '/merchant/tokens', query: { cursor: 'not a cursor' }, field: /^query\.cursor/ },
    { op: 'server_token_revoke', method: 'POST', path: '/merchant/tokens/server/revoke', body: { id: 'short' }, field: /^body\.id/ },
    {
      op: 'change_password',
      method: 'POST',
      path: '/merchant/account/password',
      body: { current_password: 'x', new_password: 'short' },
      field: /^body\.new_password/,
    },
    { op: 'player_view', method: 'GET', path: '/merchant/players/view', query: { user_id: 'not-a-uuid' }, field: /^query\.user_id/ },
    {
      op: 'player_tickets_grant',
      method: 'POST',
      path: '/merchant/players/tickets',
      body: { userId: randomUUID(), projectName: 'p1', level: 1, amount: 0, reason: 'r' },
      field: /^body\.amount/,
    },
    {
      op: 'league set',
      method: 'POST',
      path: '/merchant/games/league',
      body: { game_code: 'g1', cohort_size: 10, tiers: [{ name: 'Only', promote: 1 }] },
      field: /^body\.tiers\.0\.promote/,
    },
    { op: 'league get', method: 'GET', path: '/merchant/games/league', query: { game_code: 'not a code' }, field: /^query\.game_code/ },
    {
      op: 'league standing',
      method: 'GET',
      path: '/merchant/games/league/standing',
      query: { game_code: 'g1', game_player_id: '' },
      field: /^query\.game_player_id/,
    },
    { op: 'claim sponsor', method: 'POST', path: '/merchant/sign/sponsor', body: { id: 1, transaction_kind: 'not base64!' }, field: /^body\.transaction_kind/ },
    {
      op: 'sponsorship set',
      method: 'POST',
      path: '/merchant/games/sponsorship',
      body: { game_code: 'g1', target: '0x2::verifier' },
      field: /^body\.target/,
    },
    { op: 'sponsorship get', method: 'GET', path: '/merchant/games/sponsorship', query: { game_code: 'not a code' }, field: /^query\.game_code/ },
    { op: 'sponsored day', method: 'GET', path: '/merchant/admin/sponsorship', query: { day: '29-11-2026' }, field: /^query\.day/ },
  ];

  it('covers every operation that takes input', () => {
    const withInput = allOps.filter((op) => op.body || op.query || op.params);
    expect(new Set(cases.map((c) => c.op))).toEqual(new Set(withInput.map((op) => op.name)));
  });

  it.each(cases.map((c) => [`${c.op} ${c.path} ${JSON.stringify(c.body ?? c.query)}`, c] as const))('%s', async (_label, c) => {
    const admin = await merchantWithToken(deps);
    const op = allOps.find((o) => o.name === c.op)!;
    // A valid token of the kind the operation takes, so that only the input is wrong.
    const kind = kindsOf(op)[0] ?? 'merchant';
    const token = (
      await deps.tokens.issue(kind, kind === 'merchant' ? admin.accountId : randomUUID(), { role: 'admin', email: admin.email, merchant_id: admin.merchant.id })
    ).token;
    const before = await itemCount();
    const res = await call(app, c.method, `${base}${c.path}`, { token, body: c.body, query: c.query });
    expect(res.status).toBe(400);
    const error = c.code ?? 'input.invalid';
    const envelope = c.path.startsWith('/merchant')
      ? { code: 400, message: expect.stringMatching(c.field), data: null, error }
      : { statusCode: 400, message: expect.stringMatching(c.field), error };
    expect(res.body).toEqual(envelope);
    expect(await itemCount()).toBe(before);
  });
});

describe('unknown routes', () => {
  it('answer 404 JSON in the envelope of their path', async () => {
    const merchantPath = await call(app, 'GET', `${base}/merchant/nope`);
    expect(merchantPath.status).toBe(404);
    expect(merchantPath.body).toEqual({ code: 404, message: expect.any(String), data: null, error: 'route.not_found' });
    const accountPath = await call(app, 'POST', `${base}/account/nope`);
    expect(accountPath.body).toEqual({ statusCode: 404, message: expect.any(String), error: 'route.not_found' });
    const heroPath = await call(app, 'GET', '/hero-testing/nope');
    expect(heroPath.body).toEqual({ message: expect.any(String), statusCode: 404, error: 'route.not_found' });
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { createAllApps } from '../functions/apps.js';
import { createInnerApp } from '../functions/inner.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import {
  gameList,
  gameRecordNewMerchant,
  gameUpdated,
  merchantEnvelope,
  mismatches,
  pagedEnvelope,
  tokenPair,
  vendorPaymentEvent,
} from './contract/contract-shapes.js';
import { giveTickets, playerWithTokens, projectWithLevel, randomDigest } from './support/payments.js';
import { storePaymentEvent } from '../core/payments/chain-payments.js';

/** The compatibility contract's operations (docs/api.md): status code, envelope, every field's name and type. */
let deps: TestDeps;
let app: ReturnType<typeof createInnerApp>;
const base = '/v2-testing';
let owner: Awaited<ReturnType<typeof merchantWithToken>>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createInnerApp(deps);
  owner = await merchantWithToken(deps);
  const withDc = {
    code: 'contract-dc',
    game_name: 'With Discord',
    describe: 'd',
    logo: 'merchant/1/l.png',
    coverImg: 'merchant/1/c.png',
    dev: 'dev',
    genre: 'genre',
    platform: ['ios', 'android'],
    tags: ['t'],
    images: ['merchant/1/i.png'],
    link: { apple: 'https://apps.example.com/a', android: 'https://play.example.com/a' },
    game_url: 'https://example.com/g',
    releaseDate: '2026-01-01',
    dcNum: '12000',
    dclink: 'https://discord.example.com/x',
  };
  await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: withDc });
  await call(app, 'POST', `${base}/merchant/games/save`, {
    token: owner.token,
    body: { code: 'contract-plain', game_name: 'Plain', link: { web: 'https://example.com' } },
  });
});

describe('compatibility contract', () => {
  it('create_merchant: POST /merchant/create, 200, JSON object', async () => {
    const fresh = await accountWithToken(deps);
    const body = {
      merchant_name: 'n',
      logo_url: 'https://example.com/l.png',
      description: 'd',
      back_ground_image: ['b'],
      social_links: [{ name: 'x', url: 'https://x.com' }],
    };
    const res = await call(app, 'POST', `${base}/merchant/create`, { token: fresh.token, body });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, merchantEnvelope('object'))).toEqual([]);
    expect(res.body.code).toBe(200);
  });

  it('update_single_game: 201 {response, status, message, name}', async () => {
    const res = await call(app, 'POST', `${base}/merchant/games/update`, {
      token: owner.token,
      body: {
        describe: 'x',
        logo: 'a.png',
        code: 'contract-plain',
        coverImg: 'b.png',
        game_name: 'g',
        dev: 'd',
        genre: 'g',
        platform: ['web'],
        tags: [],
        images: [],
        link: { web: 'https://e.com' },
      },
    });
    expect(res.status).toBe(201);
    expect(mismatches(res.body, gameUpdated)).toEqual([]);
  });

  it('query_new_merchant: 200 {code, message, data: map code -> Game record}', async () => {
    const res = await call(app, 'GET', `${base}/merchant/merchant/page`);
    expect(res.status).toBe(200);
    expect(mismatches(res.body, merchantEnvelope('object'))).toEqual([]);
    expect(Object.keys(res.body.data).sort()).toEqual(['contract-dc', 'contract-plain']);
    for (const [code, game] of Object.entries(res.body.data)) {
      expect(mismatches(game, gameRecordNewMerchant)).toEqual([]);
      expect((game as { code: string }).code).toBe(code);
    }
    expect(res.body.data['contract-dc']).toMatchObject({ dcNum: '12000', dclink: 'https://discord.example.com/x' });
    expect(res.body.data['contract-plain']).not.toHaveProperty('dcNum');
  });

  it('gamelist: {code, message, data: {total: string, games}}; zero-based pages', async () => {
    const res = await call(app, 'GET', `${base}/merchant/games/list`, { token: owner.token, query: { pageSize: 10, page: 0 } });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, gameList)).toEqual([]);
    expect(res.body.data.games.length).toBe(2);
  });

  it('gamelist 401: resembles the success body (as the contract fixes it): {code: 401, message, data: {total: "0", games: []}}', async () => {
    const expired = await deps.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email });
    for (const token of [undefined, 'not-a-jwt', `${expired.token}x`]) {
      const res = await call(app, 'GET', `${base}/merchant/games/list`, { token, query: { pageSize: 10, page: 0 } });
      expect(res.status).toBe(401);
      expect(mismatches(res.body, gameList)).toEqual([]);
      expect(res.body).toEqual({
        code: 401,
        message: expect.any(String),
        data: { total: '0', games: [] },
        error: token === undefined ? 'auth.token_missing' : 'auth.token_invalid',
      });
    }
    // Only gamelist's 401 is so: its 400 and other operations' 401 keep data: null.
    const bad = await call(app, 'GET', `${base}/merchant/games/list`, { token: owner.token, query: { page: '0x1' } });
    expect(bad.body).toEqual({ code: 400, message: expect.stringMatching(/^query\.page/), data: null, error: 'input.invalid' });
    const other = await call(app, 'GET', `${base}/merchant/games`, { query: { pageSize: 10, page: 0 } });
    expect(other.body).toEqual({ code: 401, message: expect.any(String), data: null, error: 'auth.token_missing' });
  });

  it('chainwallet_register: 200 token pair {platformToken: {accessToken}, gameToken: {accessToken}}', async () => {
    const all = createAllApps(deps);
    const keypair = Ed25519Keypair.generate();
    const address = keypair.toSuiAddress();
    const nonce = await call(all, 'GET', `${base}/account/nonce`, { query: { address } });
    const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
    const res = await call(all, 'POST', `${base}/account/register/chainwallet`, { body: { uuid: randomUUID(), address, signature } });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, tokenPair)).toEqual([]);
  });

  it('vendor_pay_query: 200 {data: Vendor payment event record, statusCode, message, totalPage}', async () => {
    const all = createAllApps(deps);
    const shop = await projectWithLevel(deps);
    const player = await playerWithTokens(deps);
    const order = await call(all, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    });
    const txDigest = randomDigest();
    await storePaymentEvent(deps, {
      type: '0xfeed::pay::PaymentEvent',
      txDigest,
      eventSeq: '0',
      sender: player.address,
      parsedJson: { bill_no: order.body.bill_no, amount: '1500000000', from: player.address, to: shop.receiveAddress },
    });
    const res = await call(all, 'GET', `${base}/wallet/vendor/pay`, { token: player.platform, query: { billNo: order.body.bill_no } });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, { ...pagedEnvelope, data: vendorPaymentEvent })).toEqual([]);
    expect(res.body.data.cursor).toEqual({ eventSeq: '0', txDigest });
  });

  it('minus_tickets: 201 {data: string, statusCode, message, totalPage}', async () => {
    const all = createAllApps(deps);
    const shop = await projectWithLevel(deps);
    const player = await playerWithTokens(deps);
    await giveTickets(deps, player.uid, shop.project.project_name, 1, 5);
    const res = await call(all, 'POST', `${base}/account/game/minus_tickets`, {
      token: shop.server,
      body: { userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 2 },
    });
    expect(res.status).toBe(201);
    expect(mismatches(res.body, { ...pagedEnvelope, data: 'string' })).toEqual([]);
  });

  it('the shape checker itself catches wrong types and missing fields', () => {
    expect(mismatches({ code: '200', message: 'm' }, merchantEnvelope('object'))).toEqual(['$.code: expected integer, got string "200"', '$.data: missing']);
  });
});

import type { Base, GroupName } from '../core/http/operation.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { createAccount } from '../core/merchants/accounts.js';
import type { CallOptions } from '../test/support/http.js';
import { accountWithToken, gamePayload, merchantWithGames, merchantWithToken, newCode, type BenchDeps } from './fixtures.js';

/**
 * The operations measured by the DynamoDB request count (bench/requests.ts), one entry each: which route
 * table operation, how to put it in its steady state, the request, and the fewest DynamoDB requests its
 * access pattern needs (with why). Method and path come from the route table. An operation of the route
 * table with no entry here is listed as unbenched.
 */
export interface OperationBench {
  group: GroupName;
  /** The operation's key in its group's route table. */
  op: string;
  base?: Base;
  /** Shown instead of the operation's name when one operation has several entries. */
  label?: string;
  minimum: number;
  reason: string;
  /** Makes the fixtures and returns the request (token, query, body); run before counting starts. */
  prepare: (deps: BenchDeps) => Promise<CallOptions>;
}

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const metaOps = (base: Base): OperationBench[] =>
  (['health', 'jwks', 'openapi', 'docs'] as const).map((op) => ({
    group: 'meta',
    op,
    base,
    label: base === 'main' ? op : `${op} (hero base)`,
    minimum: 0,
    reason: 'answered from memory',
    prepare: async () => ({}),
  }));

export const operations: OperationBench[] = [
  {
    group: 'inner',
    op: 'create_merchant',
    minimum: 2,
    reason: 'merchant id counter ADD + conditional Put',
    prepare: async (deps) => {
      const { token } = await accountWithToken(deps);
      return { token, body: { merchant_name: 'Bench Studio' } };
    },
  },
  {
    group: 'inner',
    op: 'get_token',
    minimum: 1,
    reason: 'merchant GetItem (status, id)',
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'get_merchant_info',
    minimum: 1,
    reason: 'merchant GetItem',
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'save_file',
    minimum: 1,
    reason: 'merchant GetItem for its id (the S3 put is not DynamoDB)',
    prepare: async (deps) => {
      const body = new FormData();
      body.set('file', new File([png], 'logo.png', { type: 'image/png' }));
      return { token: (await merchantWithToken(deps)).token, body };
    },
  },
  {
    group: 'inner',
    op: 'savemerchantgame',
    minimum: 3,
    reason: 'merchant GetItem (id, status) + game id counter + one transaction',
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token, body: gamePayload(newCode()) }),
  },
  {
    group: 'inner',
    op: 'query_merchant_game',
    minimum: 1,
    reason: "Query of the merchant's games index",
    prepare: async (deps) => ({ token: (await merchantWithGames(deps, 2)).token }),
  },
  {
    group: 'inner',
    op: 'gamelist',
    minimum: 3,
    reason: 'page Query + total GetItem (in parallel) + BatchGet of merchants',
    prepare: async (deps) => {
      await merchantWithGames(deps, 2);
      return { token: (await merchantWithGames(deps, 1)).token, query: { page: 0, pageSize: 20 } };
    },
  },
  {
    group: 'inner',
    op: 'merchantStatus',
    label: 'merchantStatus GET own',
    minimum: 1,
    reason: 'merchant GetItem',
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'merchantStatus',
    label: 'merchantStatus GET by merchant_id',
    minimum: 1,
    reason: 'merchant-by-id Query',
    prepare: async (deps) => {
      const { merchant } = await merchantWithToken(deps);
      return { token: (await accountWithToken(deps, 'admin')).token, query: { merchant_id: merchant.id } };
    },
  },
  {
    group: 'inner',
    op: 'merchantStatus_set',
    label: 'merchantStatus POST',
    minimum: 3,
    reason: "merchant-by-id Query + its games Query + one transaction",
    prepare: async (deps) => {
      const { merchant } = await merchantWithGames(deps, 2, MerchantStatus.pending);
      return { token: (await accountWithToken(deps, 'admin')).token, body: { merchant_id: merchant.id, status: MerchantStatus.active } };
    },
  },
  {
    group: 'inner',
    op: 'game_detail',
    minimum: 1,
    reason: 'game GetItem by code',
    prepare: async (deps) => ({ query: { code: (await merchantWithGames(deps, 1)).games[0]!.code } }),
  },
  {
    group: 'inner',
    op: 'query_new_merchant',
    minimum: 1,
    reason: 'Query of the live games index',
    prepare: async (deps) => {
      await merchantWithGames(deps, 2);
      return {};
    },
  },
  {
    group: 'inner',
    op: 'update_single_game',
    minimum: 1,
    reason: 'one conditional UpdateItem (owner checked in the condition)',
    prepare: async (deps) => {
      const owner = await merchantWithGames(deps, 1);
      return { token: owner.token, body: { code: owner.games[0]!.code, describe: 'Updated by the bench' } };
    },
  },
  {
    group: 'withoutkey',
    op: 'merchant_login',
    minimum: 1,
    reason: 'account GetItem (no prior failures to clear)',
    prepare: async (deps) => {
      const email = `login-${newCode()}@example.com`;
      await createAccount(deps, { email, password: 'correct horse battery', role: 'merchant' });
      return { body: { email, password: 'correct horse battery' } };
    },
  },
  ...metaOps('main'),
  ...metaOps('hero'),
];

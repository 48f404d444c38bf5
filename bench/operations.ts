import type { Base, GroupName } from '../core/http/operation.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { createAccount } from '../core/merchants/accounts.js';
import type { CallOptions } from '../test/support/http.js';
import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bindSocial } from '../core/identity/social.js';
import { issueNonce, registerWallet } from '../core/identity/wallet.js';
import { loginZk, zkInfo } from '../core/identity/zklogin.js';
import { writeNotices } from '../core/privacy/notices.js';
import { deletionChallenge } from '../core/privacy/proof.js';
import { accountWithToken, gamePayload, indexedPurchase, LEVEL_PRICE, merchantWithGames, merchantWithToken, newCode, type BenchDeps } from './fixtures.js';
import { paymentOperations } from './payment-operations.js';
import { rankingOperations } from './ranking-operations.js';
import { vendorOperations } from './vendor-operations.js';
import { storeOperations } from './store-operations.js';
import { heroOperations } from './hero-operations.js';
import { partnerStoreOperations } from './partner-store-operations.js';
import { overviewOperations } from './overview-operations.js';
import { storeClientOperations } from './store-client-operations.js';
import { consoleOperations } from './console-operations.js';

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
  /** Makes the fixtures and returns the request (token, query, body, path params); run before counting starts. */
  prepare: (deps: BenchDeps) => Promise<BenchRequest>;
}

export interface BenchRequest extends CallOptions {
  /** Values of the path's `:name` segments. */
  params?: Record<string, string | number>;
}

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const metaOps = (base: Base): OperationBench[] => [
  ...(['health', 'jwks', 'openapi', 'docs'] as const).map(
    (op): OperationBench => ({
      group: 'meta',
      op,
      base,
      label: base === 'main' ? op : `${op} (hero base)`,
      minimum: 0,
      reason: 'answered from memory',
      prepare: async () => ({}),
    }),
  ),
  {
    group: 'meta',
    op: 'docs_asset',
    base,
    label: base === 'main' ? 'docs_asset' : 'docs_asset (hero base)',
    minimum: 0,
    reason: 'a file of the installed package, read once per process (no table)',
    prepare: async () => ({ params: { file: 'reference.js' } }),
  },
];

/** A wallet's signed sign-in request for user `uuid` (the nonce is issued directly, outside the count). */
async function signedRegistration(deps: BenchDeps, keypair: Ed25519Keypair, uuid: string) {
  const address = keypair.toSuiAddress();
  const { message } = await issueNonce(deps, address);
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(message));
  return { uuid, address, signature };
}

/** A player with a wallet account and a platform token. */
async function player(deps: BenchDeps) {
  const keypair = Ed25519Keypair.generate();
  const uuid = randomUUID();
  await registerWallet(deps, await signedRegistration(deps, keypair, uuid));
  const { token } = await deps.tokens.issue('platform', uuid);
  return { keypair, uuid, token };
}

const idTokenFor = (deps: BenchDeps, sub: string) => deps.issuer.sign({ sub, aud: 'bench-client' });

/**
 * Operations the request count leaves out, each with why: they call a service outside the project that the
 * bench does not stand in for. Part 2 prints them beside its table.
 */
export const notBenched: Record<string, string> = {
  'inner.stranded_refund': 'checks the refund transaction on a chain node, which the bench runs for hero objects only',
  'third-pay.app_trigger-test-notification':
    "asks Apple's App Store Server API to send a test notification (no table request), which the bench does not stand in for",
};

/** Token revocation and stranded payments: console operations. */
export const accessOperations: OperationBench[] = [
  {
    group: 'inner',
    op: 'revoke_tokens',
    minimum: 1,
    reason: "the revocation item's conditional UpdateItem (the console's account state is remembered per process)",
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token, body: { tokens: 'server' } }),
  },
  {
    group: 'inner',
    op: 'admin_revoke_tokens',
    minimum: 1,
    reason: "the revocation item's conditional UpdateItem",
    prepare: async (deps) => {
      const admin = await accountWithToken(deps, 'admin');
      const other = await merchantWithToken(deps);
      return { token: admin.token, body: { account_id: other.accountId, tokens: 'console' } };
    },
  },
  {
    group: 'inner',
    op: 'stranded_list',
    minimum: 3,
    reason: "project GetItem (its receiving address) + two Queries in parallel (payments naming the project's orders, payments to its address naming none)",
    prepare: async (deps) => {
      const { shop } = await indexedPurchase(deps, LEVEL_PRICE + 1);
      return { token: shop.owner.token, query: { project: shop.project.project_name } };
    },
  },
  {
    group: 'inner',
    op: 'stranded_credit',
    minimum: 6,
    reason:
      "the account state read fresh (it moves value) + project GetItem (its address) + the stranded payment's GetItem + its order's GetItem (user, level, tickets) + one transaction (stranded record credited on condition, order, balance, ledger) + the day's figures: a lone UpdateItem ADD on one of the day's 16 shard items, after the transaction (core/platform/day-stats.ts)",
    prepare: async (deps) => {
      const { shop, digest } = await indexedPurchase(deps, LEVEL_PRICE + 1);
      return { token: shop.owner.token, body: { project_name: shop.project.project_name, tx_digest: digest, event_seq: '0' } };
    },
  },
];

export const identityOperations: OperationBench[] = [
  {
    group: 'outer',
    op: 'getNonce',
    minimum: 1,
    reason: 'nonce PutItem (replaces the previous one)',
    prepare: async () => ({ query: { address: Ed25519Keypair.generate().toSuiAddress() } }),
  },
  {
    group: 'inner',
    op: 'chainwallet_register',
    label: 'chainwallet_register (new user)',
    minimum: 5,
    reason:
      "one BatchGet (nonce, user, address, the uuid's deletion mark) + whether the platform holds anything for the uuid (a Query of its partition ∥ a Query of its reward history: a known id needs its own token) + account id counter + one transaction (nonce consumed, the deletion mark still absent, account, address)",
    prepare: async (deps) => ({ body: await signedRegistration(deps, Ed25519Keypair.generate(), randomUUID()) }),
  },
  {
    group: 'inner',
    op: 'chainwallet_register',
    label: 'chainwallet_register (returning user)',
    minimum: 2,
    reason:
      "one BatchGet (nonce, user, address, the uuid's deletion mark) + one transaction (the nonce consumed conditionally, the deletion mark still absent)",
    prepare: async (deps) => {
      const { keypair, uuid } = await player(deps);
      return { body: await signedRegistration(deps, keypair, uuid) };
    },
  },
  {
    group: 'inner',
    op: 'chainwallet_token',
    minimum: 1,
    reason: 'game GetItem (the game must exist)',
    prepare: async (deps) => {
      const owner = await merchantWithGames(deps, 1);
      return { token: (await player(deps)).token, query: { game_code: owner.games[0]!.code } };
    },
  },
  {
    group: 'outer',
    op: 'login_zk',
    label: 'login_zk (returning user)',
    minimum: 2,
    reason: 'salt BatchGet (its named and hidden keys) + user-of-address GetItem (the address derives from the salt)',
    prepare: async (deps) => {
      const id_token = await idTokenFor(deps, `returning-${newCode()}`);
      await loginZk(deps, id_token);
      return { body: { id_token } };
    },
  },
  {
    group: 'outer',
    op: 'login_zk',
    label: 'login_zk (first sign-in)',
    minimum: 5,
    reason:
      'salt BatchGet (its named and hidden keys) + one transaction (the salt put, on condition neither key holds one) + user-of-address GetItem + account id counter + one transaction',
    prepare: async (deps) => ({ body: { id_token: await idTokenFor(deps, `first-${newCode()}`) } }),
  },
  {
    group: 'withoutkey',
    op: 'query_zk_info',
    minimum: 1,
    reason: 'salt BatchGet (its named and hidden keys; existing identity)',
    prepare: async (deps) => {
      const token = await idTokenFor(deps, `info-${newCode()}`);
      await zkInfo(deps, token);
      return { headers: { authorization: `Bearer ${token}` } };
    },
  },
  {
    group: 'withoutkey',
    op: 'bind_social',
    minimum: 2,
    reason:
      "whether the caller deleted their account (GetItem, fresh on a write) + one transaction (the social id claimed conditionally + the user's listing item)",
    prepare: async (deps) => ({ token: (await player(deps)).token, body: { id_token: await idTokenFor(deps, `social-${newCode()}`) } }),
  },
  {
    group: 'withoutkey',
    op: 'query_social_bind',
    minimum: 1,
    reason: "Query of the user's social listing items",
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'querybysocialid',
    minimum: 2,
    reason: 'binding GetItem, then the account GetItem (its key comes from the binding)',
    prepare: async (deps) => {
      const p = await player(deps);
      const socialId = `lookup-${newCode()}`;
      await bindSocial(deps, p.uuid, await idTokenFor(deps, socialId));
      const { token } = await deps.tokens.issue('server', randomUUID(), { merchant_id: 1 });
      return { token, query: { provider: 'bench', socialId } };
    },
  },
  {
    group: 'withoutkey',
    op: 'save_params',
    minimum: 2,
    reason: 'whether the caller deleted their account (GetItem, fresh on a write) + one PutItem of the whole map',
    prepare: async (deps) => ({ token: (await player(deps)).token, body: { ref: 'friend-42', utm_source: 'bench' } }),
  },
  {
    group: 'withoutkey',
    op: 'account_deletion_challenge',
    minimum: 3,
    reason: 'whether the caller deleted their account (GetItem, fresh on a write) + the account (BatchGetItem) + the message PutItem',
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'account_delete',
    minimum: 22,
    reason:
      "a player with nothing but an account: the deletion's record (GetItem) + the account and the message (2 BatchGetItem) + the start (TransactWriteItems) + a round: the lease (UpdateItem), the footprint (5 Query: partition, orders, rewards, gsi6, payer; 1 BatchGetItem of the wallet's items), what it learned kept (UpdateItem), 2 TransactWriteItems (the wallet's items; the partition), the footprint again (6) + the forfeits (Query) + the answer (UpdateItem). Each kind of item a player holds adds its reads and writes",
    prepare: async (deps) => {
      const { keypair, token } = await player(deps);
      const { message } = await deletionChallenge(deps, (await deps.tokens.verify(token, ['platform'])).sub);
      const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(message));
      return { token, body: { signature } };
    },
  },
  {
    group: 'withoutkey',
    op: 'account_export',
    minimum: 9,
    reason:
      "a player with nothing but an account: the partition but its ledger (2 Query, one each side of it) + each long section's first page (7 Query: the ledger, its goods and its reward entries, orders, the payer's payments, reward history, the gsi6 scores). A section with items adds the BatchGetItem of what they name (goods orders, rewards, scores)",
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'player_deletions',
    minimum: 1,
    reason: "one Query of the studio's notices, newest first (the console's account state is remembered per process)",
    prepare: async (deps) => {
      const owner = await merchantWithToken(deps);
      await writeNotices(deps, randomUUID(), new Date().toISOString(), [owner.accountId]);
      return { token: owner.token };
    },
  },
];

export const operations: OperationBench[] = [
  {
    group: 'inner',
    op: 'create_merchant',
    minimum: 3,
    reason: "the account's merchant GetItem (a second one is 409 before any write) + merchant id counter ADD + conditional Put",
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
    reason: "one BatchGet (the merchant: id, status; the code's game: a taken code is 409 before any write) + game id counter + one transaction",
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
    minimum: 4,
    reason: 'the account state read fresh (it moves value: suspension, revocation; one BatchGet) + merchant-by-id Query + its games Query + one transaction',
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
    minimum: 3,
    reason:
      "one BatchGet (account, the (email, source) throttle pair, the email's and the source's failure windows) + the attempt counted on its pair before the password is checked (parallel guesses buy no tries) + the success resetting the pair and making the source known",
    prepare: async (deps) => {
      const email = `login-${newCode()}@example.com`;
      await createAccount(deps, { email, password: 'correct horse battery', role: 'merchant' });
      return { body: { email, password: 'correct horse battery' } };
    },
  },
  ...metaOps('main'),
  ...metaOps('hero'),
  ...identityOperations,
  ...accessOperations,
  ...paymentOperations,
  ...vendorOperations,
  ...storeOperations,
  ...rankingOperations,
  ...heroOperations,
  ...partnerStoreOperations,
  ...overviewOperations,
  ...storeClientOperations,
  ...consoleOperations,
];

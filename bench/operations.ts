import type { Base } from '../core/http/operation.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { createAccount } from '../core/merchants/accounts.js';
import { issueServerToken } from '../core/access/server-tokens.js';
import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { bindSocial } from '../core/identity/social.js';
import { issueNonce, registerWallet } from '../core/identity/wallet.js';
import { loginZk, zkInfo } from '../core/identity/zklogin.js';
import { writeNotices } from '../core/privacy/notices.js';
import { deletionChallenge } from '../core/privacy/proof.js';
import { accountWithToken, gamePayload, indexedPurchase, LEVEL_PRICE, merchantWithGames, merchantWithToken, newCode, type BenchDeps } from './fixtures.js';
import { paymentOperations } from './payment-operations.js';
import { leagueOperations } from './league-operations.js';
import { sponsoredClaimOperation, sponsorshipOperations } from './sponsorship-operations.js';
import { rankingOperations } from './ranking-operations.js';
import { goodsOperations } from './goods-operations.js';
import { storeOperations } from './store-operations.js';
import { heroOperations } from './hero-operations.js';
import { partnerStoreOperations } from './partner-store-operations.js';
import { overviewOperations } from './overview-operations.js';
import { storeClientOperations } from './store-client-operations.js';
import { consoleOperations } from './console-operations.js';
import type { OperationBench } from './operation-bench.js';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

const metaOps = (base: Base): OperationBench[] => [
  ...(['home', 'health', 'jwks', 'openapi', 'docs'] as const).map(
    (op): OperationBench => ({
      group: 'meta',
      op,
      base,
      label: base === 'main' ? op : `${op} (${base} base)`,
      minimum: 0,
      reason: 'answered from memory',
      units: { write: 0, read: 0, why: 'no table request' },
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
    units: { write: 0, read: 0, why: 'no table request' },
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
  'partner-store.consent_script': "the consent page's script, a fixed text: no table request",
  'partner-store.consent_script-chengdu': "the consent page's script, a fixed text: no table request",
  'meta.console': "the console's page, read from the function's package: no table request",
  'meta.console_asset': "the console's files, read from the function's package: no table request",
};

/** Token revocation and stranded payments: console operations. */
export const accessOperations: OperationBench[] = [
  {
    group: 'inner',
    op: 'server_token_issue',
    minimum: 2,
    reason: "merchant GetItem (status, id) + the token's record PutItem, as get_token's",
    units: {
      write: 1,
      read: 1,
      why: "merchant GetItem, strongly consistent: a suspended merchant gets no token (1) + the token's record, under 1 KB, written before the token is answered (1)",
    },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token, body: { name: 'bench server' } }),
  },
  {
    group: 'inner',
    op: 'server_token_list',
    minimum: 2,
    reason: "one Query of the merchant's token records issued within a server token's lifetime ∥ the revocation item GetItem",
    units: {
      write: 0,
      read: 1.5,
      why: 'the Query, eventually consistent (0.5) + the revocation item, strongly consistent: a token revoked a moment ago shows as revoked (1)',
    },
    prepare: async (deps) => {
      const owner = await merchantWithToken(deps);
      for (const name of ['a', 'b', 'c']) await issueServerToken(deps, owner.claims, name);
      return { token: owner.token };
    },
  },
  {
    group: 'inner',
    op: 'server_token_revoke',
    minimum: 2,
    reason: "one BatchGet of the token's record and the revocation item + one UpdateItem of the revocation item on condition of the version read",
    units: {
      write: 1,
      read: 2,
      why: "the record and the revocation item, strongly consistent: the write is conditioned on the version read, and a token issued a moment ago is found (2) + the revocation item's UpdateItem, under 1 KB with a few ids (1)",
    },
    prepare: async (deps) => {
      const owner = await merchantWithToken(deps);
      const { id } = await issueServerToken(deps, owner.claims, 'bench server');
      return { token: owner.token, body: { id } };
    },
  },
  {
    group: 'inner',
    op: 'change_password',
    minimum: 4,
    reason:
      "merchant_login's check of the current password (one BatchGet of the account and the throttle's items, the attempt counted before the hash is compared, the success recorded) + one transaction: the new hash on condition of the one checked, and the account's console sessions revoked",
    units: {
      write: 6,
      read: 4,
      why: "merchant_login's: 4 items strongly consistent (a lockout holds at once) and the throttle pair's two UpdateItems (2) + the transaction: account and revocation item (2 × 2)",
    },
    prepare: async (deps) => ({
      token: (await merchantWithToken(deps)).token,
      body: { current_password: 'correct horse battery', new_password: 'a new correct horse' },
    }),
  },
  {
    group: 'inner',
    op: 'revoke_tokens',
    minimum: 1,
    reason: "the revocation item's conditional UpdateItem (the console's account state is remembered per process)",
    units: { write: 1, read: 0, why: "the revocation item's conditional UpdateItem, under 1 KB" },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token, body: { tokens: 'server' } }),
  },
  {
    group: 'inner',
    op: 'admin_revoke_tokens',
    minimum: 1,
    reason: "the revocation item's conditional UpdateItem",
    units: { write: 1, read: 0, why: "the revocation item's conditional UpdateItem, under 1 KB" },
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
    units: { write: 0, read: 1.5, why: 'project GetItem and two Queries, eventually consistent (0.5 each)' },
    prepare: async (deps) => {
      const { shop } = await indexedPurchase(deps, LEVEL_PRICE + 1);
      return { token: shop.owner.token, query: { project: shop.project.project_name } };
    },
  },
  {
    group: 'inner',
    op: 'stranded_credit',
    minimum: 3,
    reason:
      "the account state read fresh (it moves value) with the project (its address) and the stranded payment in one BatchGet + its order's GetItem (user, level, tickets) + one transaction (stranded record credited on condition, order, balance, ledger)",
    units: {
      write: 15,
      read: 3.5,
      why: "the account state read fresh (2) + project, payment and order reads, eventually consistent as the transaction's conditions decide (1.5); one transaction: the payment credited (2) and its entry (1), the order paid (2) and its four entries (4), balance (2), ledger (2), the gone-mark check (2)",
    },
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
    units: { write: 1, read: 0, why: 'nonce PutItem, under 1 KB' },
    prepare: async () => ({ query: { address: Ed25519Keypair.generate().toSuiAddress() } }),
  },
  {
    group: 'inner',
    op: 'chainwallet_register',
    label: 'chainwallet_register (new user)',
    minimum: 5,
    reason:
      "one BatchGet (nonce, user, address, the uuid's deletion mark) + whether the platform holds anything for the uuid (a Query of its partition ∥ a Query of its reward history: a known id needs its own token) + account id counter + one transaction (nonce consumed, the deletion mark still absent, account, address)",
    units: {
      write: 9,
      read: 3,
      why: "one BatchGet of 4 items and the partition and reward history Queries, eventually consistent (the transaction's conditions decide: 3); account id counter (1) + one transaction of 4 items: nonce deleted, deletion mark checked, account, address (8)",
    },
    prepare: async (deps) => ({ body: await signedRegistration(deps, Ed25519Keypair.generate(), randomUUID()) }),
  },
  {
    group: 'inner',
    op: 'chainwallet_register',
    label: 'chainwallet_register (returning user)',
    minimum: 2,
    reason:
      "one BatchGet (nonce, user, address, the uuid's deletion mark) + one transaction (the nonce consumed conditionally, the deletion mark still absent)",
    units: {
      write: 4,
      read: 2,
      why: "one BatchGet of 4 items, eventually consistent (the transaction's conditions decide: 2) + one transaction: the nonce deleted on condition, the deletion mark checked (4)",
    },
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
    units: { write: 0, read: 0.5, why: 'game GetItem, eventually consistent (it only has to exist)' },
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
    units: { write: 0, read: 1.5, why: 'salt BatchGet of 2 keys (1) + the user of the address, which never changes: eventually consistent (0.5)' },
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
    units: {
      write: 9,
      read: 1.5,
      why: 'salt BatchGet (1) + user-of-address GetItem, eventually consistent (0.5); one transaction: the salt put, its other key checked (4) + account id counter (1) + one transaction: account, address (4)',
    },
    prepare: async (deps) => ({ body: { id_token: await idTokenFor(deps, `first-${newCode()}`) } }),
  },
  {
    group: 'withoutkey',
    op: 'query_zk_info',
    minimum: 1,
    reason: 'salt BatchGet (its named and hidden keys; existing identity)',
    units: { write: 0, read: 1, why: 'salt BatchGet of 2 keys, eventually consistent' },
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
    units: { write: 4, read: 1, why: 'the gone mark read fresh (1) + one transaction of 2 items (4)' },
    prepare: async (deps) => ({ token: (await player(deps)).token, body: { id_token: await idTokenFor(deps, `social-${newCode()}`) } }),
  },
  {
    group: 'withoutkey',
    op: 'query_social_bind',
    minimum: 1,
    reason: "Query of the user's social listing items",
    units: { write: 0, read: 0.5, why: 'one Query of the listing items' },
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'querybysocialid',
    minimum: 2,
    reason: 'binding GetItem, then the account GetItem (its key comes from the binding)',
    units: { write: 0, read: 1, why: 'binding GetItem then account GetItem, both only shown: eventually consistent (0.5 each)' },
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
    units: { write: 1, read: 1, why: 'the gone mark read fresh (1) + one PutItem under 1 KB (1)' },
    prepare: async (deps) => ({ token: (await player(deps)).token, body: { ref: 'friend-42', utm_source: 'bench' } }),
  },
  {
    group: 'withoutkey',
    op: 'account_deletion_challenge',
    minimum: 2,
    reason: "whether the caller deleted their account (fresh on a write) with the account (the route's reads) in one BatchGet + the message PutItem",
    units: { write: 1, read: 1.5, why: 'the gone mark read fresh (1) + the account, eventually consistent (0.5) + the message PutItem (1)' },
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'account_delete',
    minimum: 22,
    reason:
      "a player with nothing but an account: the deletion's record with what it learned (Query) + the account and the message (2 BatchGetItem) + the start (TransactWriteItems) + a round: the lease (UpdateItem), the footprint (5 Query: partition, orders, rewards, gsi6, payer; 1 BatchGetItem of the wallet's items), what it learned kept beside the record (TransactWriteItems), 2 TransactWriteItems (the wallet's items; the partition), the footprint again (6) + the forfeits (Query) + the answer (UpdateItem). Each kind of item a player holds adds its reads and writes",
    units: {
      write: 22,
      read: 16,
      why: "as measured for a player with nothing but an account: every read strongly consistent where DynamoDB allows (an item written just before must not be missed; an index Query cannot be: 0.5), the start's and the sweep's transactions (2 an item), the deletion's record and its index entry rewritten per step",
    },
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
    units: { write: 0, read: 4.5, why: '9 Queries, each under 4 KB and eventually consistent (an export is a copy, not a decision: 0.5 each)' },
    prepare: async (deps) => ({ token: (await player(deps)).token }),
  },
  {
    group: 'withoutkey',
    op: 'player_deletions',
    minimum: 1,
    reason: "one Query of the studio's notices, newest first (the console's account state is remembered per process)",
    units: { write: 0, read: 0.5, why: "one Query of the studio's notices" },
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
    units: {
      write: 4,
      read: 0.5,
      why: "merchant id counter ADD (1) + the merchant's conditional Put (1) and its entries by id and by status (2); the account's merchant read first only spares a counter on a 409 (the Put's condition decides): eventually consistent (0.5)",
    },
    prepare: async (deps) => {
      const { token } = await accountWithToken(deps);
      return { token, body: { merchant_name: 'Bench Studio' } };
    },
  },
  {
    group: 'inner',
    op: 'get_token',
    minimum: 2,
    reason: "merchant GetItem (status, id) + the token's record PutItem, so that it is listed and can be revoked alone",
    units: {
      write: 1,
      read: 1,
      why: "merchant GetItem, strongly consistent: a suspended merchant gets no token (1) + the token's record, under 1 KB, written before the token is answered (1)",
    },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'get_merchant_info',
    minimum: 1,
    reason: 'merchant GetItem',
    units: { write: 0, read: 0.5, why: 'merchant GetItem, only shown: eventually consistent' },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'save_file',
    minimum: 1,
    reason: 'merchant GetItem for its id (the S3 put is not DynamoDB)',
    units: { write: 0, read: 0.5, why: 'merchant GetItem for its id, which never changes: eventually consistent' },
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
    units: {
      write: 12,
      read: 1,
      why: "one BatchGet (merchant, the code's game) eventually consistent, the transaction's conditions deciding (2 × 0.5); game id counter (1) + one transaction: the game (2) and its entries in the merchant's, all and live games indexes (3), the merchant's game count on condition of its status (2) and its two entries (2), the games' total (2)",
    },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token, body: gamePayload(newCode()) }),
  },
  {
    group: 'inner',
    op: 'query_merchant_game',
    minimum: 1,
    reason: "Query of the merchant's games index",
    units: { write: 0, read: 0.5, why: "one Query of the merchant's games index, under 4 KB" },
    prepare: async (deps) => ({ token: (await merchantWithGames(deps, 2)).token }),
  },
  {
    group: 'inner',
    op: 'gamelist',
    minimum: 3,
    reason: 'page Query + total GetItem (in parallel) + BatchGet of merchants',
    units: {
      write: 0,
      read: 3,
      why: "page Query and total GetItem (0.5 each) + one eventually consistent read of each listed game's merchant (0.5 each: 4 here)",
    },
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
    units: { write: 0, read: 0.5, why: 'merchant GetItem, only shown: eventually consistent' },
    prepare: async (deps) => ({ token: (await merchantWithToken(deps)).token }),
  },
  {
    group: 'inner',
    op: 'merchantStatus',
    label: 'merchantStatus GET by merchant_id',
    minimum: 1,
    reason: 'merchant-by-id Query',
    units: { write: 0, read: 0.5, why: 'merchant-by-id Query (an index)' },
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
    units: {
      write: 15,
      read: 3,
      why: "the admin's account state read fresh (2) + merchant-by-id and its games Queries (0.5 each); one transaction: the merchant (2), its entry by id rewritten (1) and moved on the status index (2), each game's live flag (2) and its three entries (3; 2 games here)",
    },
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
    units: { write: 0, read: 0.5, why: 'game GetItem, eventually consistent' },
    prepare: async (deps) => ({ query: { code: (await merchantWithGames(deps, 1)).games[0]!.code } }),
  },
  {
    group: 'inner',
    op: 'query_new_merchant',
    minimum: 1,
    reason: 'Query of the live games index',
    units: { write: 0, read: 1, why: 'one Query of the live games index: 0.5 per 4 KB read (11 games here, 6.4 KB)' },
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
    units: { write: 4, read: 0, why: "one conditional UpdateItem (1) + the game's three index entries rewritten (3)" },
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
    units: { write: 2, read: 4, why: 'one BatchGet of 4 items strongly consistent (a lockout holds at once) + two UpdateItems of the throttle pair (1 each)' },
    prepare: async (deps) => {
      const email = `login-${newCode()}@example.com`;
      await createAccount(deps, { email, password: 'correct horse battery', role: 'merchant' });
      return { body: { email, password: 'correct horse battery' } };
    },
  },
  ...metaOps('main'),
  ...metaOps('hero'),
  ...metaOps('root').filter((entry) => entry.op === 'home'),
  ...identityOperations,
  ...accessOperations,
  ...paymentOperations,
  ...goodsOperations,
  ...storeOperations,
  ...rankingOperations,
  ...leagueOperations,
  ...sponsorshipOperations,
  ...heroOperations,
  ...partnerStoreOperations,
  ...overviewOperations,
  ...storeClientOperations,
  ...consoleOperations,
  sponsoredClaimOperation,
];

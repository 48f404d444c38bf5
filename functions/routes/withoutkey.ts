import * as z from 'zod/mini';
import { allow, open, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { Params, SavedParams, SocialBindBody, SocialBinding, SocialQuery, SocialUser, ZkInfo } from '../../core/identity/models.js';
import { Credentials, LoginResult } from '../../core/merchants/models.js';
import { DeletionBody, DeletionChallenge, DeletionNotices, DeletionNoticesQuery, DeletionResult } from '../../core/privacy/models.js';
import { batchRead, platformToken } from './errors.js';

/** A player's data rights are the player's: a game server's token is refused them, not merely not taken. */
const playersOnly = "a game server cannot export or delete a player's data; the player does, with their own token";

/** The withoutkey group: operations callable without a token. */
export const withoutkeyRoutes = defineGroup('withoutkey', 'main', {
  merchant_login: {
    name: 'merchant_login',
    method: 'POST',
    path: '/merchant/login',
    auth: open,
    summary: 'Sign in to the merchant console',
    description: `Email and password; returns a merchant token (role merchant or admin). Failed attempts are throttled per account and source with a growing back-off (429 with Retry-After; docs/security.md "Login throttling"), never a lock an attacker can hold.`,
    body: Credentials,
    status: 200,
    envelope: 'merchant',
    response: LoginResult,
    errors: {
      400: 'email or password missing or malformed',
      401: 'email or password is wrong',
      429: 'too many failed sign-ins from this address (exponential back-off) or, from addresses the account does not know, to this account or from this address overall; Retry-After says when to try again (docs/security.md "Login throttling")',
      ...batchRead,
    },
    codes: ['account.credentials_wrong', 'account.sign_in_contended', 'account.sign_in_throttled'],
  },
  query_social_bind: {
    name: 'query social bind',
    method: 'GET',
    path: '/account/social/bind',
    auth: allow(['platform'], [owns.own]),
    summary: "The caller's bound social accounts",
    status: 200,
    envelope: 'paged',
    response: z.array(SocialBinding),
    errors: { ...platformToken },
  },
  bind_social: {
    name: 'bind social',
    method: 'POST',
    path: '/account/social/bind',
    auth: allow(['platform'], [owns.own]),
    summary: 'Bind a social account to the caller',
    description: "The provider's id_token proves the social account; one social account belongs to one user. Binding it again to the same user is a no-op.",
    body: SocialBindBody,
    status: 200,
    envelope: 'data',
    response: SocialBinding,
    errors: {
      400: 'id_token missing or not a JWT',
      401: 'no platform token, or the id_token failed verification',
      409: 'the social account is bound to another user',
      503: 'no OAuth provider is configured in this stage',
    },
    codes: ['id_token.expired', 'id_token.invalid', 'id_token.keys_unavailable', 'sign_in.unconfigured', 'social.bound_to_other_user'],
  },
  save_params: {
    name: 'save_params',
    method: 'POST',
    path: '/account/params',
    auth: allow(['platform'], [owns.own]),
    summary: "Save the caller's launch or referral parameters",
    description:
      'The body is the whole map (at most 32 keys of `[A-Za-z0-9_.-]{1,64}`, values of at most 512 characters); it replaces what was saved. The keys `__proto__`, `constructor` and `prototype` are refused (400 naming the key).',
    body: Params,
    status: 200,
    envelope: 'data',
    response: SavedParams,
    errors: { 400: 'a key or value out of bounds, more than 32 keys, or a reserved key', ...platformToken },
  },
  querybysocialid: {
    name: 'querybysocialid',
    method: 'GET',
    path: '/account/social',
    auth: allow(['server'], [owns.any('a game server finds which platform user a social account belongs to')]),
    summary: 'The platform user bound to a social account (game servers)',
    query: SocialQuery,
    status: 200,
    envelope: 'data',
    response: SocialUser,
    errors: { 400: 'provider or socialId missing', 401: 'no server token, or an invalid or expired one', 404: 'no user is bound to that social account' },
    codes: ['social.not_bound'],
  },
  query_zk_info: {
    name: 'query_zk_info',
    method: 'GET',
    path: '/account/zk/info',
    auth: open,
    summary: 'Salt and zkLogin address of an OAuth identity',
    description:
      'The OAuth id_token goes in `Authorization: Bearer <id_token>`. The salt is created on first use and never changes, not even when the player deletes their account. `query_zk_info Copy` of the source collection is this same operation.',
    status: 200,
    envelope: 'data',
    response: ZkInfo,
    errors: {
      400: 'the id_token cannot be used for zkLogin',
      401: 'no id_token, or it failed verification',
      409: 'concurrent first uses of the identity kept colliding; retry',
      503: `no OAuth provider is configured in this stage; ${batchRead[503]}`,
    },
    codes: [
      'auth.token_missing',
      'data.changed_concurrently',
      'id_token.expired',
      'id_token.invalid',
      'id_token.keys_unavailable',
      'sign_in.unconfigured',
      'zklogin.token_unusable',
    ],
  },
  account_deletion_challenge: {
    name: 'account deletion challenge',
    method: 'POST',
    path: '/account/deletion/challenge',
    auth: allow(['platform'], [owns.own], { refused: { server: playersOnly } }),
    summary: "A single-use message the caller's wallet signs to delete the account (extra operation)",
    description:
      'For a wallet account (wallet_type 1): the message names the deletion, the account and its address, and is live five minutes; a new one replaces the previous. Sign it with the wallet (a Sui personal message) and send the signature to account delete. A zkLogin account proves control with a fresh id_token instead (409). No body.',
    status: 200,
    envelope: 'data',
    response: DeletionChallenge,
    errors: { ...platformToken, 404: 'the caller has no account', 409: 'the account is a zkLogin one: it deletes with an id_token', ...batchRead },
    codes: ['deletion.no_account', 'deletion.proof_kind_wrong'],
  },
  account_delete: {
    name: 'account delete',
    method: 'POST',
    path: '/account/delete',
    auth: allow(['platform'], [owns.own], { movesValue: true, whileDeleted: true, refused: { server: playersOnly } }),
    summary: "Delete the caller's account and everything the platform holds about them (extra operation)",
    description:
      "A token alone is not enough: the body carries a fresh proof of control, `signature` (the wallet's signature of account deletion challenge's message) or, for a zkLogin account, `id_token` (of the account's identity, issued within the last 10 minutes). " +
      'From the moment the deletion starts every token of the player is refused; the answer comes when nothing about the player is left: personal records deleted, accounting records kept under a pseudonym, unspent tickets forfeited (the answer counts them), hero NFTs released, the studios told (docs/security.md "Deleting a player\'s account"). ' +
      'The same request again (the same signature or id_token, with the same token even though it is now refused elsewhere) answers the same answer, or finishes a deletion a failure interrupted; 409 with Retry-After while another request is running it.',
    body: DeletionBody,
    status: 200,
    envelope: 'data',
    response: DeletionResult,
    errors: {
      400: 'neither or both of signature and id_token, or one malformed',
      401: "no platform token, an invalid or expired one, no live deletion message, a signature that is not the wallet's, or an id_token that failed verification or is not fresh",
      403: "the id_token is of another identity than the account's",
      404: 'the caller has no account',
      409: 'the proof is of the other kind than the account signs in with, or the deletion is running in another request (Retry-After)',
      503: 'no OAuth provider is configured in this stage (id_token), or the table was busy',
    },
    codes: [
      'deletion.no_account',
      'deletion.message_missing',
      'deletion.signature_invalid',
      'deletion.proof_kind_wrong',
      'deletion.proof_other_account',
      'deletion.proof_stale',
      'deletion.running',
      'data.changed_concurrently',
      'id_token.expired',
      'id_token.invalid',
      'id_token.keys_unavailable',
      'sign_in.unconfigured',
    ],
  },
  player_deletions: {
    name: 'player deletions',
    method: 'GET',
    path: '/merchant/players/deletions',
    auth: allow(['merchant', 'server'], [owns.own], { whileSuspended: true }),
    summary: "The studio's players who deleted their accounts, newest first (extra operation)",
    description:
      "For each player who used one of the studio's games or projects and deleted their account: the id and when. Ids only: the studio deletes what it holds about them outside the platform. " +
      'Kept 30 days: read at least that often. `since` (an ISO 8601 time) leaves out older ones; a page holds `pageSize` (1-100, default 100); `next`, when not null, is the `before` of the next page. A console or a server token of the studio.',
    query: DeletionNoticesQuery,
    status: 200,
    envelope: 'merchant',
    response: DeletionNotices,
    errors: { 400: 'before, since or pageSize malformed', 401: 'no token, or an invalid or expired merchant or server token' },
  },
});

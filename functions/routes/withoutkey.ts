import * as z from 'zod/mini';
import { allow, open, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { Params, SavedParams, SocialBindBody, SocialBinding, SocialQuery, SocialUser, ZkInfo } from '../../core/identity/models.js';
import { Credentials, LoginResult } from '../../core/merchants/models.js';
import { batchRead, platformToken } from './errors.js';

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
});

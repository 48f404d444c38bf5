import { open } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { Nonce, NonceQuery, ZkLoginBody, ZkLoginResult } from '../../core/identity/models.js';
import { batchRead } from './errors.js';

/** The outer group: player sign-in. */
export const outerRoutes = defineGroup('outer', 'main', {
  getNonce: {
    name: 'getNonce',
    method: 'GET',
    path: '/account/nonce',
    tag: 'players',
    auth: open,
    summary: 'A single-use sign-in message for a Sui address',
    description:
      'The wallet signs `message` as a Sui personal message and sends the signature to chainwallet_register within 5 minutes. A new nonce for the same address replaces the previous one.',
    query: NonceQuery,
    status: 200,
    envelope: 'data',
    response: Nonce,
    errors: { 400: 'address is not 0x followed by 64 hex digits' },
  },
  login_zk: {
    name: 'login_zk',
    method: 'POST',
    path: '/account/login/zk',
    tag: 'players',
    auth: open,
    summary: 'Sign in with zkLogin',
    description:
      "Verifies the OAuth id_token against its issuer's keys (the stage's configured providers), keeps one salt per (iss, sub, aud), derives the zkLogin address and creates or finds its account (wallet_type 2). Returns the token pair; the game token names `game_code` when given. " +
      'An identity whose player deleted their account keeps its salt, so it signs in to the same address again, with a new user id and a new, empty account.',
    body: ZkLoginBody,
    status: 200,
    envelope: 'bare',
    response: ZkLoginResult,
    errors: {
      400: 'id_token missing or not a JWT',
      401: 'unknown issuer, bad signature, expired, or wrong audience',
      404: 'game_code names no game',
      409: 'the zkLogin address is bound to another user, or concurrent first sign-ins of the identity kept colliding (retry)',
      503: `no OAuth provider is configured in this stage; ${batchRead[503]}`,
    },
    codes: [
      'data.changed_concurrently',
      'game.not_found',
      'id_token.expired',
      'id_token.invalid',
      'id_token.keys_unavailable',
      'sign_in.unconfigured',
      'wallet.bound_to_other_user',
      'zklogin.token_unusable',
    ],
  },
});

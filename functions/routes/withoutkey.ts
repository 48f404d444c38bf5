import { open } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { Credentials, LoginResult } from '../../core/merchants/models.js';

/** The withoutkey group (API.md "outer and withoutkey"): operations callable without a token. */
export const withoutkeyRoutes = defineGroup('withoutkey', 'main', {
  merchant_login: {
    name: 'merchant_login',
    method: 'POST',
    path: '/merchant/login',
    auth: open,
    summary: 'Sign in to the merchant console',
    description: `Email and password; returns a merchant token (role merchant or admin). Five failed attempts in a row lock the account for 15 minutes (429 with Retry-After).`,
    body: Credentials,
    status: 200,
    envelope: 'merchant',
    response: LoginResult,
    errors: { 400: 'email or password missing or malformed', 401: 'email or password is wrong', 429: 'account locked after repeated failures' },
  },
});

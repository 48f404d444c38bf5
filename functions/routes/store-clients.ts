import { adminOnly } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { StoreClientPage, StoreClientRegistered, StoreClientRegistration, StoreClientsQuery } from '../../core/partner-store/models.js';
import { merchantToken } from './errors.js';

/** Why these are admins' operations: the store and its users are the stage's, not one studio's. */
const theStages =
  "the partner store is the stage's, not a studio's: a client may be granted scopes over every store user of its region, so only admins register and list them";

const whatAClientIs =
  'A partner OAuth client of one store region (docs/api.md, "Partner store: the authorization servers"): `public` (an app that runs the code flow with PKCE) or `confidential` (a partner server, with a secret).';

/**
 * The partner store's OAuth clients, operations of the admin console's group (functions/admin-console.ts): what
 * `npm run admin -- register-store-client` does, through the API, and the list of a region's clients.
 */
export const adminStoreClientOps = {
  store_client_register: {
    name: 'store client register',
    method: 'POST',
    path: '/merchant/admin/store/clients',
    tag: 'partner store',
    auth: adminOnly(theStages, { movesValue: true }),
    summary: 'Register a partner store OAuth client in a region (admins; extra operation)',
    description:
      `${whatAClientIs} \`redirect_uris\`: 1-10 absolute URIs, each without a fragment; plain http only for a loopback host (localhost, 127.0.0.1, [::1]); an app's own scheme is allowed. ` +
      '`scopes`: 1 or more of `profile`, `currencies`, `items`, `pets`, `grants`, each once. `assertion_jwk`, for a confidential client only, registers it as a partner backend that signs its users in (login): ' +
      'a public JWK, ES256 (kty EC, crv P-256) or EdDSA (kty OKP, crv Ed25519); a private key, another type, curve or algorithm is refused. ' +
      "A confidential client's `client_secret` is in this answer only: the table keeps its SHA-256, and no other operation shows it. A refused request writes nothing.",
    body: StoreClientRegistration,
    status: 200,
    envelope: 'merchant',
    response: StoreClientRegistered,
    errors: {
      400: 'a field is missing or malformed (the message names it): region, type, name, a redirect URI (not absolute, with a fragment, or http to a host other than loopback), a scope unknown or repeated; or assertion_jwk is given for a public client, or is not a public ES256 or EdDSA JWK',
      ...merchantToken,
      403: 'not an admin account',
    },
    codes: ['store.assertion_key_invalid', 'store.assertion_key_public_client'],
  },
  store_client_list: {
    name: 'store client list',
    method: 'GET',
    path: '/merchant/admin/store/clients',
    tag: 'partner store',
    auth: adminOnly(theStages),
    summary: "A store region's OAuth clients, newest first (admins; extra operation)",
    description:
      `${whatAClientIs} At most \`limit\` (1-100, default 20) a page; \`next\` is the cursor of the page after it (null on the last), bound to the region: ` +
      'a cursor of another region or read, or altered, is 400 naming `cursor`. Never a secret nor its hash; `has_assertion_key` says whether the client signs users in. ' +
      'Clients registered before this list existed are in it once the stage has had its one-off index pass (an operator command); they work either way.',
    query: StoreClientsQuery,
    status: 200,
    envelope: 'merchant',
    response: StoreClientPage,
    errors: {
      400: 'region missing or unknown, limit out of range, or cursor not the `next` of a previous page of this region',
      ...merchantToken,
      403: 'not an admin account',
    },
  },
} as const satisfies Record<string, OperationSpec>;

import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';

/** A partner backend's assertion of its user (an ES256 JWT), for the reference. */
const PARTNER_ASSERTION =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6InBhcnRuZXIta2V5LTEifQ.eyJpc3MiOiJhcmVuYS1wYXJ0bmVyIiwic3ViIjoicGFydG5lci11c2VyLTg4IiwiYXVkIjoic3RvcmUifQ.x5CH8t9m0OFltVAw3IHkOi8o56u9Yw_EVAut8LsA96w';
import { objectOf } from '../shared/records.js';
import { answered, intParam, pageCursor, paging } from '../shared/fields.js';
import { CLIENT_ID_MAX, CLIENT_ID_PATTERN, CLIENT_ID_RULE, REDIRECT_URI_RULE, redirectUriProblem, STORE_SCOPES } from './names.js';
import { STORE_REGIONS } from './names.js';

/** The partner store's OAuth bodies and answers (RFC 6749, RFC 8414). */

const param = z.optional(z.string().check(z.maxLength(2048)));
/**
 * A client id is read by key (core/partner-store/clients.ts): bounded at the edge, so an id no client can have is a 400
 * naming the field. Codes and refresh tokens need no such bound: only their SHA-256 goes into a key.
 */
const clientIdParam = z.optional(
  z.string().check(z.maxLength(CLIENT_ID_MAX), z.regex(CLIENT_ID_PATTERN, `expected a client id: ${CLIENT_ID_RULE}`), example('arena-companion-app')),
);

/** A token request (RFC 6749 §4.1.3, §4.4.2, §6): form parameters; unknown ones are ignored (§3.1). */
export const TokenRequestBody = z.lazy(() =>
  z.object({
    grant_type: param,
    scope: param,
    client_id: clientIdParam,
    client_secret: param,
    code: param,
    redirect_uri: param,
    code_verifier: param,
    refresh_token: param,
  }),
);

/** authorize2's query (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export const AuthorizeQuery = z.lazy(() =>
  z.object({
    response_type: param,
    client_id: clientIdParam,
    redirect_uri: param,
    scope: param,
    state: param,
    code_challenge: param,
    code_challenge_method: param,
  }),
);

/** accept: the signed-in user's decision on a pending authorization request. */
export const AcceptBody = z.lazy(() =>
  z.object({ request_id: z.uuid().check(example(EXAMPLE.uuid)), decision: z._default(z.enum(['allow', 'deny']), 'allow') }),
);
export const AcceptResult = z.lazy(() => z.object({ redirect_to: z.string() }));

/** RFC 6749 §5.1. */
export const TokenResponse = z.lazy(() =>
  z.object({
    access_token: answered.accessToken,
    token_type: z.literal('Bearer'),
    expires_in: z.int(),
    scope: z.string(),
    refresh_token: z.optional(z.string()),
  }),
);

/**
 * The metadata's query: it reads no parameter and ignores those sent, but a parameter given twice is 400 naming
 * it in the path's envelope (core/http/validation.ts singleQuery), as wherever a query is taken.
 */
export const MetadataQuery = z.lazy(() => z.object({}));

/** The stage named in a root path (RFC 8414 §3.1 discovery). */
export const StageParams = z.lazy(() => z.object({ stage: z.string().check(z.maxLength(64)) }));

/** RFC 8414 §2: the region's authorization server metadata. */
export const ServerMetadata = z.lazy(() =>
  z.object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    userinfo_endpoint: z.string(),
    jwks_uri: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
  }),
);

export const StoreJwks = z.lazy(() => z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string() })) }));

/** login and user/delete: the partner backend's signed assertion of its user (core/partner-store/assertions.ts). */
export const LoginBody = z.lazy(() =>
  z.object({
    assertion: z.string().check(z.maxLength(8192), z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'expected a JWT in compact form'), example(PARTNER_ASSERTION)),
  }),
);
export const LoginResult = z.lazy(() => z.object({ session: z.string(), expires_in: z.int(), uid: answered.userId }));

/**
 * user/delete's answer (core/partner-store/deletion.ts), the same for every request of one deletion: when it
 * started, and what the user held and lost (each currency and item with a balance above zero).
 */
export const UserDeleted = z.lazy(() =>
  z.object({
    deleted: z.literal(true),
    deleted_at: answered.time,
    forfeited: z.array(z.object({ holding: z.enum(['currency', 'item']), code: z.string(), amount: z.int() })),
  }),
);
export type UserDeleted = z.infer<typeof UserDeleted>;

/** userInfo: OpenID Connect style claims of the token's user (`sub` is the store user id). */
export const UserInfo = z.lazy(() => z.object({ sub: z.string(), name: z.nullable(z.string()), partner: z.string(), partner_user_id: z.string() }));

export const StoreUser = z.lazy(() =>
  z.object({
    uid: answered.userId,
    region: z.string(),
    partner: z.string(),
    partner_user_id: z.string(),
    name: z.nullable(z.string()),
    created_at: answered.time,
  }),
);

const currencyCode = z.enum(['coin', 'gem']);
const itemCode = z.enum(['kibble', 'fish', 'cake']);
const amount = z.int().check(z.minimum(0), z.maximum(1_000_000_000));

export const Currencies = z.lazy(() => z.object({ currencies: z.array(z.object({ code: z.string(), kind: z.enum(['soft', 'premium']), name: z.string() })) }));
export const PremiumBalance = z.lazy(() => z.object({ currency: z.string(), balance: z.int() }));
export const ItemBalances = z.lazy(() => z.object({ items: z.array(z.object({ item: z.string(), kind: z.string(), balance: z.int() })) }));

/** A partner's grant: currencies and items for a store user, once per reference. */
export const GrantBody = z.lazy(() =>
  z.object({
    uid: z.uuid().check(example(EXAMPLE.userId)),
    reference: z.string().check(z.regex(/^[\w.:-]{1,128}$/, 'expected 1-128 letters, digits, _ . : or -'), example('welcome-pack-88')),
    currencies: z.optional(z.partialRecord(currencyCode, amount)),
    items: z.optional(z.partialRecord(itemCode, amount)),
  }),
);
export const GrantResult = z.lazy(() =>
  z.object({
    uid: answered.userId,
    reference: z.string(),
    granted: z.array(z.object({ holding: z.enum(['currency', 'item']), code: z.string(), amount: z.int() })),
  }),
);

/** A pet, as answered and (with its keys stripped) as stored: core/partner-store/pets.ts reads items through it. */
export const Pet = z.object({
  petId: answered.uuid,
  name: z.string(),
  species: z.string(),
  level: z.int(),
  experience: z.int(),
  last_fed_at: z.nullable(answered.time),
  adopted_at: answered.time,
});
export type Pet = z.infer<typeof Pet>;

/** adopt_pet: a name and a species of the store's. */
export const AdoptBody = z.lazy(() =>
  z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(40), example('Biscuit')), species: z.enum(['cat', 'dog', 'dragon']) }),
);
export const Adopted = z.lazy(() => z.object({ pet: Pet, paid: z.int() }));
export const PetList = z.lazy(() => z.object({ pets: z.array(Pet) }));

/** How much of one food a feeding may give. */
const MAX_FEED_AMOUNT = 10;
/** feed_pet: which pet, which food and how much of it (1 to MAX_FEED_AMOUNT). */
export const FeedBody = z.lazy(() =>
  z.object({ petId: z.uuid().check(example(EXAMPLE.uuid)), item: itemCode, amount: z._default(z.int().check(z.minimum(1), z.maximum(MAX_FEED_AMOUNT)), 1) }),
);
/** A feeding, as answered and as its log entry stores it. */
export const Feeding = z.object({
  feedingId: z.string(),
  petId: answered.uuid,
  item: z.string(),
  amount: z.int(),
  experience_gained: z.int(),
  level_before: z.int(),
  level_after: z.int(),
  fed_at: answered.time,
});
export const Fed = z.lazy(() => z.object({ pet: Pet, feeding: Feeding }));
export const FeedLogQuery = z.lazy(() => z.object(paging));
export const FeedLog = z.lazy(() => z.object({ entries: z.array(Feeding), page: z.int(), pageSize: z.int(), hasMore: z.boolean() }));
export const RankQuery = z.lazy(() => z.object({ limit: z._default(intParam({ min: 1, max: 100 }), 20) }));
export const PetRank = z.lazy(() =>
  z.object({ pets: z.array(z.object({ rank: z.int(), petId: answered.uuid, name: z.string(), species: z.string(), level: z.int(), experience: z.int() })) }),
);

/**
 * A redirect URI a client is registered with (clients.ts redirectUriProblem): at most 2,048 characters, as authorize2
 * takes one. Its schema states the rule: an absolute URI (`format: uri`), no fragment (the pattern), and the rest
 * in words.
 */
const redirectUri = z.string().check(
  z.maxLength(2048),
  z.superRefine((uri, ctx) => {
    const problem = redirectUriProblem(uri);
    if (problem) ctx.issues.push({ code: 'custom', input: uri, message: problem });
  }),
  z.meta({ format: 'uri', pattern: '^[^#]*$', description: REDIRECT_URI_RULE }),
  example('https://partner.example.com/oauth/callback'),
);

/**
 * store client register: an admin registers a partner OAuth client in a region (core/partner-store/clients.ts
 * registerClient, which checks the assertion key). `assertion_jwk` is a confidential client's public ES256 or
 * EdDSA JWK when it is a partner backend that signs its users in.
 */
export const StoreClientRegistration = z.lazy(() =>
  z.object({
    region: z.enum(STORE_REGIONS),
    type: z.enum(['public', 'confidential']),
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), example('Arena companion')),
    redirect_uris: z
      .array(redirectUri)
      .check(z.minLength(1), z.maxLength(10), z.describe(`Where the user is sent back with the code; each: ${REDIRECT_URI_RULE}`)),
    scopes: z.array(z.enum(STORE_SCOPES)).check(
      z.minLength(1),
      z.maxLength(STORE_SCOPES.length),
      z.refine((scopes) => new Set(scopes).size === scopes.length, 'each scope once'),
      z.meta({ uniqueItems: true }),
    ),
    assertion_jwk: z.optional(z.record(z.string(), z.unknown())),
  }),
);

/** What a registered client is, as the table keeps it and an admin sees it (core/partner-store/clients.ts adds its assertion key). */
export const StoreClientFields = z.object({
  client_id: z.string().check(example('arena-companion-app')),
  region: z.enum(STORE_REGIONS),
  type: z.enum(['public', 'confidential']),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  scopes: z.array(z.string()),
  created_at: answered.time,
});

/** A registered client as an admin sees it: never its secret nor the secret's hash; whether it has an assertion key, not the key. */
export const StoreClientView = z.lazy(() => z.extend(StoreClientFields, { has_assertion_key: z.boolean() }));

/** store client register's answer: the client, and a confidential client's `client_secret`, shown this once. */
export const StoreClientRegistered = z.lazy(() => z.extend(objectOf(StoreClientView), { client_secret: z.optional(z.string()) }));

/** store client list's query: the region, and the `next` of the previous page. */
export const StoreClientsQuery = z.lazy(() =>
  z.object({ region: z.enum(STORE_REGIONS), cursor: z.optional(pageCursor), limit: z._default(intParam({ min: 1, max: 100 }), 20) }),
);

/** A page of a region's clients, newest first: `next` the cursor of the page after it, null on the last. */
export const StoreClientPage = z.lazy(() => z.object({ clients: z.array(StoreClientView), next: z.nullable(answered.cursor) }));

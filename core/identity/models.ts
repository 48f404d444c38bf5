import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered } from '../shared/fields.js';
import { suiAddress } from '../shared/sui-address.js';
import { clientMap } from '../shared/maps.js';

/** Account `wallet_type`: 1 external wallet registered by signature, 2 zkLogin address. */
export const WalletType = { external: 1, zkLogin: 2 } as const;
/** Account `status`: 1 active, 0 disabled. */
export const AccountStatus = { disabled: 0, active: 1 } as const;

export const userId = z.uuid().check(example(EXAMPLE.userId));

/** The contract's Account/wallet record. `private_key` is always "": no private key is ever generated or kept. */
export const AccountRecord = z.lazy(() =>
  z.object({
    id: z.int(),
    create_time: answered.time,
    update_time: answered.time,
    wallet_address: answered.address,
    wallet_type: z.int(),
    status: z.int(),
    uid: answered.userId,
    private_key: z.literal(''),
  }),
);
export type AccountRecord = z.infer<typeof AccountRecord>;

const IssuedToken = z.object({ accessToken: answered.accessToken, expiresAt: answered.time });

/** The contract's token pair (chainwallet_register, login_zk; docs/api.md, "The compatibility contract"). */
export const TokenPair = z.object({ platformToken: IssuedToken, gameToken: IssuedToken });

export const GameTokenResult = z.lazy(() => z.extend(IssuedToken, { game_code: answered.gameCode }));

/** An OpenID Connect id_token (a compact JWS), as login_zk and social binding take it. */
export const idToken = z.string().check(z.regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'expected a JWT id_token'), z.maxLength(8192), example(EXAMPLE.idToken));

export const ZkLoginBody = z.lazy(() =>
  z.object({ id_token: idToken, game_code: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a game code'), example(EXAMPLE.gameCode))) }),
);
export const ZkLoginResult = z.lazy(() => z.extend(TokenPair, { uid: answered.userId, address: answered.address }));

/** query_zk_info: the identity's salt (decimal text, < 2^128) and zkLogin address. */
export const ZkInfo = z.lazy(() =>
  z.object({ provider: z.string(), iss: z.string(), aud: z.string(), sub: z.string(), salt: z.string(), address: answered.address }),
);

export const SocialBindBody = z.lazy(() => z.object({ id_token: idToken }));
export const SocialBinding = z.lazy(() => z.object({ provider: z.string(), socialId: z.string(), email: z.optional(answered.email), bound_at: answered.time }));
export const SocialQuery = z.lazy(() =>
  z.object({
    provider: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,32}$/, 'expected a provider name'), example('google')),
    socialId: z.string().check(z.minLength(1), z.maxLength(255), example('110169484474386276334')),
  }),
);
export const SocialUser = z.lazy(() =>
  z.object({ uid: answered.userId, provider: z.string(), socialId: z.string(), wallet_address: z.nullable(answered.address) }),
);

/** save_params: at most 32 keys of [A-Za-z0-9_.-]{1,64}, values text of at most 512 characters. */
export const Params = clientMap({
  key: { pattern: /^[A-Za-z0-9_.-]{1,64}$/, message: 'expected a key of 1-64 letters, digits, _ . -' },
  value: z.string().check(z.maxLength(512)),
  maxEntries: 32,
});
export const SavedParams = z.lazy(() => z.object({ params: z.record(z.string(), z.string()), updated_at: answered.time }));

export const NonceQuery = z.lazy(() => z.object({ address: suiAddress }));
export const Nonce = z.lazy(() => z.object({ address: answered.address, nonce: z.string(), message: z.string(), expiresAt: answered.time }));
/**
 * "live nonce of an address" (nonceKey, core/identity/wallet.ts), as stored: the nonce, the message it is in, and its
 * expiry in epoch seconds (the table's TTL, which deletes it some time after: a read checks it).
 */
export const StoredNonce = z.object({ nonce: z.string(), message: z.string(), expiresAt: z.int() });
export const RegisterBody = z.lazy(() =>
  z.object({
    uuid: userId,
    address: suiAddress,
    signature: z.string().check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'expected base64 text'), z.maxLength(4096), example(EXAMPLE.signature)),
  }),
);
export const GameCodeQuery = z.lazy(() =>
  z.object({ game_code: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a game code'), example(EXAMPLE.gameCode)) }),
);

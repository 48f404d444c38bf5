import * as z from 'zod/mini';

/**
 * The values the API reference shows (docs/api.md, "The API reference"). A field's JSON Schema carries them as
 * `examples`, which Swagger UI shows, and puts in the requests it prepares, instead of a value it makes up (random
 * text matching the field's pattern, `string`, 0). One believable value per kind of field, given once to the shared
 * schema of that kind (core/shared/fields.ts, core/shared/amounts.ts, the domains' models), so every operation with
 * such a field shows it. Each must be valid for its schema: test/openapi-examples.test.ts checks every example of
 * both documents against the schema that carries it.
 */
export const EXAMPLE = {
  email: 'studio@example.com',
  /** A Sui address: a player's wallet, a project's receiving address. */
  address: '0xb6938979b46a36ded7c3ee5ce4ffb4bdc489f057cf49eed34177718ddd1d228c',
  /** Another: the other side of a payment. */
  otherAddress: '0xc29b749a166516dae95dad1d38befda4373f0f64e307d0dc2536be2c73945150',
  /** A Sui object id: a game's shared object, a hero NFT. */
  objectId: '0x518d989dfae8f6bcef7c3d99dab43be9f9f923487f7fd9310caa64984305eba1',
  gameCode: 'demo-arena',
  gameName: 'Demo Arena',
  /** A studio's merchant name. */
  studioName: 'Demo Studio',
  projectName: 'arena-tickets',
  coinType: '0x2::sui::SUI',
  /** 0.1 SUI (9 decimals), in base units. */
  baseUnits: '100000000',
  /** The same price in coins, as the contract's `amount` gives it. */
  coins: '0.1',
  time: '2026-03-14T09:30:00.000Z',
  /** A platform user id (a UUID). */
  userId: 'd64a1c3a-1343-45ce-9f4b-5488d5cb7d5f',
  /** A console account id (a UUID). */
  accountId: '02caf8a3-7711-46ed-a676-6de004dd77a6',
  /** Another record's UUID: a pet, a hero item, a pending authorization request. */
  uuid: '48db4715-ccae-4240-a867-88f61ce25f92',
  /** A recharge order's bill number: what its payment must carry. */
  billNo: 'PO0000001042',
  /** A chain transaction digest (base58). */
  txDigest: 'sbQu2FiQD2bGUUB9kBpAy7aEMoPbVU1FyC5Z3CmvN1Rg',
  otherTxDigest: 'vyfVLerhJaj9txLbe6udwNrECYP1mHMzmMz6a5ju8bZ8',
  /** A wallet's signature of a message: flag, signature and public key, base64. */
  signature: 'ACE6CB+Kgx+N1V/QdSoTc2yER70GfLLiZprZAsTi9im4nYJRrT+P0LUi7RBZj8nZvuYv5CdqUaWKOrcZuFU13bgX8d88Da3hD89/d0hYhFsIo1YsSuGPVrCsFW4AJJyKyA==',
  /** An OpenID Connect id_token (a compact JWS), signed by the provider. */
  idToken:
    'eyJhbGciOiJSUzI1NiIsImtpZCI6IjFmMmUzZDRjIn0.eyJpc3MiOiJodHRwczovL2FjY291bnRzLmdvb2dsZS5jb20iLCJzdWIiOiIxMTAxNjk0ODQ0NzQzODYyNzYzMzQifQ.UXrL62dwKkjCxL0riYLnKPexldnPTL9ZUfIEIRi0-lQ',
  /** A token this service issues (an ES256 JWT), shortened. */
  accessToken: 'eyJhbGciOiJFUzI1NiIsImtpZCI6InN0YWdlLWtleS0xIn0.eyJzdWIiOiJkNjRhMWMzYSJ9.c2lnbmF0dXJl',
  /** The `next` of a page, passed back as `cursor`. */
  cursor: 'W6DFOiyxNkhMRTxLmIlnLv9XPURusOBZcvoZ-y0k-Z8XBlkJ',
  url: 'https://demo-arena.example.com',
  imageUrl: 'https://cdn.example.com/demo-arena/logo.png',
  /** A stored file's path, as save_file answers it. */
  filePath: 'merchant/7/3f9c2a1e-logo.png',
  /** A game's player, as its game server names them. */
  playerId: 'player-1042',
  playerName: 'NovaFox',
  /** A week's season range: the first day's year, month and day, the last day's month and day. */
  seasonRange: '2026-03-09-03-15',
  /** A game server's id of a match result, or a grant's reference: what makes a retry the same request. */
  resultId: 'match-20260314-0042',
} as const;

/** A schema's examples in the reference: `.check(example(EXAMPLE.email))`. */
export const example = (...values: readonly unknown[]) => z.meta({ examples: [...values] });

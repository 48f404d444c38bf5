import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { REVOCATION_PREFIX, REVOCATION_SORT, SERVER_TOKEN_PREFIX, SERVER_TOKENS_PREFIX } from './keys.js';
import { StoredRevocation } from './principals.js';
import { ServerTokenItem } from './server-tokens.js';

/**
 * Every kind access declares (core/platform/item-kinds.ts): a console account's revocations and a merchant's server
 * tokens, a studio's, never a player's.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({
    name: 'revocation',
    type: 'revocation',
    keys: { pk: startsWith(REVOCATION_PREFIX), sk: exactly(REVOCATION_SORT) },
    model: StoredRevocation,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'server token',
    type: 'server-token',
    keys: { pk: startsWith(SERVER_TOKENS_PREFIX), sk: startsWith(SERVER_TOKEN_PREFIX) },
    model: ServerTokenItem,
    player: { holdsNoPlayerData: true },
  }),
];

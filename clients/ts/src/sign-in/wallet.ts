import type { Signer } from '@mysten/sui/cryptography';
import { createMainClient } from '../client.js';
import { unwrap } from '../errors.js';
import { PlayerSession, type SignInOptions } from '../session.js';
import { RenewingToken } from '../tokens.js';

/** What signs the platform's message: a `@mysten/sui` keypair, or a wallet adapted to these two calls. */
export type PersonalMessageSigner = Pick<Signer, 'toSuiAddress' | 'signPersonalMessage'>;

export interface WalletSignIn extends SignInOptions {
  signer: PersonalMessageSigner;
  /**
   * The player's user id. A new player picks one (default: a random UUID) and the game keeps it with the wallet:
   * the platform binds an address to one user id, so signing the same wallet in under another id is refused.
   */
  userId?: string;
}

/**
 * Signs a player in with a Sui wallet: asks the nonce for the wallet's address, signs its message as a Sui
 * personal message and registers the signature, which answers the token pair. When the platform token nears its
 * expiry the session signs a new nonce the same way, so a wallet that asks its user to approve each signature
 * asks again once a day.
 */
export async function signInWithSuiWallet(options: WalletSignIn): Promise<PlayerSession> {
  const { signer, userId = crypto.randomUUID(), ...clientOptions } = options;
  const api = createMainClient(clientOptions);
  const address = signer.toSuiAddress();
  const signIn = async () => {
    const nonce = await unwrap(api.GET('/account/nonce', { params: { query: { address } } }));
    const { signature } = await signer.signPersonalMessage(new TextEncoder().encode(nonce.message));
    const tokens = await unwrap(api.POST('/account/register/chainwallet', { body: { uuid: userId, address, signature } }));
    return tokens.platformToken;
  };
  const platformToken = new RenewingToken(signIn, await signIn());
  return new PlayerSession(userId, platformToken, clientOptions);
}

import { createMainClient } from '../client.js';
import { unwrap } from '../errors.js';
import { PlayerSession, type SignInOptions } from '../session.js';
import { RenewingToken } from '../tokens.js';

export interface ZkLoginSignIn extends SignInOptions {
  /**
   * An id_token of one of the stage's OpenID Connect providers (RS256, one audience), fresh from the provider:
   * called at sign-in and again when the platform token nears its expiry.
   */
  idToken: () => Promise<string>;
}

/** What zkLogin adds to a session: the player's zkLogin address. */
export interface ZkLoginSession extends PlayerSession {
  address: string;
}

/**
 * Signs a player in with zkLogin: the platform checks the id_token, keeps the identity's salt and answers the
 * token pair with the user id and the Sui address (the same for the same identity at every sign-in).
 */
export async function signInWithZkLogin(options: ZkLoginSignIn): Promise<ZkLoginSession> {
  const { idToken, ...clientOptions } = options;
  const api = createMainClient(clientOptions);
  const login = async () => unwrap(api.POST('/account/login/zk', { body: { id_token: await idToken() } }));
  const first = await login();
  const platformToken = new RenewingToken(async () => (await login()).platformToken, first.platformToken);
  return Object.assign(new PlayerSession(first.uid, platformToken, clientOptions), { address: first.address });
}

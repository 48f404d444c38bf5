import * as oauth from 'oauth4webapi';
import { createMainClient, type MainClient } from './client.js';
import type { SessionOptions } from './session.js';
import { RenewingToken, type Token } from './tokens.js';

export interface StoreAppOptions extends SessionOptions {
  /** The region's issuer: `<base>/store` (the default region) or `<base>/store/<region>`. */
  issuer: string;
  /** The app's client id, registered as a public client (it keeps no secret). */
  clientId: string;
  /** One of the redirect URIs registered for the client. */
  redirectUri: string;
  /** The scopes asked (space-separated); all of the client's when left out. */
  scope?: string;
  /** Allows an `http:` issuer: only for a local stage on loopback. */
  allowInsecureRequests?: boolean;
}

/** What the app keeps between sending the user to the authorization page and the user coming back. */
export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
}

/** The store's main base, from the region's issuer (`<base>/store[/<region>]`). */
const baseOf = (issuer: string) => issuer.replace(/\/store(\/[^/]+)?\/?$/, '');

/**
 * A partner app signing its user in to the partner store with the authorization code flow and PKCE (S256), as a
 * public client, through oauth4webapi: `authorization()` gives the URL to open and what to keep until the user
 * comes back; `complete(callback)` checks the answer (state, issuer) and exchanges the code; the session's access
 * token is renewed with the refresh token (rotated at each use) before it expires.
 */
export class StoreApp {
  private constructor(
    private readonly options: StoreAppOptions,
    private readonly server: oauth.AuthorizationServer,
    private readonly client: oauth.Client,
    private readonly http: { [oauth.allowInsecureRequests]: boolean },
  ) {}

  /** Reads the region's metadata (RFC 8414) and checks it is the issuer asked for. */
  static async discover(options: StoreAppOptions): Promise<StoreApp> {
    // The OAuth requests go through oauth4webapi's own fetch (the global one); `fetch` is for the store's calls.
    const http = { [oauth.allowInsecureRequests]: options.allowInsecureRequests === true };
    const issuer = new URL(options.issuer);
    const server = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...http, algorithm: 'oauth2' }));
    return new StoreApp(options, server, { client_id: options.clientId, token_endpoint_auth_method: 'none' }, http);
  }

  /** The authorization page's URL, and the state and PKCE verifier to keep until the user comes back. */
  async authorization(): Promise<{ url: URL; pending: PendingAuthorization }> {
    const pending = { state: oauth.generateRandomState(), codeVerifier: oauth.generateRandomCodeVerifier() };
    const url = new URL(this.server.authorization_endpoint!);
    const query: Record<string, string> = {
      response_type: 'code',
      client_id: this.client.client_id,
      redirect_uri: this.options.redirectUri,
      state: pending.state,
      code_challenge: await oauth.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return { url, pending };
  }

  /**
   * The user came back to the redirect URI: checks the answer (an `error` in it is thrown as oauth4webapi's
   * AuthorizationResponseError), exchanges the code and answers the user's session in the store.
   */
  async complete(callback: URL, pending: PendingAuthorization): Promise<StoreSession> {
    const params = oauth.validateAuthResponse(this.server, this.client, callback, pending.state);
    const answer = await oauth.processAuthorizationCodeResponse(
      this.server,
      this.client,
      await oauth.authorizationCodeGrantRequest(this.server, this.client, oauth.None(), params, this.options.redirectUri, pending.codeVerifier, this.http),
    );
    let refreshToken = answer.refresh_token;
    const refresh = async (): Promise<Token> => {
      if (!refreshToken) throw new Error('the store gave no refresh token: sign the user in again');
      const renewed = await oauth.processRefreshTokenResponse(
        this.server,
        this.client,
        await oauth.refreshTokenGrantRequest(this.server, this.client, oauth.None(), refreshToken, this.http),
      );
      refreshToken = renewed.refresh_token;
      return tokenOf(renewed);
    };
    return new StoreSession(new RenewingToken(refresh, tokenOf(answer)), { ...this.options, baseUrl: baseOf(this.options.issuer) });
  }
}

const tokenOf = (answer: oauth.TokenEndpointResponse): Token => ({
  accessToken: answer.access_token,
  expiresAt: new Date(Date.now() + (answer.expires_in ?? 0) * 1000).toISOString(),
});

/** A store user signed in to a partner app: a client calling the store with the user's access token. */
export class StoreSession {
  /** The main base's client with the user's access token (the store's operations are its `/store/…` paths). */
  readonly api: MainClient;

  constructor(
    private readonly token: RenewingToken,
    options: SessionOptions,
  ) {
    this.api = createMainClient({ ...options, token });
  }

  /** Forgets the tokens. */
  signOut() {
    this.token.clear();
  }
}

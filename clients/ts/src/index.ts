/**
 * The game platform's API client: typed calls generated from its OpenAPI documents (openapi-fetch), sign-in that
 * renews its tokens, Idempotency-Keys on money calls, retries only where the platform says a retry is safe, and
 * error answers as typed values.
 */
export { type ClientOptions, createHeroClient, createMainClient, type HeroClient, type MainClient, type TokenChooser, type TokenKind } from './client.js';
export { redeemSponsored, type SponsoredRedemption } from './claims.js';
export { ApiError, type CodeOf, type ErrorCode, type Payload, type Result, settle, unwrap } from './errors.js';
export type { RetryPolicy } from './retry.js';
export { PlayerSession, type SessionOptions, type SignInOptions } from './session.js';
export { type PersonalMessageSigner, signInWithSuiWallet, type WalletSignIn } from './sign-in/wallet.js';
export { signInWithZkLogin, type ZkLoginSession, type ZkLoginSignIn } from './sign-in/zklogin.js';
export { type PendingAuthorization, StoreApp, type StoreAppOptions, StoreSession } from './store.js';
export { RenewingToken, type Token, type TokenSource } from './tokens.js';

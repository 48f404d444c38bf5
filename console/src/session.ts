import { createMainClient, type MainClient } from '@game-platform/client';

/**
 * Who is signed in to this tab: the console token and what merchant_login answered with it. Kept in
 * sessionStorage (this tab only, gone when it closes) and removed on sign-out; never in localStorage or a cookie.
 */
export interface Session {
  token: string;
  expiresAt: string;
  accountId: string;
  role: 'merchant' | 'admin';
  email: string;
}

const KEY = 'console.session';

export function storedSession(): Session | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return undefined;
  try {
    const session = JSON.parse(raw) as Session;
    if (Date.parse(session.expiresAt) > Date.now()) return session;
  } catch {
    // An unreadable entry is dropped below.
  }
  sessionStorage.removeItem(KEY);
  return undefined;
}

export const keepSession = (session: Session) => sessionStorage.setItem(KEY, JSON.stringify(session));
export const forgetSession = () => sessionStorage.removeItem(KEY);

/** The API's base URL: the page names its path; the origin is the page's own. */
export function apiBaseUrl(): string {
  const mount = document.getElementById('console');
  return `${location.origin}${mount?.dataset.apiBase ?? ''}`;
}

/** The typed client of the main base every screen calls the API with. */
export type Api = MainClient;

/** A typed client of the main base sending the session's token (none before sign-in). */
export const clientFor = (session?: Session): Api =>
  createMainClient({ baseUrl: apiBaseUrl(), ...(session ? { token: session.token } : {}), retry: { maxDelayMs: 5_000 } });

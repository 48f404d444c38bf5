import { createHeroClient, createMainClient, type HeroClient, type MainClient } from '@game-platform/client';

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

const mountData = () => document.getElementById('console')?.dataset ?? {};

/** The API's base URL: the page names its path; the origin is the page's own. */
export function apiBaseUrl(): string {
  return `${location.origin}${mountData().apiBase ?? ''}`;
}

/**
 * The URL of a stored file (what save_file answered, `merchant/7/logo.png`): the page names where stored files are
 * read (deployed, the Files bucket's public URL, which its policy allows images from; locally the main base's
 * `files/` on the page's own origin).
 */
export function fileUrl(path: string): string {
  const base = mountData().filesBase ?? `${mountData().apiBase ?? ''}/files`;
  const absolute = /^https?:\/\//.test(base) ? base : `${location.origin}${base}`;
  return `${absolute}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The hero base's URL: deployed, the hero API's own (another host, which the page's policy names); locally a
 * path on the page's origin.
 */
function heroBaseUrl(): string {
  const base = mountData().heroBase ?? '';
  return base.startsWith('/') ? `${location.origin}${base}` : base;
}

/** The typed client of the main base every screen calls the API with. */
export type Api = MainClient;

/** A typed client of the hero base, for an admin's calls with the console token. */
export type HeroApi = HeroClient;

/** A typed client of the hero base sending the session's token. */
export const heroClientFor = (session: Session): HeroApi => createHeroClient({ baseUrl: heroBaseUrl(), token: session.token, retry: { maxDelayMs: 5_000 } });

/** A typed client of the main base sending the session's token (none before sign-in). */
export const clientFor = (session?: Session): Api =>
  createMainClient({ baseUrl: apiBaseUrl(), ...(session ? { token: session.token } : {}), retry: { maxDelayMs: 5_000 } });

import { escapeHtml } from './served-files.js';

/**
 * The operator console's page (docs/console.md): one HTML document that loads the console's script and
 * stylesheet from the service itself (`<base>/console/assets/`, core/http/console-assets.ts), each versioned by
 * its content so a browser keeps it for a year and fetches again only after it changes. The API's base path and
 * the hero base's and the stored files' addresses travel in data attributes, read by the script. The
 * Content-Security-Policy allows nothing but the page's own origin and, deployed, the hero API's (calls) and the
 * Files bucket's (images): no inline script or style, no request to another host, no form posting elsewhere, no
 * framing.
 */

/** The variable infra sets on the meta function: the hero API's URL with its base path (infra/functions.ts). */
export const HERO_API_URL = 'HERO_API_URL';

/** The variable infra sets on the meta function: the public URL of the Files bucket, where stored images are read. */
export const FILES_URL = 'FILES_URL';

/** Where the console reaches something: `base` (an absolute URL, or a path on the page's origin) and, when it is another origin, that origin. */
export interface HeroApiPlace {
  base: string;
  origin?: string;
}

/**
 * The hero base as the console reaches it. Deployed, the hero base is a second API on its own host, whose URL
 * infra gives the meta function; it must be https (or http on loopback). Without it (`npm start`, tests), the
 * hero base is a path on the page's own origin. A malformed URL is a deployment mistake and throws.
 */
export function heroApiPlace(setting: string | undefined, sameOriginPath: string): HeroApiPlace {
  return placeOf(HERO_API_URL, "the hero API's", setting, sameOriginPath);
}

/**
 * Where the console reads stored images: deployed, the Files bucket's public URL, which infra gives the meta
 * function; without it (`npm start`, tests), the main base's `files/` on the page's own origin.
 */
export function filesPlace(setting: string | undefined, sameOriginPath: string): HeroApiPlace {
  return placeOf(FILES_URL, "the Files bucket's", setting, sameOriginPath);
}

function placeOf(variable: string, what: string, setting: string | undefined, sameOriginPath: string): HeroApiPlace {
  if (!setting) return { base: sameOriginPath };
  let url: URL;
  try {
    url = new URL(setting);
  } catch {
    throw new Error(`${variable}: expected ${what} absolute URL, got ${JSON.stringify(setting)}`);
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new Error(`${variable}: expected an https URL, got ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`${variable}: expected a URL with no query, fragment or credentials`);
  return { base: `${url.origin}${url.pathname.replace(/\/$/, '')}`, origin: url.origin };
}

/** The page's policy; `heroOrigin` is the one other origin the console may call, `filesOrigin` the one it shows images from. */
export function consoleCsp(heroOrigin?: string, filesOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // blob: for the preview of an image chosen for upload, read from the file in the browser; data: for the
    // empty icon, so the browser asks for no favicon.
    `img-src 'self' blob: data:${filesOrigin ? ` ${filesOrigin}` : ''}`,
    `connect-src 'self'${heroOrigin ? ` ${heroOrigin}` : ''}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function consolePage(options: { apiBase: string; heroBase: string; filesBase: string; script: string; stylesheet: string; stage: string }): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>Console · ${escapeHtml(options.stage)}</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${escapeHtml(options.stylesheet)}">
    <script type="module" src="${escapeHtml(options.script)}"></script>
  </head>
  <body>
    <noscript>The console needs JavaScript.</noscript>
    <div id="console" data-api-base="${escapeHtml(options.apiBase)}" data-hero-base="${escapeHtml(options.heroBase)}" data-files-base="${escapeHtml(options.filesBase)}" data-stage="${escapeHtml(options.stage)}"></div>
  </body>
</html>
`;
}

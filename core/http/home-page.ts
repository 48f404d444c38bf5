import { createHash } from 'node:crypto';
import { escapeHtml } from './served-files.js';

/**
 * The home page: what the host root and each base itself answer (`/` and `/v2-testing` on the local stage, the
 * main base's page at both; `/hero-testing`, the hero base's). It says what the service is and where to read on:
 * the base's API reference (`<base>/docs`) and its sections, its OpenAPI document and, on the main base, the
 * operator console and the hero base's reference. Plain HTML with a stylesheet of its own: no script, nothing
 * loaded from anywhere, and a Content-Security-Policy that allows nothing else.
 */
export interface HomePage {
  base: 'main' | 'hero';
  /** The base's path: `/v2-testing`, `/hero-testing`. */
  basePath: string;
  stage: string;
  /** The reference's sections of this base, in reading order (core/http/tags.ts). */
  sections: readonly { name: string; description: string }[];
  /** The main page only: where the hero base is (a path on this origin, or its own API's URL when deployed). */
  heroBase?: string;
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}' +
  'main{max-width:44rem;margin:3rem auto;padding:0 1.5rem}' +
  'h1{font-size:1.75rem;margin:0 0 .5rem}h2{font-size:1.15rem;margin:2rem 0 .5rem}' +
  'a{color:#0b5cad}code{font-size:.9em}dt{font-weight:600;margin-top:.5rem}dd{margin:0 0 0 1rem}';

/** Nothing but the page's own stylesheet (by its hash) and its empty icon. */
export const HOME_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const about = {
  main: {
    title: 'Game platform API',
    intro:
      'The backend of the game platform. Studios publish their games and sell tickets for them; players sign in with a Sui wallet ' +
      'or zkLogin, buy tickets on chain or through the App Store and Google Play, spend them in games and compete on weekly and ' +
      'monthly boards whose seasons pay rewards. Partner stores sign their users in through it, and the hero game has a base of its own.',
  },
  hero: {
    title: 'Hero game API',
    intro:
      'The hero game: a player exchanges their platform token for a hero token, binds the hero NFTs they hold on chain, and ' +
      'upgrades their heroes with tickets bought on the game platform.',
  },
} as const;

export function homePage({ base, basePath, stage, sections, heroBase }: HomePage): string {
  const { title, intro } = about[base];
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  const links = [
    `${link(`${basePath}/docs`, 'API reference')}: every operation of this base, by purpose, with its requests, answers and errors; try them from the page.`,
    `${link(`${basePath}/openapi.json`, 'OpenAPI document')} (OpenAPI 3.1): what the reference shows, for generating clients.`,
    ...(base === 'main' ? [`${link(`${basePath}/console`, 'Operator console')}: for studios running their games, and for the platform's admins.`] : []),
    ...(heroBase ? [`${link(`${heroBase}/docs`, 'Hero game API reference')}: the hero game's own base.`] : []),
  ];
  const section = ({ name, description }: { name: string; description: string }) =>
    // Swagger UI opens a section from its deep link, `#/<section name>`.
    `        <dt>${link(`${basePath}/docs#/${encodeURIComponent(name)}`, name)}</dt>\n        <dd>${escapeHtml(description)}</dd>`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="data:,">
    <style>${STYLE}</style>
  </head>
  <body>
    <main>
      <h1>${escapeHtml(title)}</h1>
      <p>${escapeHtml(intro)}</p>
      <p>Stage <code>${escapeHtml(stage)}</code>: every path of this base starts with <code>${escapeHtml(basePath)}</code>.</p>
      <ul>
${links.map((item) => `        <li>${item}</li>`).join('\n')}
      </ul>
      <h2>The reference's sections</h2>
      <dl>
${sections.map(section).join('\n')}
      </dl>
    </main>
  </body>
</html>
`;
}

import { REFERENCE_VERSION } from './reference-assets.js';
import { escapeHtml } from './served-files.js';

/**
 * The interactive API reference: Swagger UI rendering the base's OpenAPI document, its "try it" requests sent
 * to the same server (the document's `servers` are relative). Every file the page loads is served by the
 * service under `<base>/docs/assets/` (core/http/reference-assets.ts), versioned by `?v=<Swagger UI's version>`
 * so a browser keeps them for a year and fetches again only after an upgrade. The page's Content-Security-Policy
 * allows nothing but the page's own origin (no inline script: the start-up script is one of the assets), so
 * neither the page nor a token typed into it can reach another host.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes; its stylesheet embeds its icons as data: URIs.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function referencePage(openapiUrl: string, assetsPath: string, title: string): string {
  // The URL travels in an HTML attribute, read by the script through `dataset`: only HTML escaping is needed,
  // never escaping into JavaScript.
  const url = escapeHtml(openapiUrl);
  const asset = (file: string) => escapeHtml(`${assetsPath}/${file}?v=${REFERENCE_VERSION}`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${asset('swagger-ui.css')}">
  </head>
  <body>
    <noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${url}">${url}</a>.</noscript>
    <div id="reference" data-openapi-url="${url}"></div>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('reference.js')}"></script>
  </body>
</html>
`;
}

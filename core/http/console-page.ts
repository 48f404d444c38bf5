import { escapeHtml } from './served-files.js';

/**
 * The operator console's page (docs/console.md): one HTML document that loads the console's script and
 * stylesheet from the service itself (`<base>/console/assets/`, core/http/console-assets.ts), each versioned by
 * its content so a browser keeps it for a year and fetches again only after it changes. The API's base path
 * travels in a data attribute, read by the script. The Content-Security-Policy allows nothing but the page's own
 * origin: no inline script or style, no request to another host, no form posting elsewhere, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // blob: for the preview of an image chosen for upload, read from the file in the browser; data: for the empty
  // icon, so the browser asks for no favicon.
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function consolePage(options: { apiBase: string; script: string; stylesheet: string; stage: string }): string {
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
    <div id="console" data-api-base="${escapeHtml(options.apiBase)}" data-stage="${escapeHtml(options.stage)}"></div>
  </body>
</html>
`;
}

/**
 * The interactive API reference: Scalar's standalone browser bundle rendering the base's OpenAPI document,
 * with "try it" requests sent straight to the API (same origin, so no proxy).
 *
 * The bundle is loaded from jsDelivr rather than served by us: it is 4.3 MB (1.3 MB gzipped), which would
 * multiply the meta Lambda's size for a page developers open now and then. The version is pinned and checked
 * with Subresource Integrity, so the CDN can serve only that exact file: people paste tokens into this page.
 * To upgrade, change the version and the hash together (`npm pack @scalar/api-reference@<version>`, then
 * `openssl dgst -sha384 -binary package/dist/browser/standalone.js | openssl base64 -A`).
 *
 * Telemetry and Scalar's AI agent (which would send the document to Scalar) are switched off.
 */
const scalarScript = {
  src: 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.js',
  integrity: 'sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK',
};

export function referencePage(openapiUrl: string, title: string): string {
  // The URL travels in an HTML attribute, read by the script through `dataset`: only HTML escaping is needed,
  // never escaping into JavaScript.
  const url = escapeHtml(openapiUrl);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
  </head>
  <body>
    <noscript>This reference needs JavaScript. The OpenAPI document itself is at <a href="${url}">${url}</a>.</noscript>
    <div id="reference" data-openapi-url="${url}"></div>
    <script src="${scalarScript.src}" integrity="${scalarScript.integrity}" crossorigin="anonymous"></script>
    <script>
      const mount = document.getElementById('reference');
      Scalar.createApiReference(mount, { url: mount.dataset.openapiUrl, telemetry: false, agent: { disabled: true } });
    </script>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

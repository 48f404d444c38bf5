import { openApiDocument } from '../../core/http/openapi.js';
import { heroBasePath, mainBasePath } from '../../core/platform/stages.js';
import { routeTable } from '../../functions/routes/index.js';

/** Any stage's: the documents' paths are relative to the base, so what a client is generated from is the same for all. */
const STAGE = 'v2-testing';

/**
 * The served OpenAPI documents the clients are generated from: the main base's (with the root's operations) and
 * the hero base's, as the service serves them.
 */
export function clientDocuments() {
  return [
    { base: 'main' as const, document: openApiDocument(routeTable, 'main', { basePath: mainBasePath(STAGE) }) },
    { base: 'hero' as const, document: openApiDocument(routeTable, 'hero', { basePath: heroBasePath(STAGE) }) },
  ];
}

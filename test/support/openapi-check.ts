import { Ajv2020 } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../core/http/openapi.js';
import type { Base } from '../../core/http/operation.js';
import { routeTable } from '../../functions/routes/index.js';

/** A base's served document (the main base unless told), as clients are generated from it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const servedDocument = (basePath: string, base: Base = 'main') => openApiDocument(routeTable, base, { basePath }) as Record<string, any>;

/**
 * The ways a real response's body departs from what the OpenAPI document gives its path (as documented,
 * without the base), method and status; [] when it conforms.
 */
export function documentErrors(document: Record<string, any>, path: string, method: string, status: number, body: unknown) {
  const response = document.paths[path]?.[method]?.responses?.[String(status)];
  if (!response) return [`${method} ${path} does not document ${status}`];
  let schema = response.content['application/json'].schema;
  if (schema.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()];
  const validate = new Ajv2020({ strict: false }).compile(schema);
  return validate(body) ? [] : validate.errors;
}

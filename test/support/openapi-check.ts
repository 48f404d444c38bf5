import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { statusOfCode } from '../../core/http/error-catalogue.js';
import { openApiDocument } from '../../core/http/openapi.js';
import type { Base } from '../../core/http/operation.js';
import { routeTable } from '../../functions/routes/index.js';

/** A base's served document (the main base unless told), as clients are generated from it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const servedDocument = (basePath: string, base: Base = 'main') => openApiDocument(routeTable, base, { basePath }) as Record<string, any>;

/** One validator for every check of an answer against the document, the document's formats (uuid, uri, email) included. */
const ajv = addFormats(new Ajv2020({ strict: false }));
/** Each response schema compiled once: compiling took more time than the requests it checked (most of it in a file of many answers). */
const validators = new WeakMap<object, ValidateFunction>();

/** The validator of a schema of the document, compiled the first time it is asked for. */
export function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

/**
 * The ways a real response's body departs from what the OpenAPI document gives its path (as documented,
 * without the base), method and status; [] when it conforms. An error answer must carry a code of the
 * catalogues (docs/api.md, "Error codes"): `error`, or `error_code` beside RFC 6749's `error` on OAuth endpoints; the
 * response's schema then holds it to the codes the document lists for the operation and status.
 */
export function documentErrors(document: Record<string, any>, path: string, method: string, status: number, body: unknown) {
  if (status >= 400) {
    const fields = body as { error?: unknown; error_code?: unknown; error_description?: unknown };
    const code = 'error_description' in fields ? fields.error_code : fields.error;
    if (typeof code !== 'string' || !statusOfCode.has(code))
      return [`${method} ${path} ${status}: the error answer carries no catalogued code (${JSON.stringify(code)})`];
  }
  const response = document.paths[path]?.[method]?.responses?.[String(status)];
  if (!response) return [`${method} ${path} does not document ${status}`];
  const schema = response.content['application/json'].schema;
  const validate = validatorOf(schema);
  return validate(body) ? [] : validate.errors;
}

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Base } from '../../core/http/operation.js';
import { clientDocuments } from './client-documents.js';
import { camel, docComment, literal, pascal, unique } from './csharp/names.js';
import { declared, Models, type Schema } from './csharp/models.js';

/** Where the Unity client keeps the C# generated from each served document. */
export const clientCsharpDir = join(import.meta.dirname, '..', '..', 'clients', 'unity', 'Runtime', 'Generated');

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const IDEMPOTENCY_KEY = 'Idempotency-Key';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  description?: string;
}

interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Schema }> }>;
  security?: unknown[];
  'x-token-kinds'?: string[];
}

interface Document {
  info: { version: string };
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';

/** The error codes an operation declares, by status: the `error` enum of each error response. */
function errorCodes(operation: Operation): [string, string[]][] {
  return Object.entries(operation.responses)
    .filter(([status]) => Number(status) >= 400)
    .map(([status, response]): [string, string[]] => {
      const error = (response.content?.[JSON_TYPE]?.schema.properties as Record<string, Schema> | undefined)?.error;
      return [status, (error?.enum as string[] | undefined) ?? []];
    })
    .filter(([, codes]) => codes.length > 0);
}

/** The C# of one operation: a method on the base's API class. */
function operationMethod(path: string, method: string, operation: Operation, fromRoot: boolean, models: Models): string {
  const name = pascal(operation.operationId);
  const params: { decl: string; optional: boolean }[] = [];
  const body: string[] = [];
  const names = new Set(['body', 'idempotencyKey', 'cancellationToken', 'request', 'response']);
  const pathParameters = new Map<string, string>();
  const queries: string[] = [];
  let idempotent = false;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'header') {
      if (parameter.name !== IDEMPOTENCY_KEY) throw new Error(`${operation.operationId}: header ${parameter.name} has no C# mapping`);
      idempotent = true;
      continue;
    }
    const identifier = unique(camel(parameter.name), names);
    const type = models.typeOf(parameter.schema, `${name}${pascal(parameter.name)}`);
    if (!['string', 'long', 'decimal', 'bool'].includes(type.cs)) throw new Error(`${operation.operationId}: parameter ${parameter.name} is not a scalar`);
    const required = parameter.in === 'path' || parameter.required === true;
    // A decimal parameter (an integer without bounds) is sent as its text.
    const cs = type.cs === 'decimal' ? 'string' : declared(type, required);
    params.push({ decl: `${cs} ${identifier}${required ? '' : ' = null'}`, optional: !required });
    if (parameter.in === 'path') pathParameters.set(parameter.name, identifier);
    else queries.push(`            request.Query(${literal(parameter.name)}, ${identifier});`);
  }
  const pathExpression = path
    .split(/(\{[^}]+\})/)
    .filter(Boolean)
    .map((part) => {
      const identifier = /^\{(.+)\}$/.exec(part)?.[1];
      return identifier ? `ApiRequest.Segment(${pathParameters.get(identifier)})` : literal(part);
    })
    .join(' + ');

  const content = operation.requestBody?.content ?? {};
  const bodyRequired = operation.requestBody?.required === true;
  if (content[JSON_TYPE] || content[FORM_TYPE]) {
    const form = !content[JSON_TYPE];
    const type = models.typeOf((content[JSON_TYPE] ?? content[FORM_TYPE])!.schema, `${name}Request`);
    params.push({ decl: `${type.cs} body${bodyRequired ? '' : ' = null'}`, optional: !bodyRequired });
    // An optional body left null is not sent (the service reads no body as `{}`).
    const write = bodyRequired ? type.write('body', 0) : type.write('body', 0).replace(/^\(body == null \? JsonValue\.Null : (.*)\)$/, '$1');
    const set = `request.${form ? 'FormBody' : 'JsonBody'} = ${write};`;
    body.push(bodyRequired ? `            ${set}` : `            if (body != null) ${set}`);
  } else if (content[MULTIPART_TYPE]) {
    const schema = content[MULTIPART_TYPE].schema;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    body.push('            request.Multipart = new MultipartBody();');
    for (const [field, property] of Object.entries(schema.properties as Record<string, Schema>)) {
      const identifier = unique(camel(field), names);
      if (property.contentMediaType) {
        // The file's name and media type beside its bytes: `fileName` and `contentType` for a field named file.
        const prefix = identifier === 'file' ? '' : identifier;
        const [fileName, contentType] = [unique(camel(`${prefix}FileName`), names), unique(camel(`${prefix}ContentType`), names)];
        params.push({ decl: `byte[] ${identifier}`, optional: false });
        params.push({ decl: `string ${fileName} = null`, optional: true }, { decl: `string ${contentType} = null`, optional: true });
        body.push(`            request.Multipart.File(${literal(field)}, ${identifier}, ${fileName}, ${contentType});`);
      } else {
        params.push({ decl: `string ${identifier}${required.has(field) ? '' : ' = null'}`, optional: !required.has(field) });
        body.push(`            request.Multipart.Field(${literal(field)}, ${identifier});`);
      }
    }
  } else if (Object.keys(content).length > 0) {
    throw new Error(`${operation.operationId}: request body ${Object.keys(content).join(', ')} has no C# mapping`);
  }
  if (idempotent) params.push({ decl: 'string idempotencyKey = null', optional: true });
  params.push({ decl: 'CancellationToken cancellationToken = default(CancellationToken)', optional: true });

  // The answer: the first 2xx's JSON body as its model, text for a page or an asset, nothing without a body.
  const success = Object.entries(operation.responses).find(([status]) => /^2/.test(status));
  const successContent = success?.[1].content ?? {};
  let returns = 'Task';
  let result = '            await Client.SendAsync(request, cancellationToken);';
  if (successContent[JSON_TYPE]) {
    const type = models.typeOf(successContent[JSON_TYPE].schema, `${name}Response`);
    returns = `Task<${declared(type, true)}>`;
    result = `            var response = await Client.SendAsync(request, cancellationToken);\n            return ${type.read('response.Json', 0)};`;
  } else if (Object.keys(successContent).length > 0) {
    returns = 'Task<string>';
    result = '            return (await Client.SendAsync(request, cancellationToken)).Text;';
  }

  const authenticated = (operation.security ?? []).length > 0;
  const kinds = operation['x-token-kinds'];
  const doc = [`${operation.summary ?? operation.operationId}: ${method.toUpperCase()} ${path} (\`${operation.operationId}\`).`];
  doc.push(authenticated ? `Bearer token: ${kinds?.join(' or ') ?? 'required'} (Client.Token).` : 'Open: no token.');
  if (idempotent) doc.push('Moves value: idempotencyKey is sent as Idempotency-Key (a new Guid when null) and reused by every retry of this call.');
  for (const [status, codes] of errorCodes(operation)) doc.push(`${status}: ${codes.join(', ')}`);
  const ordered = [...params.filter((p) => !p.optional), ...params.filter((p) => p.optional)];
  return [
    ...docComment('        ', doc),
    `        public async ${returns} ${name}Async(${ordered.map((p) => p.decl).join(', ')})`,
    '        {',
    `            var request = new ApiRequest(${literal(method.toUpperCase())}, ${pathExpression});`,
    ...(fromRoot ? ['            request.FromRoot = true;'] : []),
    ...(authenticated ? ['            request.Authenticated = true;'] : []),
    ...(idempotent ? ['            request.IdempotencyKey = idempotencyKey ?? ApiClient.NewIdempotencyKey();'] : []),
    ...queries,
    ...body,
    result,
    '        }',
  ].join('\n');
}

const USINGS = ['using System.Collections.Generic;', 'using System.Threading;', 'using System.Threading.Tasks;', 'using GamePlatform.Client;'];

function header(base: string) {
  return `// Generated by \`npm run client-csharp\` from the ${base} base's OpenAPI document. Do not edit.\n// <auto-generated />\n`;
}

/** The API class and the models of one served document. */
function baseFiles(base: Base, document: Document): { files: { file: string; text: string }[]; codes: string[] } {
  const Base = pascal(base);
  const namespace = `GamePlatform.${Base}`;
  const models = new Models([`${Base}Api`]);
  const methods: string[] = [];
  const codes: string[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    // A path the document serves from the host root (its own `servers: [{url: '/'}]`) rather than the base.
    const fromRoot = item.servers?.[0]?.url === '/';
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      if (seen.has(pascal(operation.operationId))) throw new Error(`${base}: two operations named ${pascal(operation.operationId)}`);
      seen.add(pascal(operation.operationId));
      methods.push(operationMethod(path, method, operation, fromRoot, models));
      for (const [, list] of errorCodes(operation)) codes.push(...list);
    }
  }
  const api = [
    header(base),
    ...USINGS,
    '',
    `namespace ${namespace}`,
    '{',
    ...docComment('    ', [
      `Every operation of the ${base} base (OpenAPI ${document.info.version}): one async method each, named from its operationId.`,
      'A 2xx answer is returned as its model; anything else is thrown as ApiException, after the retries of Client.Retry.',
    ]),
    `    public sealed partial class ${Base}Api`,
    '    {',
    '        public readonly ApiClient Client;',
    '',
    `        public ${Base}Api(ApiClient client) { Client = client; }`,
    '',
    `        /// <summary>The same base and transport with another bearer token.</summary>`,
    `        public ${Base}Api WithToken(string token) { return new ${Base}Api(Client.WithToken(token)); }`,
    '',
    methods.join('\n\n'),
    '    }',
    '}',
    '',
  ].join('\n');
  const modelsText = [
    header(base),
    'using System.Collections.Generic;',
    'using GamePlatform.Client;',
    '',
    `namespace ${namespace}`,
    '{',
    models.source(),
    '}',
    '',
  ].join('\n');
  return {
    files: [
      { file: `${Base}Api.cs`, text: api },
      { file: `${Base}Models.cs`, text: modelsText },
    ],
    codes,
  };
}

/** Every error code of both documents, one string constant each. */
function errorCodesFile(codes: string[]): string {
  const taken = new Set<string>();
  const constants = [...new Set(codes)].sort().map((code) => {
    const name = pascal(code);
    if (taken.has(name)) throw new Error(`two error codes named ${name}`);
    taken.add(name);
    return `        public const string ${name} = ${literal(code)};`;
  });
  return [
    header('main and hero').replace("base's OpenAPI document", "bases' OpenAPI documents"),
    'namespace GamePlatform.Client',
    '{',
    ...docComment('    ', ["The error codes the documents declare (an error answer's `error`, ApiException.ErrorCode): match on these, not on messages."]),
    '    public static class ErrorCodes',
    '    {',
    ...constants,
    '    }',
    '}',
    '',
  ].join('\n');
}

/**
 * The C# of the Unity client, generated from each served OpenAPI document (the main base's, with the root's
 * operations, and the hero base's): an API class and its models per base, and the error codes of both. The
 * paths are relative to the base, so the code is the same for every stage.
 */
export function clientCsharp(): { file: string; text: string }[] {
  const codes: string[] = [];
  const files = clientDocuments().flatMap(({ base, document }) => {
    const generated = baseFiles(base, document as unknown as Document);
    codes.push(...generated.codes);
    return generated.files;
  });
  return [...files, { file: 'ErrorCodes.cs', text: errorCodesFile(codes) }];
}

// `npm run client-csharp`: writes them.
if (process.argv[1] === import.meta.filename) {
  for (const { file, text } of clientCsharp()) writeFileSync(join(clientCsharpDir, file), text);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientDocuments } from '../tools/admin/client-documents.js';
import { clientSizes, sizeLine } from '../tools/admin/client-size.js';
import { clientTypes, clientTypesDir } from '../tools/admin/client-types.js';

/** The TypeScript client's types are generated from the served documents and committed: they must be current. */
describe('clients/ts/src/generated', () => {
  it('is what `npm run client-types` generates from the route table today', async () => {
    const generated = await clientTypes();
    expect(generated.map(({ file }) => file)).toEqual(['main.ts', 'hero.ts', 'operations.ts']);
    for (const { file, text } of generated) {
      const committed = readFileSync(join(clientTypesDir, file), 'utf8');
      expect(committed === text, `clients/ts/src/generated/${file} is out of date: run npm run client-types`).toBe(true);
    }
    // Every operation of the route table has its types, by its operationId.
    expect(generated[0]!.text).toContain('get_merchant_info: {');
    expect(generated[1]!.text).toContain('hero_config: {');
    // What the client's runtime reads: the operations that take an Idempotency-Key (those whose documents declare
    // the header) and each operation's token kinds.
    const { mainOperations, heroOperations } = await import('../clients/ts/src/generated/operations.js');
    expect(mainOperations.idempotent).toContain('POST /account/game/minus_tickets');
    expect(mainOperations.idempotent).not.toContain('POST /account/user/rechargeOrder');
    expect(heroOperations.idempotent).toEqual(['POST /heroes/upgrade-level']);
    expect(mainOperations.tokenKinds).toMatchObject({ 'POST /account/game/minus_tickets': 'server game', 'GET /account/game/tickets': 'platform server' });
    expect(mainOperations.tokenKinds).not.toHaveProperty('GET /merchant/games/rank');
  });

  it("unwrap's rule reads a success body as an envelope only where the service answers one", () => {
    // unwrap answers the `data` of a body with exactly these fields (clients/ts/src/errors.ts, Payload).
    const envelopes: Record<string, string> = { 'data,message,statusCode,totalPage': 'statusCode', 'code,data,message': 'code' };
    type Schema = { properties?: Record<string, { const?: unknown }>; required?: string[] };
    type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
    let envelopesSeen = 0;
    for (const { base, document } of clientDocuments()) {
      for (const [path, methods] of Object.entries((document as unknown as { paths: Record<string, Record<string, Operation>> }).paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          for (const [status, response] of Object.entries(operation.responses ?? {})) {
            const schema = status.startsWith('2') ? response.content?.['application/json']?.schema : undefined;
            const fields = Object.keys(schema?.properties ?? {})
              .sort()
              .join();
            const statusField = envelopes[fields];
            if (!schema || !statusField) continue;
            // Such a body is the service's envelope: every field required, its status field the answer's status.
            const where = `${base} ${method.toUpperCase()} ${path} ${status}`;
            expect({ where, required: [...(schema.required ?? [])].sort().join(), status: schema.properties![statusField]!.const }).toEqual({
              where,
              required: fields,
              status: Number(status),
            });
            envelopesSeen++;
          }
        }
      }
    }
    expect(envelopesSeen).toBeGreaterThan(50);
  });

  it("is the API's version, and its README states the bundle sizes `npm run client-size` measures today", async () => {
    const version = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    expect(version('clients/ts/package.json')).toBe(version('package.json'));
    // The formatter pads the table's cells: compared with single spaces.
    const single = (text: string) => text.replace(/ +/g, ' ');
    const readme = single(readFileSync('clients/ts/README.md', 'utf8'));
    const sizes = await clientSizes();
    for (const size of sizes) expect(readme, 'run npm run client-size and put its lines in clients/ts/README.md').toContain(single(sizeLine(size)));
    // The game's bundle is the client without the store's OAuth: smaller than the partner app's.
    expect(sizes[0]!.gzipped).toBeLessThan(sizes[1]!.gzipped);
  });

  it("the repository's README quotes its example from clients/ts/examples/readme.ts, which the type check compiles", () => {
    const readme = readFileSync('README.md', 'utf8');
    const example = readFileSync('clients/ts/examples/readme.ts', 'utf8');
    const quote = /^## Clients for games[\s\S]*?^```ts\n([\s\S]*?)^```$/m.exec(readme)?.[1];
    expect(quote, 'README.md has a TypeScript example under "Clients for games"').toBeDefined();
    expect(example.includes(quote!), "README.md's example is not clients/ts/examples/readme.ts's text").toBe(true);
  });
});

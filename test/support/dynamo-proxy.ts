import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy in front of DynamoDB Local, for jobs run the way Lambda runs them (in a process of their
 * own: test/support/scheduled.ts): the network edge is the one place a fault can reach them without a hook in
 * their code. It counts the write requests that pass (by `X-Amz-Target`), and once armed with `killAt = k` it
 * lets k writes through and answers every request after them with DynamoDB's own 500, as a process dying at
 * that point would leave the table: the first k writes made, none after. It also keeps every request that
 * passed, as sent (the bench's cold-start floor sends the same ones again: bench/first-response.ts).
 */
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem'];

export interface DynamoProxy {
  endpoint: string;
  /** Writes that passed since the last reset. */
  writes: number;
  /** Let this many more writes through, then fail everything; undefined: pass everything. */
  killAt: number | undefined;
  /** The requests that passed since the last reset: the operation (`X-Amz-Target`'s last part) and its JSON body. */
  requests: { operation: string; input: unknown }[];
  reset(): void;
  stop(): Promise<void>;
}

export async function startDynamoProxy(target: string): Promise<DynamoProxy> {
  const upstream = new URL(target);
  let dead = false;
  const server = createServer(async (incoming, outgoing) => {
    const body = await readAll(incoming);
    const operation =
      String(incoming.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    const write = WRITES.includes(operation);
    if (dead || (write && proxy.killAt !== undefined && proxy.writes >= proxy.killAt)) {
      dead = true;
      outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      outgoing.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'the job was killed here (test)' }));
      return;
    }
    if (write) proxy.writes++;
    proxy.requests.push({ operation, input: JSON.parse(body.toString('utf8') || '{}') });
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const proxy: DynamoProxy = {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    writes: 0,
    killAt: undefined,
    requests: [],
    reset() {
      proxy.writes = 0;
      proxy.requests = [];
      proxy.killAt = undefined;
      dead = false;
    },
    stop: () => new Promise((done) => server.close(() => done())),
  };
  return proxy;
}

async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

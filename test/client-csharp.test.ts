import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemTransaction } from '../docs/quickstart/wallet.js';
import { clientCsharp, clientCsharpDir } from '../tools/admin/client-csharp.js';
import { demoServerEnv, killLocalServers, onWorkersDynamo, request, startLocalServer, type LocalServer } from './support/local-server.js';
import { payThroughKit } from './support/payment-kit.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';

/**
 * The Unity client (clients/unity): its generated C# is what the route table generates today; the runtime,
 * the generated code and the example programs compile with Mono's `mcs`; the JSON reader and writer agree with
 * JavaScript's; and the example player flow (clients/unity/Example~/PlayerFlow.cs) runs under `mono` against
 * `npm start`: it signs in with zkLogin itself, its id_token from the local server's development sign-in
 * provider (clients/unity/Runtime/DevSignIn.cs; no other OpenID provider), orders tickets, completes the order
 * once the loopback chain holds the payment, has the game server spend a ticket with one Idempotency-Key sent
 * twice, and finds its win on the board; a name the provider refuses ends it with the provider's reason.
 * The sponsored claim (clients/unity/Runtime/SponsoredClaims.cs) writes the claim call's transaction kind byte for
 * byte as the Sui SDK does, and its example (Example~/SponsoredClaim.cs) redeems a settled reward against
 * `npm start` with its development chain, for a player who holds no SUI, the test signing as the player's wallet.
 *
 * Without mcs and mono the Mono checks are skipped with a notice, unless REQUIRE_MONO=1 (set by .ci/run),
 * where their absence fails the run.
 */
const UNITY = join('clients', 'unity');
// C# 5 (async/await and nothing later): the floor the client keeps, below every Unity with the .NET 4.x runtime.
const MCS_FLAGS = ['-langversion:5', '-warnaserror+', '-nologo'];
const hasTool = (tool: string, flag: string) => spawnSync(tool, [flag], { stdio: 'ignore' }).status === 0;
const available = hasTool('mcs', '--version') && hasTool('mono', '--version');
if (!available && process.env.REQUIRE_MONO === '1') throw new Error('mcs or mono is missing: install mono-mcs mono-runtime libmono-system-net-http4.0-cil');
if (!available)
  console.warn(
    'client-csharp: mcs or mono is missing, the C# compile and run checks are skipped (apt-get install mono-mcs mono-runtime libmono-system-net-http4.0-cil)',
  );

const run = promisify(execFile);

describe('clients/unity/Runtime/Generated', () => {
  it('is what `npm run client-csharp` generates from the route table today', () => {
    const generated = clientCsharp();
    expect(generated.map(({ file }) => file)).toEqual(['MainApi.cs', 'MainModels.cs', 'HeroApi.cs', 'HeroModels.cs', 'ErrorCodes.cs']);
    for (const { file, text } of generated) {
      const committed = readFileSync(join(clientCsharpDir, file), 'utf8');
      expect(committed === text, `clients/unity/Runtime/Generated/${file} is out of date: run npm run client-csharp`).toBe(true);
    }
    const [mainApi, mainModels, heroApi, , errorCodes] = generated.map(({ text }) => text);
    // One method per operation, named from its operationId; the money operations take an Idempotency-Key.
    expect(mainApi).toContain('Task<MinusTicketsResponse> MinusTicketsAsync(MinusTicketsRequest body, string idempotencyKey = null,');
    expect(mainApi).toContain('Task<RewradHistoryResponse> RewradHistoryAsync(');
    expect(heroApi).toContain('HeroConfigAsync(');
    // The document's names, typos included, are the JSON names; integers past long's range are decimals.
    expect(mainModels).toContain('o.Set("precison", JsonValue.From(Precison));');
    expect(mainModels).toMatch(/public decimal Amount \{ get; set; \}/);
    expect(errorCodes).toContain('public const string TicketsBalanceShort = "tickets.balance_short";');
    expect(errorCodes).toContain('public const string IdempotencyStillRunning = "idempotency.still_running";');
  });
});

describe('clients/unity/package.json', () => {
  it("is the UPM package of the API's version", () => {
    const root = JSON.parse(readFileSync('package.json', 'utf8'));
    const upm = JSON.parse(readFileSync(join(UNITY, 'package.json'), 'utf8'));
    expect(upm.version).toBe(root.version);
    expect(clientCsharp()[0]!.text).toContain(`(OpenAPI ${root.version})`);
  });
});

describe.skipIf(!available)('the C# client under Mono', () => {
  let build: string;
  let chain: SuiGraphQL;
  let server: LocalServer;
  let work: string;

  beforeAll(async () => {
    build = mkdtempSync(join(tmpdir(), 'client-csharp-'));
    const library = join(build, 'GamePlatform.Client.dll');
    // The runtime and the generated code as one library, as Unity compiles Runtime/; then each example against it.
    await run('mcs', [...MCS_FLAGS, '-target:library', '-r:System.Net.Http.dll', `-out:${library}`, `-recurse:${join(UNITY, 'Runtime', '*.cs')}`]);
    for (const program of ['PlayerFlow', 'JsonEcho', 'RetryCheck', 'SponsoredClaim'])
      await run('mcs', [...MCS_FLAGS, `-r:${library}`, `-out:${join(build, `${program}.exe`)}`, join(UNITY, 'Example~', `${program}.cs`)]);

    chain = await startSuiGraphQL();
    work = mkdtempSync(join(tmpdir(), 'client-csharp-server-'));
    // No OAUTH_PROVIDERS: the development sign-in provider (on by default) is the only one trusted.
    server = await startLocalServer(demoServerEnv(join(work, 'data'), chain.url));
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await killLocalServers();
    await chain?.stop();
  });

  it('reads and writes JSON as RFC 8259 says, numbers kept as written', async () => {
    const valid = [
      '{"amount":18446744073709551615,"id":-9007199254740993,"x":1.5e3,"z":-0}',
      '{"precison":9,"rewrad_history":[],"nested":{"a":[true,false,null]}}',
      '"\\u00e9\\ud83d\\ude00 \\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u0001"',
      '  [ 1 , "two" , { } , [ ] ]  ',
      '"\\ud800 alone"',
    ];
    const invalid = ['{"a":1,}', '[01]', '{"a" 1}', '"tab\there"', '1.', '-', 'nul', '{"a":1} x', "{'a':1}"];
    const input = [...valid, ...invalid].join('\n');
    const child = spawn('mono', [join(build, 'JsonEcho.exe')]);
    child.stdin.end(`${input}\n`);
    let out = '';
    for await (const chunk of child.stdout) out += chunk;
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(valid.length + invalid.length);
    valid.forEach((text, i) => {
      // The same value as JavaScript reads; numbers keep their text, so big integers are compared as written.
      expect(JSON.parse(lines[i]!)).toEqual(JSON.parse(text));
      expect(lines[i]!.match(/-?\d[\d.eE+-]*/g)?.filter((n) => n.length > 15)).toEqual(text.match(/-?\d[\d.eE+-]*/g)?.filter((n) => n.length > 15));
    });
    expect(lines[0]).toBe('{"amount":18446744073709551615,"id":-9007199254740993,"x":1.5e3,"z":-0}');
    // A lone surrogate is escaped rather than written as bytes UTF-8 cannot hold.
    expect(lines[4]).toBe('"\\ud800 alone"');
    invalid.forEach((text, i) => {
      expect(() => JSON.parse(text), text).toThrow();
      expect(JSON.parse(lines[valid.length + i]!), text).toEqual({ invalid: expect.stringMatching(/^invalid JSON at offset \d+/) });
    });
  }, 60_000);

  it('retries a 503 with Retry-After and the 409s that say so, with the same Idempotency-Key; nothing else', async () => {
    // Each scenario (the body's projectName) answers its list of refusals in turn, then 201.
    const refusal = (status: number, error: string, headers: Record<string, string> = {}) => ({ status, error, headers });
    const busy = refusal(503, 'table.busy', { 'retry-after': '0' });
    const scripts: Record<string, ReturnType<typeof refusal>[]> = {
      'busy-then-ok': [busy, busy],
      'conflict-then-ok': [refusal(409, 'data.changed_concurrently')],
      'keyed-still-running-then-ok': [refusal(409, 'idempotency.still_running'), refusal(409, 'idempotency.still_running')],
      'busy-without-retry-after': [refusal(503, 'table.busy')],
      'busy-too-long': [refusal(503, 'table.busy', { 'retry-after': '3600' })],
      'balance-short': [refusal(409, 'tickets.balance_short')],
      'busy-always': [busy, busy, busy, busy, busy],
      'plain-ok': [],
    };
    const seen: Record<string, { key: string | undefined; auth: string | undefined; type: string | undefined }[]> = {};
    const scripted = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const scenario = JSON.parse(text).projectName as string;
        const attempts = (seen[scenario] ??= []);
        attempts.push({ key: req.headers['idempotency-key'] as string | undefined, auth: req.headers.authorization, type: req.headers['content-type'] });
        const next = scripts[scenario]![attempts.length - 1];
        if (next)
          return res
            .writeHead(next.status, { 'content-type': 'application/json', ...next.headers })
            .end(JSON.stringify({ statusCode: next.status, message: `scripted ${next.error}`, error: next.error }));
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: `minus#${attempts[0]!.key}`, statusCode: 201, message: 'success', totalPage: 1 }));
      });
    });
    await new Promise<void>((resolve) => scripted.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}/v2-testing`;
      const { stdout } = await run('mono', [join(build, 'RetryCheck.exe'), base, ...Object.keys(scripts)]);
      const outcome = Object.fromEntries(
        stdout
          .trimEnd()
          .split('\n')
          .map((line) => {
            const { scenario, ...rest } = JSON.parse(line);
            return [scenario, rest];
          }),
      );
      const key = (scenario: string) => seen[scenario]![0]!.key!;
      expect(outcome).toEqual({
        'busy-then-ok': { answered: `minus#${key('busy-then-ok')}` },
        'conflict-then-ok': { answered: `minus#${key('conflict-then-ok')}` },
        'keyed-still-running-then-ok': { answered: 'minus#given-key' },
        'busy-without-retry-after': { status: 503, error: 'table.busy', message: 'scripted table.busy' },
        'busy-too-long': { status: 503, error: 'table.busy', message: 'scripted table.busy' },
        'balance-short': { status: 409, error: 'tickets.balance_short', message: 'scripted tickets.balance_short' },
        'busy-always': { status: 503, error: 'table.busy', message: 'scripted table.busy' },
        'plain-ok': { answered: `minus#${key('plain-ok')}` },
      });
      // Attempts: the retried ones until the answer, one for a refusal not retried, 1 + 3 retries at most.
      expect(Object.fromEntries(Object.entries(seen).map(([scenario, attempts]) => [scenario, attempts.length]))).toEqual({
        'busy-then-ok': 3,
        'conflict-then-ok': 2,
        'keyed-still-running-then-ok': 3,
        'busy-without-retry-after': 1,
        'busy-too-long': 1,
        'balance-short': 1,
        'busy-always': 4,
        'plain-ok': 1,
      });
      // One key per call, the same on each of its retries: generated (a Guid) unless the caller gave one.
      for (const [scenario, attempts] of Object.entries(seen)) {
        expect(new Set(attempts.map((a) => a.key)).size, scenario).toBe(1);
        expect(attempts[0]!.key).toMatch(scenario.startsWith('keyed-') ? /^given-key$/ : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(attempts.every((a) => a.auth === 'Bearer scripted' && a.type === 'application/json')).toBe(true);
      }
      const keys = Object.keys(seen)
        .filter((s) => !s.startsWith('keyed-'))
        .map(key);
      expect(new Set(keys).size).toBe(keys.length);
    } finally {
      scripted.closeAllConnections();
      await new Promise((resolve) => scripted.close(resolve));
    }
  }, 60_000);

  it('runs a player flow against npm start: sign-in, a paid order, a deduction retried with its key, the board', async () => {
    // The merchant's side, over HTTP as docs/quickstart.md does it: a project, a price level, a server token.
    const base = `${server.base}/v2-testing`;
    const demo = JSON.parse(readFileSync(join(work, 'data', 'demo-credentials.json'), 'utf8'));
    const login = await request(base, 'POST', '/merchant/login', { body: { email: demo.email, password: demo.password } });
    expect(login.status).toBe(200);
    const merchant = login.body.data.accessToken as string;
    const project = `unity-tickets-${Date.now()}`;
    const receiver = `0x${'5f3a'.repeat(16)}`;
    const created = await request(base, 'POST', '/merchant/projects', {
      token: merchant,
      body: { project_name: project, receive_address: receiver, coin_type: '0x2::sui::SUI', precison: 9 },
    });
    expect(created.status).toBe(200);
    const level = await request(base, 'POST', '/merchant/projects/levels', {
      token: merchant,
      body: { project_name: project, level: 1, amount: 100000000, tickets: 100, status: 1 },
    });
    expect(level.status).toBe(200);
    const serverToken = (await request(base, 'GET', '/merchant/token', { token: merchant })).body.data.accessToken as string;
    const matchKey = `match-${Date.now()}`;
    const playerName = `unity-player-${Date.now()}`;

    // The player's program: its settings in the environment (tokens never on a command line), the payment on stdin.
    const child = spawn('mono', [join(build, 'PlayerFlow.exe')], {
      env: {
        ...process.env,
        GP_BASE_URL: base,
        // The local server's origin: the program gets its id_token from the development sign-in provider there.
        GP_DEV_SIGN_IN: server.base,
        GP_PLAYER_NAME: playerName,
        GP_SERVER_TOKEN: serverToken,
        GP_PROJECT: project,
        GP_LEVEL: '1',
        GP_PRICE_ID: String(level.body.data.priceId),
        GP_AMOUNT: '100000000',
        GP_GAME_CODE: 'demo-arena',
        GP_MATCH_KEY: matchKey,
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const lines: any[] = [];
    for await (const text of createInterface({ input: child.stdout })) {
      const line = JSON.parse(text);
      lines.push(line);
      if (line.step === 'order') {
        // The wallet pays the order through the Payment Kit; the loopback chain holds its receipt.
        const signedIn = lines.find((l) => l.step === 'signed_in');
        const receipt = payThroughKit(chain.script, {
          nonce: line.bill_no,
          amount: line.amount_base,
          receiver,
          sender: signedIn.address,
          registry: 'ephemeral',
        });
        child.stdin.end(`${JSON.stringify({ transactionId: receipt.txDigest })}\n`);
      }
    }
    const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    const context = `${JSON.stringify(lines, null, 1)}\n${stderr}\n${server.output().split('\n').slice(-10).join('\n')}`;
    expect(code, context).toBe(0);
    const steps = (step: string) => lines.filter((l) => l.step === step);

    const [signedIn] = steps('signed_in');
    expect(signedIn.uid, context).toMatch(/^[0-9a-f-]{36}$/);
    expect(signedIn.address).toMatch(/^0x[0-9a-f]{64}$/);
    // The identity the provider signed for that name: the same sign-in over HTTP is the same player and address.
    const again = await request(base, 'POST', '/account/login/zk', { body: { id_token: await devIdToken(playerName) } });
    expect(again.status).toBe(200);
    expect({ uid: again.body.uid, address: again.body.address }).toEqual({ uid: signedIn.uid, address: signedIn.address });
    expect(steps('game')).toEqual([{ step: 'game', code: 'demo-arena', gameName: 'Demo Arena' }]);
    expect(steps('order')).toEqual([{ step: 'order', id: expect.any(Number), bill_no: expect.any(String), amount_base: '100000000', status: 0, tickets: 100 }]);
    expect(steps('order_completed')).toEqual([{ step: 'order_completed', uid: signedIn.uid, status: 1 }]);
    // 0 before the payment, 100 after it, 99 after the deduction sent twice with one key.
    expect(steps('balance').map((l) => l.balance)).toEqual([0, 100, 99]);
    expect(steps('spent')).toEqual([1, 2].map((attempt) => ({ step: 'spent', attempt, statusCode: 201, reference: `minus#${matchKey}` })));
    expect(steps('refused')).toEqual([{ step: 'refused', status: 409, error: 'tickets.balance_short', balance_short: true }]);
    const boards = Object.fromEntries(steps('board').map((l) => [l.board, l.player]));
    expect(boards).toEqual({
      gameWeekKillRank: { game_player_id: signedIn.uid, total: '3', game_player_name: 'Unity player' },
      gameWeekWinRank: { game_player_id: signedIn.uid, total: '1', game_player_name: 'Unity player' },
      gameMothKillRank: { game_player_id: signedIn.uid, total: '3', game_player_name: 'Unity player' },
      gameMothWinRank: { game_player_id: signedIn.uid, total: '1', game_player_name: 'Unity player' },
    });
    expect(lines.at(-1)).toEqual({ step: 'done' });

    // The service's own account of it, read here: one ticket taken, no token in what the program printed.
    const balance = await request(base, 'GET', '/account/game/tickets', {
      token: serverToken,
      query: { projectName: project, level: 1, userId: signedIn.uid },
    });
    expect(balance.body.data.balance).toBe(99);
    expect(JSON.stringify(lines)).not.toContain(serverToken);
    expect(JSON.stringify(lines)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  }, 180_000);

  it("ends with the provider's reason, and no trace, when the development sign-in refuses the name", async () => {
    const signIn = async (name: string, origin = server.base) => {
      const child = spawn('mono', [join(build, 'PlayerFlow.exe')], {
        env: {
          ...process.env,
          GP_BASE_URL: `${server.base}/v2-testing`,
          GP_DEV_SIGN_IN: origin,
          GP_PLAYER_NAME: name,
          // The rest of the flow's settings, never reached.
          ...Object.fromEntries(['GP_SERVER_TOKEN', 'GP_PROJECT', 'GP_GAME_CODE'].map((setting) => [setting, 'unused'])),
          GP_LEVEL: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.once('close', resolve));
      return {
        code,
        lines: stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
        stderr,
      };
    };
    // A name the provider does not take: its 400, with the reason its name page gives.
    const bad = await signIn('<bad>');
    expect(bad.code, JSON.stringify(bad)).toBe(1);
    expect(bad.lines).toEqual([
      {
        step: 'failed',
        status: 400,
        message: `development sign-in of "<bad>" at ${server.base}/dev-sign-in refused (HTTP 400): A name is 1 to 64 of a-z, 0-9, dot, dash and underscore, starting with a letter or digit.`,
      },
    ]);
    // No name at all: refused before anything is sent (the provider would answer its page asking for one).
    const blank = await signIn('  ');
    expect(blank.code, JSON.stringify(blank)).toBe(1);
    expect(blank.lines).toEqual([{ step: 'failed', status: 0, message: `development sign-in at ${server.base}/dev-sign-in: a player name is needed` }]);
    // No server at that origin: said so, with what the transport saw.
    const nowhere = await signIn('nobody', 'http://127.0.0.1:1');
    expect(nowhere.code, JSON.stringify(nowhere)).toBe(1);
    expect(nowhere.lines).toEqual([
      {
        step: 'failed',
        status: 0,
        message: expect.stringMatching(
          /^development sign-in of "nobody" at http:\/\/127\.0\.0\.1:1\/dev-sign-in got no answer: .+ \(is npm start running there/,
        ),
      },
    ]);
    for (const run of [bad, blank, nowhere]) expect(`${JSON.stringify(run.lines)}${run.stderr}`).not.toMatch(/ at [\w.]+\(|Exception/);
  }, 60_000);

  it("writes a claim call's transaction kind byte for byte as the Sui SDK's tx.build({ onlyTransactionKind: true })", async () => {
    const packageId = `0x${'ab'.repeat(32)}`;
    const verifier = `0x${'0c'.repeat(32)}`;
    const message = `5c1a${'00ff17'.repeat(60)}`;
    const signature = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256)).toString('base64');
    const sdkKind = async (tx: Transaction) => Buffer.from(await tx.build({ onlyTransactionKind: true })).toString('base64');
    // Another coin: a generic type with vector and primitive parameters, at a verifier version past one byte.
    const generic = `0x5::pool::LP<0x2::sui::SUI, vector<u8>, u64>`;
    const genericCall = new Transaction();
    genericCall.moveCall({
      target: `${packageId}::verifier::redeem`,
      typeArguments: [generic],
      arguments: [
        genericCall.sharedObjectRef({ objectId: verifier, initialSharedVersion: 1_234_567, mutable: true }),
        genericCall.pure.vector('u8', Buffer.from(message, 'hex')),
        genericCall.pure.vector('u8', Buffer.from(signature, 'base64')),
        genericCall.object.clock(),
      ],
    });
    const cases = [
      {
        // The claim as sign_code answers it: the coin in type_name's form, without 0x.
        claim: { version: 1, coin_type: `${'0'.repeat(63)}2::sui::SUI` },
        expected: await sdkKind(redeemTransaction({ packageId, verifier, message, signature })),
      },
      { claim: { version: 1_234_567, coin_type: generic }, expected: await sdkKind(genericCall) },
    ];
    const child = spawn('mono', [join(build, 'SponsoredClaim.exe'), 'kind']);
    child.stdin.end(
      `${cases.map(({ claim }) => JSON.stringify({ target: `${packageId}::verifier::redeem`, verifier, message, signature, ...claim })).join('\n')}\n`,
    );
    let out = '';
    for await (const chunk of child.stdout) out += chunk;
    expect(out.trimEnd().split('\n')).toEqual(cases.map((c) => c.expected));
  }, 60_000);

  it('redeems a reward with the stage paying the gas in one call (RedeemSponsored) against npm start and its development chain', async () => {
    // npm start without CHAIN_CONFIG: the development chain, demo-arena's funded verifier, and the stage's sponsor
    // (a key in DATA_DIR funded by the chain's faucet) sponsoring demo-arena's claims.
    const dataDir = join(mkdtempSync(join(tmpdir(), 'client-csharp-sponsor-')), 'data');
    const env = {
      DATA_DIR: dataDir,
      ...onWorkersDynamo(dataDir),
      CHAIN_CONFIG: '',
      INDEXER_INTERVAL_MS: '1000',
      SEED_ADMIN_EMAIL: '',
      SEED_ADMIN_PASSWORD: '',
    };
    let local = await startLocalServer(env);
    try {
      const base = `${local.base}/v2-testing`;
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
      const merchant = (await request(base, 'POST', '/merchant/login', { body: { email: demo.email, password: demo.password } })).body.data.accessToken;
      const rewards = await request(base, 'POST', '/merchant/games/rewards', {
        token: merchant,
        body: { game_code: 'demo-arena', board: 'wins', rewards: [{ rank: 1, amount: 500_000_000 }] },
      });
      expect(rewards.status, JSON.stringify(rewards.body)).toBe(200);
      const sponsorship = await request(base, 'GET', '/merchant/games/sponsorship', { token: merchant, query: { game_code: 'demo-arena' } });
      const target = sponsorship.body.data.target as string;
      expect(target).toMatch(/^0x[0-9a-f]{64}::verifier::redeem$/);

      // The player: a Sui wallet that signs in and is never given SUI.
      const wallet = Ed25519Keypair.generate();
      const address = wallet.toSuiAddress();
      const uid = randomUUID();
      const signIn = async () => {
        const nonce = await request(base, 'GET', '/account/nonce', { query: { address } });
        const { signature } = await wallet.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
        const tokens = await request(base, 'POST', '/account/register/chainwallet', { body: { uuid: uid, address, signature } });
        expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
        return tokens.body.platformToken.accessToken as string;
      };
      await signIn();
      // Its win this week, reported by the game's server; the boards follow a moment behind.
      const serverToken = (await request(base, 'GET', '/merchant/token', { token: merchant })).body.data.accessToken;
      const win = { game_code: 'demo-arena', game_player_id: uid, game_player_name: 'Unity sponsored', kills: 1, wins: 1 };
      expect((await request(base, 'POST', '/merchant/games/addWin', { token: serverToken, body: win })).status).toBe(200);
      await waitFor(async () => {
        const boards = await request(base, 'GET', '/merchant/games/rank', { query: { game_code: 'demo-arena' } });
        return boards.body.data?.gameWeekWinRank?.some((row: { game_player_id: string }) => row.game_player_id === uid);
      });

      // The week ends: the same server and data with its clock eight days ahead, settling every second
      // (docs/quickstart.md step 10).
      expect(await local.stop()).toBe(0);
      local = await startLocalServer({ ...env, PORT: new URL(local.base).port, CLOCK_OFFSET_MS: '691200000', SETTLEMENT_INTERVAL_MS: '1000' });
      const platform = await signIn();
      const entry = await waitFor(async () => {
        const history = await request(base, 'GET', '/chain/reward/history', { token: platform, query: { page: 0, pageSize: 1 } });
        return history.body.data?.find((e: { game_code: string }) => e.game_code === 'demo-arena');
      });
      expect(entry).toMatchObject({ rank: 1, reward_amount: 500_000_000, status: 0 });

      // The development chain's GraphQL service, where the restarted server serves it (server.json).
      const graphql = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')).devChain.graphql as string;
      const sui = new SuiGraphQLClient({ url: graphql, network: 'testnet' });
      const balance = async () => (await sui.listCoins({ owner: address })).objects.reduce((sum, coin) => sum + BigInt(coin.balance), 0n);
      expect(await balance()).toBe(0n);

      // The C# program redeems; it asks the test, the player's wallet, to sign the transaction.
      const redeem = async (signer: Ed25519Keypair = wallet) => {
        const child = spawn('mono', [join(build, 'SponsoredClaim.exe')], {
          env: {
            ...process.env,
            GP_BASE_URL: base,
            GP_PLATFORM_TOKEN: platform,
            GP_ENTRY_ID: String(entry.id),
            GP_TARGET: target,
            // Every shared object of the development chain starts at version 1.
            GP_VERIFIER_VERSION: '1',
            GP_GRAPHQL_URL: graphql,
          },
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        const lines: any[] = [];
        for await (const text of createInterface({ input: child.stdout })) {
          const line = JSON.parse(text);
          lines.push(line);
          if (line.step === 'sign') {
            const { signature } = await signer.signTransaction(Buffer.from(line.transaction, 'base64'));
            child.stdin.write(`${JSON.stringify({ signature })}\n`);
          }
        }
        const code = await new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
        return { code, lines, context: `${JSON.stringify(lines)}\n${stderr}\n${local.output().split('\n').slice(-10).join('\n')}` };
      };
      // Signed by another key than the player's: the chain refuses it, and the program says why.
      const refused = await redeem(Ed25519Keypair.generate());
      expect(refused.code, refused.context).toBe(1);
      expect(refused.lines.map((l) => l.step)).toEqual(['sign', 'failed']);
      expect(refused.lines[1]).toMatchObject({
        chain: true,
        digest: expect.any(String),
        message: expect.stringMatching(/^the chain refused the sponsored claim: .+/),
      });
      expect(await balance()).toBe(0n);

      // Signed by the player: the same transaction (still pending), executed.
      const first = await redeem();
      expect(first.code, first.context).toBe(0);
      expect(first.lines.map((l) => l.step)).toEqual(['sign', 'redeemed']);
      const [{ digest }] = first.lines.slice(-1);
      expect(digest).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
      // Paid on chain to the player, who held no SUI: the sponsor paid the gas.
      expect(await balance()).toBe(500_000_000n);
      const executed = await sui.getTransaction({ digest, include: { events: true } });
      expect(JSON.stringify(executed)).toContain(String(entry.id));

      // A second attempt: refused by the platform before anything is signed.
      const second = await redeem();
      expect(second.code, second.context).toBe(1);
      expect(second.lines).toEqual([{ step: 'failed', status: 409, error: 'sponsor.already_paid', message: expect.stringContaining(String(entry.id)) }]);
      expect(await balance()).toBe(500_000_000n);
    } finally {
      await local.stop();
    }
  }, 300_000);

  /** What `read` answers once it answers something truthy, asked every 500 ms for up to 60 s. */
  async function waitFor<T>(read: () => Promise<T>): Promise<NonNullable<T>> {
    for (let attempt = 1; ; attempt++) {
      const value = await read();
      if (value) return value as NonNullable<T>;
      if (attempt === 120) throw new Error(`not there after 60 s: ${read}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** An id_token for `name` from the development sign-in provider, as the test gets one over HTTP: the redirect's fragment. */
  async function devIdToken(name: string): Promise<string> {
    const query = new URLSearchParams({ client_id: 'local-game', response_type: 'id_token', redirect_uri: 'http://127.0.0.1:9/signed-in', login_hint: name });
    const answer = await fetch(`${server.base}/dev-sign-in/authorize?${query}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    return new URLSearchParams(new URL(answer.headers.get('location')!).hash.slice(1)).get('id_token')!;
  }
});

import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import { createDocumentClient } from '../core/platform/db.js';
import type { Deps } from '../core/platform/deps.js';
import { diskFileStore } from '../core/platform/files.js';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { createTokenService, generateSigningJwk, type SigningJwk } from '../core/platform/tokens.js';
import { ensureTable } from '../functions/local/dynamo.js';
import { accountWithToken, merchantWithToken } from '../test/support/merchants.js';

export { accountWithToken, merchantWithToken };

export interface BenchDeps extends Deps {
  endpoint: string;
  signingKey: SigningJwk;
  filesDir: string;
}

/** Deps as test/support/deps.ts builds them (fresh table, signing key and file folder), outside vitest. */
export async function createBenchDeps(endpoint: string): Promise<BenchDeps> {
  const table = `bench-${randomUUID()}`;
  await ensureTable(endpoint, table);
  const stage = LOCAL_STAGE;
  const signingKey = await generateSigningJwk();
  const filesDir = mkdtempSync(join(tmpdir(), 'bench-files-'));
  const now = () => new Date();
  return {
    stage,
    production: false,
    db: createDocumentClient({ endpoint }),
    table,
    files: diskFileStore(filesDir),
    tokens: await createTokenService({ signingKey, issuer: `game-platform/${stage}`, now }),
    now,
    endpoint,
    signingKey,
    filesDir,
  };
}

let codes = 0;
export const newCode = () => `bench-${++codes}-${Date.now().toString(36)}`;

export const gamePayload = (code: string) => ({
  code,
  game_name: `Name of ${code}`,
  describe: 'A game',
  logo: 'merchant/1/logo.png',
  coverImg: 'merchant/1/cover.png',
  dev: 'Dev Team',
  genre: 'rpg',
  platform: ['web'],
  tags: ['fun'],
  images: ['merchant/1/a.png'],
  link: { web: 'https://play.example.com' },
  game_url: 'https://play.example.com',
  releaseDate: '2026-05-01',
});

type Owner = Awaited<ReturnType<typeof merchantWithToken>>;

/** A game of the owner's merchant, made through the domain (live when the merchant is active). */
export const gameOf = (deps: Deps, owner: Owner, code = newCode()) => createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));

/** An active merchant with `games` games. */
export async function merchantWithGames(deps: Deps, games: number, status?: number) {
  const owner = await merchantWithToken(deps, status);
  const made = [];
  for (let i = 0; i < games; i++) made.push(await gameOf(deps, owner));
  return { ...owner, games: made };
}

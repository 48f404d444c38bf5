import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAppleSettings, type AppleSettings } from '../../core/app-stores/apple-settings.js';
import { parseGoogleSettings, type GoogleSettings } from '../../core/app-stores/google-settings.js';
import { chainFromSetting } from '../../core/chain/source.js';
import type { Chain } from '../../core/chain/types.js';
import { parseOAuthProviders, type OAuthProvider } from '../../core/identity/id-tokens.js';
import { parseStoreKeys, type StoreKeys } from '../../core/partner-store/regions.js';
import { SNAPSHOT_INTERVAL_MS } from '../../core/rankings/rank-snapshots.js';
import { createClaimSigner, type ClaimSigner } from '../../core/rewards/claim-key.js';
import { type GasSponsor, sponsorFromSetting } from '../../core/sponsorship/sponsor-key.js';
import { email } from '../../core/shared/fields.js';
import { configuredDynamo, type DynamoConnection } from './dynamo.js';
import { StartRefused } from './start-refused.js';

/**
 * The local server's settings (README.md, "The local server"), every variable it reads, each read and checked
 * before anything is started: a setting that does not parse refuses the start with one line naming the
 * variable and what is wrong (all such lines at once, so one start shows every mistake). A blank variable counts
 * as unset. A line never repeats a JSON setting's text, which may hold keys; the numbers' does.
 */
export interface LocalSettings {
  port: number;
  host: string;
  dataDir: string;
  /** AWS_ENDPOINT_URL_DYNAMODB's DynamoDB; undefined: the embedded DynamoDB Local. */
  dynamo: DynamoConnection | undefined;
  /** DYNAMODB_TABLE: the table the server keeps everything in, created when missing. */
  table: string;
  seedAdmin: { email: string; password: string } | undefined;
  chain: Chain | undefined;
  /** CHAIN_CONFIG unset and DEV_CHAIN not `off`: the development chain (tools/local/dev-chain) stands in. */
  devChain: boolean;
  appStore: AppleSettings | undefined;
  googlePlay: GoogleSettings | undefined;
  /** STORE_KEYS; undefined: the keys generated into DATA_DIR. */
  storeKeys: StoreKeys | undefined;
  /** CLAIM_SIGNING_KEY's signer; undefined: the key generated into DATA_DIR. */
  claims: ClaimSigner | undefined;
  /** SPONSOR_KEY's sponsor; undefined: on the development chain, a key generated into DATA_DIR and funded by its faucet. */
  sponsor: GasSponsor | undefined;
  intervalsMs: { settlement: number; rankStream: number; rankSnapshots: number; deletions: number; indexer: number };
  clockOffsetMs: number;
  oauthProviders: OAuthProvider[];
  /** DEV_SIGN_IN not `off`: the development sign-in provider (tools/local/dev-sign-in.ts) is served and trusted. */
  devSignIn: boolean;
  /** A console built elsewhere; undefined: the server builds it into DATA_DIR. */
  consoleAssetsDir: string | undefined;
}

/** The longest pause a timer takes: a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

export async function readLocalSettings(env: NodeJS.ProcessEnv): Promise<LocalSettings> {
  const problems: string[] = [];
  const given = (variable: string) => (env[variable]?.trim() ? env[variable] : undefined);
  /** The variable parsed, or undefined when unset or wrong (then its line is noted). */
  async function setting<T>(variable: string, parse: (value: string) => T | Promise<T>, labels: string[] = []): Promise<T | undefined> {
    const value = given(variable);
    if (value === undefined) return undefined;
    try {
      return await parse(value);
    } catch (error) {
      problems.push(problemLine(variable, error, labels));
      return undefined;
    }
  }
  const milliseconds = integerIn(1, MAX_TIMER_MS, `milliseconds from 1 to ${MAX_TIMER_MS}`);

  const port = (await setting('PORT', integerIn(1, 65_535, 'a port number from 1 to 65535'))) ?? 3000;
  const host = given('HOST')?.trim() ?? '127.0.0.1';
  const dataDir = given('DATA_DIR') ?? '.data';
  const endpoint = await setting('AWS_ENDPOINT_URL_DYNAMODB', httpUrl);
  const table = (await setting('DYNAMODB_TABLE', tableName)) ?? 'game-platform';
  const seedAdmin = seedAdminOf(given('SEED_ADMIN_EMAIL'), given('SEED_ADMIN_PASSWORD'), problems);
  const chain = await setting('CHAIN_CONFIG', chainFromSetting, ['chain config']);
  const devChain = await setting('DEV_CHAIN', oneOf(['on', 'off']));
  const appStore = await setting('APPLE_CONFIG', parseAppleSettings, ['apple config']);
  const googlePlay = await setting('GOOGLE_CONFIG', parseGoogleSettings, ['google config']);
  const storeKeys = await setting('STORE_KEYS', parseStoreKeys, ['store keys']);
  const claims = await setting('CLAIM_SIGNING_KEY', createClaimSigner, ['claim key']);
  const sponsor = await setting('SPONSOR_KEY', sponsorFromSetting, ['sponsor key', 'sponsor settings']);
  const settlement = (await setting('SETTLEMENT_INTERVAL_MS', milliseconds)) ?? 60_000;
  const rankStream = (await setting('RANK_STREAM_INTERVAL_MS', milliseconds)) ?? 1_000;
  const rankSnapshots = (await setting('RANK_SNAPSHOT_INTERVAL_MS', milliseconds)) ?? SNAPSHOT_INTERVAL_MS;
  const deletions = (await setting('DELETIONS_INTERVAL_MS', milliseconds)) ?? 60_000;
  const clockOffsetMs =
    (await setting('CLOCK_OFFSET_MS', integerIn(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer number of milliseconds'))) ?? 0;
  const indexer = (await setting('INDEXER_INTERVAL_MS', milliseconds)) ?? 10_000;
  const oauthProviders = (await setting('OAUTH_PROVIDERS', parseOAuthProviders, ['OAuth providers'])) ?? [];
  const devSignIn = await setting('DEV_SIGN_IN', oneOf(['on', 'off']));
  const consoleAssetsDir = await setting('CONSOLE_ASSETS_DIR', builtConsole);
  if (problems.length > 0) throw new StartRefused(problems);
  return {
    port,
    host,
    dataDir,
    dynamo: endpoint ? configuredDynamo(env) : undefined,
    table,
    seedAdmin,
    chain,
    devChain: chain === undefined && given('CHAIN_CONFIG') === undefined && devChain !== 'off',
    appStore,
    googlePlay,
    storeKeys,
    claims,
    sponsor,
    intervalsMs: { settlement, rankStream, rankSnapshots, deletions, indexer },
    clockOffsetMs,
    oauthProviders,
    devSignIn: devSignIn !== 'off',
    consoleAssetsDir,
  };
}

/**
 * One line for a setting's error: the variable, then the parser's message (the parsers are shared with the
 * deployed stage, whose messages start with their own label, which the variable replaces). JSON that does not
 * parse is said so, without the parser's message: it quotes the text.
 */
function problemLine(variable: string, error: unknown, labels: string[]): string {
  const message = (error instanceof SyntaxError ? 'not valid JSON' : error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  for (const label of labels) {
    const rest = message.slice(label.length);
    if (message.startsWith(label) && (rest.startsWith(': ') || rest.startsWith('['))) return `${variable}${rest}`;
  }
  return `${variable}: ${message}`;
}

/** An integer of the range, written as one (no fraction, exponent or unit), else an error saying what was expected. */
function integerIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const text = value.trim();
    const number = Number(text);
    if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(number) || number < min || number > max) {
      throw new Error(`expected ${what}, got ${JSON.stringify(value.slice(0, 40))}`);
    }
    return number;
  };
}

/** One of the words given, else an error listing them. */
function oneOf<Word extends string>(words: readonly Word[]) {
  return (value: string): Word => {
    const word = value.trim() as Word;
    if (!words.includes(word)) throw new Error(`expected ${words.join(' or ')}, got ${JSON.stringify(value.slice(0, 20))}`);
    return word;
  };
}

function httpUrl(value: string): string {
  const text = value.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Said below.
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(`expected an http(s) URL such as http://localhost:8000, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  return text;
}

/** A name DynamoDB takes for a table. */
function tableName(value: string): string {
  const text = value.trim();
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(text)) {
    throw new Error(`expected a table name of 3 to 255 letters, digits, "_", "-" or ".", got ${JSON.stringify(text.slice(0, 80))}`);
  }
  return text;
}

/** SEED_ADMIN_EMAIL and SEED_ADMIN_PASSWORD: both or neither, an address and a password the sign-in accepts. */
function seedAdminOf(address: string | undefined, password: string | undefined, problems: string[]): LocalSettings['seedAdmin'] {
  if (address === undefined && password === undefined) return undefined;
  if (password === undefined) problems.push('SEED_ADMIN_PASSWORD: unset, while SEED_ADMIN_EMAIL is set (set both, or neither)');
  if (address === undefined) problems.push('SEED_ADMIN_EMAIL: unset, while SEED_ADMIN_PASSWORD is set (set both, or neither)');
  if (address !== undefined && !email.safeParse(address.trim()).success) problems.push('SEED_ADMIN_EMAIL: expected an email address');
  if (password !== undefined && (password.length < 8 || password.length > 256)) problems.push('SEED_ADMIN_PASSWORD: expected 8 to 256 characters');
  return address !== undefined && password !== undefined ? { email: address.trim(), password } : undefined;
}

/** CONSOLE_ASSETS_DIR: a folder holding a built console (console/build.ts), as a deploy names it. */
function builtConsole(dir: string): string {
  if (!existsSync(join(dir, 'console.js')) || !existsSync(join(dir, 'console.css'))) {
    throw new Error(`${dir} holds no built console (console.js and console.css); unset it, and the server builds one into DATA_DIR`);
  }
  return dir;
}

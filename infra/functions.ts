import { entryOf, functionNeeds, type DeployedFunction, type Need } from '../functions/deployed.js';
import { routeTable } from '../functions/routes/index.js';
import { isProductionStage } from '../core/platform/stages.js';
import { PACKAGE_FILES } from '../core/http/reference-assets.js';
import {
  appleConfig,
  googleConfig,
  chainConfig,
  claimSigningKey,
  sponsorKey,
  cursorKey,
  oauthProviders,
  storeKeys,
  tokenPublicKeys,
  tokenSigningKey,
  vendorSigningKey,
} from './secrets.js';
import { FILES_URL, HERO_API_URL } from '../core/http/console-page.js';
import { consoleAssets } from './console.js';
import { heroApiUrl } from './gateways.js';
import { files } from './storage.js';
import { table } from './table.js';

/**
 * One Lambda per operation group that has at least one route in the route table (a group that lists no
 * operations is not deployed). The meta group is one function although it appears on both bases.
 */
const deployedGroups = [...new Set(routeTable.filter((g) => Object.keys(g.ops).length > 0).map((g) => g.group))];

/** Component name of a group's function: `third-pay` -> `ThirdPay` (SST names are letters and digits). */
export const functionName = (group: string) =>
  group
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * The component each need of functions/deployed.ts is read from. Linking grants the permissions that go with it
 * (DynamoDB on the table, S3 on the bucket) and nothing else: a function gets only what its needs name.
 */
const components: Record<Need, unknown> = {
  table,
  files,
  issueTokens: tokenSigningKey,
  verifyTokens: tokenPublicKeys,
  vendorKey: vendorSigningKey,
  oauthProviders,
  chain: chainConfig,
  claimKey: claimSigningKey,
  sponsorKey,
  appStore: appleConfig,
  googlePlay: googleConfig,
  storeKeys,
  cursorKey,
};

/** The links of a deployed function (a group's, or a scheduled job's): the components of its declared needs. */
export function linksOf(name: string): unknown[] {
  const needs = (functionNeeds as Record<string, readonly Need[]>)[name];
  if (!needs) throw new Error(`functions/deployed.ts declares no needs for ${name}: add it to functionNeeds`);
  return needs.map((need) => components[need]);
}

/**
 * Reserved concurrency of the functions that move money, on production stages. Reserving does two things: the
 * function always has that many concurrent executions, however busy the rest of the account is (a flood of
 * logins or score reports cannot starve payments), and it never has more (a flood of payments cannot take the
 * account's whole pool, and the table's hot items see a bounded number of writers: docs/performance.md).
 *
 * - pay (recharge orders, orderComplete crediting tickets, minus_tickets, vendor goods orders): 200. The main
 *   API's production limit of 4,000 req/s at ~50 ms per request is ~200 at once.
 * - hero (upgrades spend tickets, grants) and partner-store (grants, adoptions and feedings spend currencies):
 *   100 each.
 * - third-pay (App Store and Google Play purchases and notifications, which call Apple's and Google's APIs, a few
 *   hundred ms each): 50, ~100-150 purchases a second.
 * - inner (stranded payment credits and refunds, vendor signatures; otherwise the consoles): 50.
 * Together 500 of the account's default 1,000; Lambda keeps at least 100 unreserved, and the rest (sign-in,
 * score reports, meta, the scheduled jobs) share the other 500. boards reserves nothing: a reservation is also a
 * ceiling, and its score reports, like chain's submitgamescore, must scale with a game's shards
 * (docs/performance.md "Leaderboards at scale"); its claim signatures are a few per player and season. An account below 1,000 needs its quota raised
 * before a production deploy (README, "Deploy a stage").
 *
 * Other stages reserve nothing: a new account's limit can be as low as 10, where any reservation is refused,
 * and several dev stages sharing an account would each take their share for nothing.
 * test/infra.test.ts ("reserved concurrency") holds these values per stage.
 */
const reservedOnProduction: Partial<Record<DeployedFunction, number>> = {
  pay: 200,
  hero: 100,
  'partner-store': 100,
  'third-pay': 50,
  inner: 50,
};

const concurrencyOf = (name: DeployedFunction) => {
  const reserved = isProductionStage($app.stage) ? reservedOnProduction[name] : undefined;
  return reserved === undefined ? {} : { concurrency: { reserved } };
};

/**
 * The API reference's files (core/http/reference-assets.ts), copied from the installed swagger-ui-dist (the
 * version package-lock.json pins) into the meta function's package, where its code finds them through
 * REFERENCE_ASSETS_DIR (Lambda runs in the package's folder). 1.9 MB more in the package (about 0.5 MB zipped);
 * read on the first request for them, so cold start is unchanged (docs/api.md "The API reference").
 */
export const REFERENCE_ASSETS_DIR = 'reference';
/**
 * What the meta function serves beyond its routes: the API reference's files, and the operator console's
 * (infra/console.ts) with the hero API's URL, which the console calls for the hero game's configuration, and the
 * Files bucket's, whose images it shows; both named in its page's policy (docs/console.md).
 */
const metaAssets = {
  copyFiles: [
    ...Object.keys(PACKAGE_FILES).map((file) => ({ from: `node_modules/swagger-ui-dist/${file}`, to: `${REFERENCE_ASSETS_DIR}/${file}` })),
    ...consoleAssets.copyFiles,
  ],
  // The Files bucket's public URL: the console shows stored images from it (its page's policy names it).
  environment: { REFERENCE_ASSETS_DIR, ...consoleAssets.environment, [HERO_API_URL]: heroApiUrl, [FILES_URL]: $interpolate`https://${files.domain}` },
};

/** How every Lambda of the stage is built and linked (the groups here, the scheduled jobs in infra/jobs.ts). */
export const functionArgs = (name: DeployedFunction) => ({
  handler: `${entryOf(name)}.handler`,
  architecture: 'arm64' as const,
  // Node 24 is the Active LTS line and a Lambda runtime (SST 4's default; pinned so upgrades are deliberate).
  runtime: 'nodejs24.x' as const,
  // Splitting puts what is imported dynamically (the S3 client, the logger, the OpenAPI generator) in chunks
  // of their own, loaded on first use instead of at cold start.
  nodejs: { format: 'esm' as const, minify: true, splitting: true },
  link: linksOf(name),
  ...concurrencyOf(name),
  ...(name === 'meta' ? metaAssets : {}),
});

export const functions = Object.fromEntries(
  deployedGroups.map((group) => [group, new sst.aws.Function(functionName(group), functionArgs(group as DeployedFunction))]),
);

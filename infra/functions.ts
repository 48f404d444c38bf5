import { routeTable } from '../functions/routes/index.js';
import { secrets } from './secrets.js';
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

/** How every Lambda of the stage is built and linked (the groups here, the scheduled jobs in infra/jobs.ts). */
export const functionArgs = (handler: string) => ({
  handler,
  architecture: 'arm64' as const,
  // Node 24 is the Active LTS line and a Lambda runtime (SST 4's default; pinned so upgrades are deliberate).
  runtime: 'nodejs24.x' as const,
  // Splitting puts what is imported dynamically (the S3 client, the logger, the OpenAPI generator) in chunks
  // of their own, loaded on first use instead of at cold start.
  nodejs: { format: 'esm' as const, minify: true, splitting: true },
  link: [table, files, ...secrets],
});

export const functions = Object.fromEntries(
  deployedGroups.map((group) => [group, new sst.aws.Function(functionName(group), functionArgs(`functions/${group}.handler`))]),
);

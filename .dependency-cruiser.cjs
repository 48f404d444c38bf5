/**
 * The layers of core/ and who may import whom (docs/architecture.md). `npm run check:layers` checks them,
 * type-only imports included; .ci/run calls it after the type check.
 *
 * From the bottom up: core/shared and core/platform; then the domains in DOMAIN_ORDER, each importing only
 * domains before it; then core/deps.ts (the full deps) and core/http; then functions/ and infra/ (what is deployed);
 * then tools/ (the operator CLI, the generators and the local server), which may import anything and which nothing
 * deployed imports.
 */

/** The domains, lowest first: a domain may import the ones before it, never one after it. */
const DOMAIN_ORDER = [
  'merchants',
  'games',
  'identity',
  'access',
  'tickets',
  'chain',
  'payments',
  'app-stores',
  'goods',
  'rankings',
  'rewards',
  'leagues',
  'sponsorship',
  'heroes',
  'partner-store',
  'privacy',
];

const anyOf = (names) => `^core/(${names.join('|')})/`;

/** One rule per domain: it imports none of the domains above it, so core's folders form no cycle. */
const domainOrder = DOMAIN_ORDER.slice(0, -1).map((domain, i) => ({
  name: `core-folders-form-no-cycle-${domain}`,
  comment: `${domain} imports only the domains below it (DOMAIN_ORDER in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: `^core/${domain}/` },
  to: { path: anyOf(DOMAIN_ORDER.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no file imports one that imports it back, directly or through others (type-only imports count)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-and-shared-import-no-domain',
      comment: 'core/platform and core/shared are below every domain: they import only each other',
      severity: 'error',
      from: { path: '^core/(platform|shared)/' },
      to: { path: '^(core|functions|infra|tools)/', pathNot: '^core/(platform|shared)/' },
    },
    {
      name: 'console-imports-client-and-models-only',
      comment:
        "the console's browser code imports the typed client, the domains' models and names, the seasons' calendar and core/shared, never the server's code",
      severity: 'error',
      from: { path: '^console/src/' },
      to: { path: '^(core|functions|infra|tools)/', pathNot: '^core/([^/]+/(models|names)[.]ts|rankings/seasons[.]ts|shared/)' },
    },
    {
      name: 'domains-import-no-http-functions-infra',
      comment: 'a domain is below the HTTP layer, the full deps (core/deps.ts), the functions and the infrastructure',
      severity: 'error',
      from: { path: anyOf(DOMAIN_ORDER) },
      to: { path: '^(core/http/|core/deps[.]ts$|functions/|infra/)' },
    },
    {
      name: 'core-imports-no-functions-infra',
      comment: 'core/ (the HTTP layer and core/deps.ts included) never imports the functions or the infrastructure',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(functions|infra)/' },
    },
    {
      name: 'deployed-code-imports-no-tools',
      comment:
        'core/, functions/ and infra/ (what is deployed) never import tools/ (the operator CLI, the generators, the local server); tools may import anything',
      severity: 'error',
      from: { path: '^(core|functions|infra)/' },
      to: { path: '^tools/' },
    },
    {
      name: 'full-deps-imports-no-http',
      comment: "core/deps.ts assembles the domains' deps below the HTTP layer, which imports it",
      severity: 'error',
      from: { path: '^core/deps[.]ts$' },
      to: { path: '^core/http/' },
    },
    ...domainOrder,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|bench/out|[.]sst)/' },
    // Type-only imports (`import type`) are dependencies too: a type cycle is a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};

// Imports flow one way (CONTRIBUTING.md, "Dependency rules"; drawn in docs/architecture.md, "Layers and the module
// order"). `npm run lint` runs these rules over server/src and web/src; scripts/dependency-rules.test.ts
// proves that a cycle, an upward import and a reach into another module's repository fail them.

/**
 * The server's modules, bottom first: a module may import only modules before it here. The
 * event's state at the bottom; then the domain nouns, each above what it reads; then what
 * composes them (admin, api-docs); then the listeners of the port (events, webhooks), which
 * nothing imports to publish; last metrics, which reads the gauges of everything below it.
 */
const SERVER_MODULE_ORDER = [
  'event-state',
  'audit',
  'divisions',
  'hints',
  'awards',
  'scoreboard',
  'users',
  'auth',
  'accounts',
  'teams',
  'moderation',
  'leaderboard',
  'challenges',
  'files',
  'challenge-archive',
  'writeups',
  'submission-log',
  'submissions',
  'ratings',
  'instances',
  'settings',
  'site',
  'announcements',
  'event-archive',
  'first-view',
  'admin',
  'api-docs',
  'events',
  'webhooks',
  'metrics',
];

const MODULES = '^server/src/modules/';
const alternatives = (names) => `(${names.map((n) => n.replace(/[-]/g, '\\-')).join('|')})`;

/** One rule per module: nothing above it in the order. */
const upwardRules = SERVER_MODULE_ORDER.slice(0, -1).map((name, i) => ({
  name: `module-order:${name}`,
  severity: 'error',
  comment: `${name} may import only the modules below it (SERVER_MODULE_ORDER in .dependency-cruiser.cjs)`,
  from: { path: `${MODULES}${name}/`, pathNot: '\\.test\\.tsx?$' },
  to: { path: `${MODULES}${alternatives(SERVER_MODULE_ORDER.slice(i + 1))}/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle, between modules or inside one.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'module-declared',
      severity: 'error',
      comment: 'Every server module has its place in SERVER_MODULE_ORDER (.dependency-cruiser.cjs).',
      // Reported where something outside the new module imports it (app.ts registers it).
      from: { pathNot: `${MODULES}(?!${alternatives(SERVER_MODULE_ORDER)}/)[^/]+/` },
      to: { path: `${MODULES}(?!${alternatives(SERVER_MODULE_ORDER)}/)[^/]+/` },
    },
    ...upwardRules,
    {
      name: 'no-foreign-repo',
      severity: 'error',
      comment: "A module reaches another module's data through its services, never its *.repo.ts.",
      // Tests may arrange their data through any repository.
      from: { path: `${MODULES}([^/]+)/`, pathNot: '\\.test\\.ts$' },
      to: { path: `${MODULES}[^/]+/[^/]+\\.repo\\.ts$`, pathNot: `${MODULES}$1/` },
    },
    {
      name: 'repo-imports-no-service',
      severity: 'error',
      comment: 'routes -> services -> repositories: a repository imports no service or route.',
      from: { path: '\\.repo\\.ts$' },
      to: { path: `${MODULES}.+\\.(service|routes)\\.ts$` },
    },
    {
      name: 'service-imports-no-route',
      severity: 'error',
      comment: 'routes -> services -> repositories: only routes (and app.ts) import routes.',
      from: { path: MODULES, pathNot: '(\\.routes|\\.test)\\.ts$' },
      to: { path: `${MODULES}.+\\.routes\\.ts$` },
    },
    {
      name: 'foundations-import-no-module',
      severity: 'error',
      comment: 'lib/ and db/ sit below every module: framework-free helpers and the schema.',
      from: { path: '^server/src/(lib|db)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/(modules|plugins|app\\.ts)' },
    },
    {
      name: 'modules-import-no-app',
      severity: 'error',
      comment: 'app.ts composes the modules; no module imports it.',
      from: { path: MODULES, pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/(app|main)\\.ts$' },
    },
    {
      name: 'web-feature-isolation',
      severity: 'error',
      comment:
        'A web feature imports shared code (components, lib) and its own folder, never another feature.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web-shared-imports-no-feature',
      severity: 'error',
      comment: 'components/ and lib/ are shared: they import no feature and not the app.',
      from: { path: '^web/src/(components|lib)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'web-feature-imports-no-app',
      severity: 'error',
      comment: 'The app (router, pages) composes the features; a feature does not import it.',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    // An absolute name: TypeScript resolves the file's `extends` from it.
    tsConfig: { fileName: `${__dirname}/server/tsconfig.check.json` },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};

// For the rules' test and docs: the order itself (not part of dependency-cruiser's schema, so not
// enumerable, which its configuration check ignores).
Object.defineProperty(module.exports, 'SERVER_MODULE_ORDER', {
  value: SERVER_MODULE_ORDER,
  enumerable: false,
});

import { Edge, findCycle, importGraph, importSpecifiers, isLocal, loadedWith, moduleOf, packageOf } from '../test/setup/import-graph';

/**
 * The arrows between modules point one way, and this file is what makes that executable: every
 * import of every non-spec file under `src/` and `fixtures/`, resolved to the module it lands in
 * and held to the picture below. Specs are left out on purpose: a test may reach into whatever it
 * tests. It reads files only, so it runs in the unit tier.
 *
 * The picture (docs/development.md, "Module rules") has three floors. The platform (`config`,
 * `schema`, `common`, `database`, `tracing`) knows no PHI policy and no feature. The shared
 * mechanisms sit on it: `cohort` (the only SQL over patient data), `phi`, `audit`, `auth`, `access`,
 * `clinical`, `terminology`, `measure-packages`, `queue`, `redis`, `model-tools`, `rate-limit`. The features sit on those,
 * and the composition roots (`app`: src/*.ts, and `cli`) on everything. A rule lists whole modules,
 * never one file of another: an arrow the picture does not have is a design change to make in the
 * docs and here together, not an entry to add. How the graph is read: `test/setup/import-graph.ts`.
 */


const PLATFORM = ['common', 'config', 'database', 'tracing'] as const;
const FEATURES = ['tools', 'agent', 'mcp', 'approvals', 'patients', 'population', 'measure-results', 'fhir-import', 'generator', 'deqm'] as const;

/**
 * Who may import whom, besides its own files. `*` means any module of the service. Read bottom-up,
 * the table is a layering; `declares arrows that point one way` proves it has no cycle.
 */
const RULES: Record<string, readonly string[] | '*'> = {
  app: '*',
  cli: '*',
  // Platform.
  config: [],
  // The CHECK-constraint helper and the SQL session type every module that declares tables uses: a leaf.
  schema: [],
  // HTTP plumbing, validation, logging (and its redaction), the role names.
  common: ['config'],
  // The data source, migrations and schema checks; the entities are handed to it by the composition roots.
  database: ['common', 'config', 'schema'],
  // Starts before anything else is loaded (it must patch http, pg and ioredis first): a leaf.
  tracing: [],

  // Shared mechanisms.
  redis: ['common', 'config'],
  // The official value-set expansions and the one membership function: data, importing nothing.
  terminology: [],
  // The cohort schema, its vocabularies, the only SQL over patient data; the identity cache hears identity changes through the database's notifications.
  cohort: ['common', 'config', 'database', 'schema'],
  // Projection (minimum necessary), pseudonyms and the identifier scrub over the cohort's rows.
  phi: ['cohort', 'common', 'config'],
  audit: ['common', 'config', 'schema'],
  auth: ['audit', 'cohort', 'common', 'config', 'phi'],
  // Every access rule, break glass and its report, the request plumbing, the one audited access.
  access: ['audit', 'auth', 'cohort', 'common', 'config', 'phi', 'schema'],
  // The pure clinical engines over a chart: eCQMs, missing data, the readmission model.
  clinical: ['clinical/elm', 'cohort', 'common', 'terminology'],
  // The ELM compiler: published measures compiled to closures over FHIR resources. A pure engine,
  // below everything: it imports no module of the service, only its runtime packages (below).
  'clinical/elm': [],
  // The stewards' measures as data: their tables, the loader's parts, edition choice, the catalogue and its route.
  'measure-packages': ['access', 'auth', 'clinical', 'clinical/elm', 'cohort', 'common', 'config', 'schema'],
  // Queue connections, the outbox relay, the worker host, periodic sweeps.
  queue: ['common', 'config', 'redis', 'schema', 'tracing'],
  // What a model may call (catalogue, runner, argument checks, results, citations, advice screen):
  // it reads through the tools and files proposals through approvals.
  'model-tools': ['access', 'approvals', 'audit', 'auth', 'clinical', 'common', 'config', 'phi', 'tools'],
  'rate-limit': ['access', 'auth', 'common', 'config', 'redis'],
  health: ['auth', 'common', 'config', 'database', 'queue', 'redis'],
  // Reads the other modules at scrape time and hears the agent and the workers through their
  // diagnostics channels; nothing imports it but the app.
  metrics: ['agent', 'audit', 'common', 'config', 'database', 'measure-results', 'queue'],

  // Features.
  // care_gap_lookup reads a loaded measure through the measure packages' evaluator.
  tools: ['access', 'audit', 'auth', 'clinical', 'cohort', 'common', 'config', 'measure-packages', 'phi', 'schema', 'terminology'],
  // The live queue hears the admin command's deactivations through the database's notifications.
  // A closure of a loaded measure's gap is checked by the measure packages' evaluator (as care_gap_lookup
  // answers it) and delivered naming the edition's canonical.
  approvals: ['access', 'audit', 'auth', 'clinical', 'cohort', 'common', 'config', 'database', 'measure-packages', 'phi', 'queue', 'redis', 'schema', 'tools', 'tracing'],
  agent: ['access', 'approvals', 'audit', 'auth', 'common', 'config', 'model-tools', 'phi', 'schema', 'tools'],
  // A session's patient picker lists the person's team patients through the patients module's search.
  mcp: ['access', 'approvals', 'audit', 'auth', 'clinical', 'common', 'config', 'measure-packages', 'model-tools', 'patients', 'phi', 'terminology', 'tools'],
  // Stored results include the loaded measures a period has a care gap for, evaluated by the measure packages' evaluator.
  'measure-results': ['clinical', 'cohort', 'common', 'config', 'measure-packages', 'queue', 'redis', 'schema', 'tracing'],
  // A worklist's loaded-measure filter is refused by the same edition rule as care_gap_lookup.
  patients: ['access', 'auth', 'clinical', 'cohort', 'common', 'measure-packages', 'measure-results', 'phi', 'population', 'tools'],
  population: ['access', 'auth', 'clinical', 'cohort', 'common', 'measure-results'],
  // DEQM's $care-gaps answers care_gap_lookup (read through the tools' audited read) as FHIR documents,
  // a care team in pages whose cursors are sealed as the worklist's are.
  deqm: ['access', 'auth', 'clinical', 'cohort', 'common', 'measure-packages', 'phi', 'tools'],
  'fhir-import': ['cohort', 'common', 'config', 'phi', 'terminology'],
  generator: ['cohort', 'common', 'config', 'terminology'],
  // The fixture cohort is data in cohort's shapes.
  fixtures: ['cohort', 'common'],
};

/**
 * Arrows that must never exist, whatever the table above says: each is a way the house has gone
 * wrong before (a feature reaching into a neighbour's internals, the platform knowing the PHI
 * policy). The table may not admit one, and the checker rejects each (a synthetic edge per never).
 */
const NEVER: readonly [from: string, to: string][] = [
  ['agent', 'cohort'],
  ['mcp', 'agent'],
  ['tools', 'model-tools'],
  ['tools', 'agent'],
  ['tools', 'approvals'],
  ['clinical', 'tools'],
  ['clinical', 'access'],
  ['clinical', 'audit'],
  ['measure-results', 'approvals'],
  ['queue', 'approvals'],
  ['access', 'tools'],
  ['audit', 'access'],
  ...PLATFORM.flatMap((from) => ['phi', ...FEATURES].map((to): [string, string] => [from, to])),
  ['patients', 'approvals'],
  ['population', 'approvals'],
  ['deqm', 'approvals'],
  ['cohort', 'tools'],
  ['cohort', 'agent'],
];

/**
 * The only packages a pure engine module may import (node's own modules aside): the ELM compiler runs
 * on the reference engine's CQL datatypes and FHIR model, and nothing of Nest, the database or HTTP.
 */
const ENGINE_PACKAGES: Record<string, readonly string[]> = {
  'clinical/elm': ['cql-execution', 'cql-exec-fhir'],
};

/** Imports of a package an engine module may not use, one line each. */
function enginePackageViolations(imports: { from: string; specifier: string }[]): string[] {
  return imports
    .filter(({ from, specifier }) => moduleOf(from) in ENGINE_PACKAGES && !isLocal(specifier) && !specifier.startsWith('node:'))
    .filter(({ from, specifier }) => !ENGINE_PACKAGES[moduleOf(from)].includes(packageOf(specifier)))
    .map(({ from, specifier }) => `${from} imports '${specifier}' (${moduleOf(from)} is a pure engine)`);
}

/** The packages that reach the database: only files where SQL is allowed may import them. */
const SQL_PACKAGES = ['typeorm', '@nestjs/typeorm', 'pg'];

/**
 * Where SQL may run (only repositories run SQL): repositories; the schema's declarations (entities)
 * and their registration in a module; the database module (data source, migrations, schema checks);
 * and the composition roots (the CLI, and the app's start-up: its wait for Postgres, the entity
 * list, the fixture seeding step), which open connections before any repository exists.
 */
function sqlAllowed(path: string): boolean {
  return (
    /\.repository\.ts$/.test(path) ||
    /\.entity\.ts$/.test(path) ||
    /\/entities\/[^/]+\.ts$/.test(path) ||
    /\.module\.ts$/.test(path) ||
    path.startsWith('src/database/') ||
    path.startsWith('src/cli/') ||
    moduleOf(path) === 'app'
  );
}

/**
 * Files that still run SQL outside a repository: each named, so the list only shrinks. A file that
 * no longer imports a SQL package fails the test below: then delete it here.
 */
const SQL_OUTSIDE_REPOSITORIES: readonly { file: string; why: string }[] = [
  { file: 'src/audit/audit.service.ts', why: "injects the DataSource to build its repository (AuditService is also built by hand, by the CLI and tests)" },
  { file: 'src/cohort/fixtures/fixture-loader.ts', why: "bulk upsert of the fixture cohort (start-up and CLI only)" },
  { file: 'src/fhir-import/fhir-importer.ts', why: "bulk import transaction (CLI only)" },
  { file: 'src/fhir-import/resource-writer.ts', why: "bulk import writes (CLI only)" },
  { file: 'src/generator/copy-loader.ts', why: "COPY of the synthetic cohort (CLI only)" },
  { file: 'src/generator/generate-cohort.ts', why: "COPY of the synthetic cohort (CLI only)" },
  { file: 'src/health/health.service.ts', why: "the readiness probe (SELECT 1)" },
];

const isNever = (from: string, to: string) => NEVER.some(([a, b]) => a === from && b === to);

function allows(from: string, rule: readonly string[] | '*', to: string): boolean {
  const target = moduleOf(to);
  if (target === 'outside' || isNever(from, target)) return false;
  return rule === '*' || rule.includes(target);
}

/** The imports that break the rules, each as one readable line. */
function violations(edges: Edge[], rules = RULES): string[] {
  return edges
    .filter((edge) => moduleOf(edge.from) !== moduleOf(edge.to))
    .filter((edge) => {
      const rule = rules[moduleOf(edge.from)];
      return rule === undefined || !allows(moduleOf(edge.from), rule, edge.to);
    })
    .map((edge) => `${edge.from} imports '${edge.specifier}' (${moduleOf(edge.from)} → ${moduleOf(edge.to)})`);
}

/** Files that import a SQL package where SQL is not allowed (and are not listed), one line each. */
function sqlPackageViolations(imports: { from: string; specifier: string }[], listed = SQL_OUTSIDE_REPOSITORIES): string[] {
  return imports
    .filter(({ specifier }) => !isLocal(specifier) && SQL_PACKAGES.includes(packageOf(specifier)))
    .filter(({ from }) => !sqlAllowed(from) && !listed.some((entry) => entry.file === from))
    .map(({ from, specifier }) => `${from} imports '${specifier}' (SQL belongs in a repository)`);
}

/** Module-level arrows the table allows, for the one-way check (`*` roots and self-arrows left out). */
function allowedArrows(): [string, string][] {
  return Object.entries(RULES).flatMap(([from, rule]) =>
    rule === '*' ? [] : rule.map((entry) => [from, entry] as [string, string]).filter(([a, b]) => a !== b),
  );
}

describe('module boundaries', () => {
  const graph = importGraph();

  it('reads the real import graph (not an empty one)', () => {
    expect(graph.files.length).toBeGreaterThan(50);
    expect(graph.edges).toContainEqual(expect.objectContaining({ from: 'src/tools/tools.service.ts', to: 'src/cohort/cohort.repository.ts' }));
  });

  it('resolves every local import to a file', () => {
    expect(graph.unresolved).toEqual([]);
  });

  it('has a rule for every module under src/', () => {
    const modules = new Set(graph.files.map(moduleOf));
    expect([...modules].filter((name) => !(name in RULES))).toEqual([]);
  });

  it('declares arrows that point one way (the allowed graph has no cycle)', () => {
    expect(findCycle(allowedArrows())).toBeNull();
  });

  it('keeps every import within the rules', () => {
    expect(violations(graph.edges)).toEqual([]);
  });

  it('starts the service and the worker without loading the fixtures (only the seeding step, loaded on demand, does)', () => {
    for (const entry of ['src/main.ts', 'src/worker.ts']) {
      const loaded = [...loadedWith(entry)];
      expect(loaded.length).toBeGreaterThan(100);
      expect(loaded.filter((file) => file.startsWith('fixtures/') || file.startsWith('src/cohort/fixtures/') || file === 'src/fixture-seeding.ts')).toEqual([]);
    }
    expect([...loadedWith('src/fixture-seeding.ts')]).toContain('fixtures/index.ts');
  });

  it('lets nothing import the composition roots (app, cli) but themselves', () => {
    const roots = ['app', 'cli'];
    const intoRoots = graph.edges.filter((edge) => roots.includes(moduleOf(edge.to)) && !roots.includes(moduleOf(edge.from)));
    expect(intoRoots).toEqual([]);
  });

  it('admits none of the arrows that must never exist, and names only modules that exist', () => {
    const admitted = Object.entries(RULES).flatMap(([from, rule]) => (rule === '*' ? [] : rule.filter((to) => isNever(from, to)).map((to) => `${from} → ${to}`)));
    expect(admitted).toEqual([]);
    const modules = new Set(graph.files.map(moduleOf));
    const unknown = [...Object.values(RULES).flatMap((rule) => (rule === '*' ? [] : rule)), ...NEVER.flat()].filter((name) => !modules.has(name));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('keeps the pure engine modules to their runtime packages (no Nest, no database)', () => {
    expect(enginePackageViolations(graph.packages)).toEqual([]);
    expect(graph.files.filter((file) => moduleOf(file) === 'clinical/elm').length).toBeGreaterThan(10);
    expect(enginePackageViolations([{ from: 'src/clinical/elm/index.ts', specifier: '@nestjs/common' }])).toHaveLength(1);
  });

  it('lets only repositories (and the schema, the database module and the CLI) import typeorm or pg', () => {
    expect(sqlPackageViolations(graph.packages)).toEqual([]);
  });

  it('lists only files that still import a SQL package (delete one once it no longer does)', () => {
    const stale = SQL_OUTSIDE_REPOSITORIES.filter((entry) => !graph.packages.some((edge) => edge.from === entry.file && SQL_PACKAGES.includes(packageOf(edge.specifier))));
    expect(stale).toEqual([]);
  });

  describe('the checker itself', () => {
    it('reports a SQL package imported by a service, and allows it in a repository, an entity and the database module', () => {
      const imports = [
        { from: 'src/tools/tools.service.ts', specifier: 'typeorm' },
        { from: 'src/health/health.service.ts', specifier: 'pg/lib/client' },
        { from: 'src/tools/tools.service.ts', specifier: '@nestjs/typeorm' },
        { from: 'src/tools/tools.service.ts', specifier: '@nestjs/common' },
        { from: 'src/cohort/cohort.repository.ts', specifier: 'typeorm' },
        { from: 'src/cohort/entities/patient.entity.ts', specifier: 'typeorm' },
        { from: 'src/database/schema.ts', specifier: 'typeorm' },
      ];
      expect(sqlPackageViolations(imports, [])).toEqual([
        "src/tools/tools.service.ts imports 'typeorm' (SQL belongs in a repository)",
        "src/health/health.service.ts imports 'pg/lib/client' (SQL belongs in a repository)",
        "src/tools/tools.service.ts imports '@nestjs/typeorm' (SQL belongs in a repository)",
      ]);
    });

    it('reads imports, type-only imports, side-effect imports and re-exports, not commented-out ones', () => {
      const source = [
        "import { A } from '../a';",
        "import type { B } from '../b';",
        "import '../c';",
        "export * from '../d';",
        "export { E } from '../e';",
        "// import { F } from '../f';",
        "/* import { G } from '../g'; */",
        "const text = \"import { H } from '../h'\";",
      ].join('\n');
      expect(importSpecifiers(source)).toEqual(['../a', '../b', '../c', '../d', '../e']);
    });

    it('reports a synthetic backwards arrow (cohort importing tools) and a file outside the service', () => {
      const edges = [
        { from: 'src/cohort/cohort.repository.ts', to: 'src/tools/tools.service.ts', specifier: '../tools/tools.service' },
        { from: 'src/auth/auth.guard.ts', to: 'test/setup/app.ts', specifier: '../../test/setup/app' },
        { from: 'src/tools/tools.service.ts', to: 'src/cohort/cohort.repository.ts', specifier: '../cohort/cohort.repository' },
      ];
      expect(violations(edges)).toEqual([
        "src/cohort/cohort.repository.ts imports '../tools/tools.service' (cohort → tools)",
        "src/auth/auth.guard.ts imports '../../test/setup/app' (auth → outside)",
      ]);
    });

    it('rejects a synthetic edge for every never, even under a table that would admit everything', () => {
      const edges = NEVER.map(([from, to]) => ({ from: `src/${from}/a.ts`, to: `src/${to}/b.ts`, specifier: `../${to}/b` }));
      const expected = NEVER.map(([from, to]) => `src/${from}/a.ts imports '../${to}/b' (${from} → ${to})`);
      expect(violations(edges)).toEqual(expected);
      const permissive = Object.fromEntries(Object.keys(RULES).map((name) => [name, '*' as const]));
      expect(violations(edges, permissive)).toEqual(expected);
      expect(NEVER.length).toBeGreaterThanOrEqual(36);
    });

    it('refuses a module that has no rule, and finds a cycle in a table', () => {
      expect(violations([{ from: 'src/newcomer/x.ts', to: 'src/cohort/enum.ts', specifier: '../cohort/enum' }])).toHaveLength(1);
      expect(findCycle([['common', 'phi'], ['phi', 'common']])).toEqual(['common', 'phi', 'common']);
    });
  });
});

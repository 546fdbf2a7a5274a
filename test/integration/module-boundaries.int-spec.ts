import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The arrows between modules point one way (STYLE.md "The shape of the house"), and this file is
 * what makes that executable: every import of every non-spec file under `src/` and `fixtures/`,
 * resolved to the module it lands in and held to the table below. Specs are left out on purpose:
 * a test may reach into whatever it tests.
 */

const ROOT = join(__dirname, '..', '..');

/**
 * Who may import whom, besides its own files. An entry is a module (`cohort`) or one part of it
 * (`cohort/enum`: that file or folder only). `*` means any module of the service. Read bottom-up,
 * the table is a layering: config, cohort, phi, common, audit, redis, auth, tools, approvals,
 * agent, database, health, and on top the composition roots `app` (src/*.ts) and `cli`, which nobody imports.
 */
const RULES: Record<string, readonly string[] | '*'> = {
  app: '*',
  cli: '*',
  config: [],
  // The CHECK-constraint helper every module that declares tables uses: a leaf.
  schema: [],
  // The schema, its vocabularies, the only SQL over patient data: nothing of the service below it.
  // (Not `common`: common → phi → cohort/enum would make that a loop.)
  cohort: ['config', 'schema'],
  // The projection and redaction policy needs the role names; the keyed pseudonyms their configured key.
  // (Not `common`: common's logger imports phi's redaction, so phi → common would close a loop.)
  phi: ['cohort/enum', 'config'],
  common: ['config', 'phi'],
  audit: ['common', 'config', 'schema'],
  // The entities of cohort, audit, approvals and the agent's turn record for the data source; the
  // fixture loader and the fixtures it loads for the embedded database.
  database: ['agent/entities', 'approvals', 'audit', 'cohort', 'config', 'fixtures', 'measure-results/entities'],
  redis: ['common', 'config'],
  auth: ['audit', 'cohort', 'common', 'config', 'phi'],
  // Every access rule: it knows who is asking (auth's caller) and reads the cohort's care teams.
  access: ['audit/enum', 'auth/auth.problems', 'auth/caller', 'cohort', 'common', 'config', 'phi'],
  // The official value-set expansions and the one membership function: data, importing nothing.
  terminology: [],
  tools: ['access', 'audit', 'auth', 'cohort', 'common', 'config', 'phi', 'schema', 'terminology'],
  // Proposals name tool vocabulary (measures) and wait in a Redis queue; tools never import approvals.
  approvals: ['access', 'audit', 'auth', 'cohort', 'common', 'config', 'phi', 'redis', 'schema', 'tools', 'tracing'],
  // The agent reads through the tools and files through approvals; nothing imports it but the app.
  agent: ['access', 'approvals', 'audit', 'auth', 'cohort', 'common', 'config', 'phi', 'tools'],
  // Finding patients (search, worklists): access decides, cohort reads, tools' PHI path audits and projects.
  patients: ['access', 'auth', 'cohort', 'common', 'measure-results', 'phi', 'population/microcells', 'tools'],
  // MCP: the agent's tool catalogue and governance, served per session; reads through tools, files through approvals.
  // Its resources are reference data (the measure catalogue's terminology). Nothing imports it but the app.
  mcp: ['access', 'agent', 'approvals', 'audit', 'auth', 'cohort/enum', 'common', 'config', 'phi', 'terminology', 'tools'],
  // The privacy officer's report: the audit trail, read through the one audited path.
  privacy: ['access', 'audit', 'auth', 'cohort/enum', 'common', 'tools'],
  // The analysts' de-identified counts and their suppression: pure computation over microcells, importing nothing.
  population: [],
  // The analysts' route: access decides, the stored results are read (grouped in SQL), population publishes, tools' PHI path audits.
  analytics: ['access', 'auth', 'cohort/enum', 'common', 'measure-results', 'population', 'tools'],
  health: ['approvals', 'auth', 'common', 'config', 'database', 'redis'],
  // Stored measure results: the care-gap engine over the cohort's charts, run by a queue like the
  // approval queue (its connection and periodic-task helpers); approvals tell it of changed patients
  // through a token they own, so approvals never import it.
  'measure-results': ['approvals', 'cohort', 'common', 'config', 'redis', 'schema', 'tools', 'tracing'],
  // Tracing starts before anything else is loaded (the instrumentations must patch http, pg and
  // ioredis first): a leaf, importing nothing of the service. The queues take BullMQ's telemetry from it.
  tracing: [],
  // Prometheus metrics read the other modules at scrape time (the pool's counters, the outbox's
  // summary, the queues) and hear the agent and the workers through their diagnostics channels;
  // nothing imports it but the app.
  metrics: ['agent/entities', 'agent/turn-events', 'approvals/queue', 'audit', 'config', 'database/pool-stats', 'measure-results/measure-queue.connections'],
  // Request limits: the caller from auth's token check, counted in Redis.
  'rate-limit': ['access', 'auth', 'common', 'config', 'redis'],
  // The synthetic cohort generator writes cohort's tables with cohort's vocabularies; only the CLI runs it.
  generator: ['cohort', 'config', 'terminology'],
  // The fixture cohort is data in cohort's shapes.
  fixtures: ['cohort'],
  // The FHIR import writes cohort's tables in cohort's vocabularies; only the cli imports it.
  'fhir-import': ['cohort', 'config', 'phi', 'terminology'],
};

/**
 * Arrows that exist but point the wrong way: each named, with why it is wrong, so it stays visible
 * until someone moves the code. A listed arrow that disappears fails the test below: then delete it here.
 */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [];

/** The packages that reach the database: only files where SQL is allowed may import them. */
const SQL_PACKAGES = ['typeorm', '@nestjs/typeorm', 'pg'];

/**
 * Where SQL may run (STYLE.md: only repositories run SQL): repositories; the schema's declarations
 * (entities) and their registration in a module; the database module (data source, migrations,
 * schema checks); and the CLI, the composition root that opens a connection for a command.
 */
function sqlAllowed(path: string): boolean {
  return (
    /\.repository\.ts$/.test(path) ||
    /\.entity\.ts$/.test(path) ||
    /\/entities\/[^/]+\.ts$/.test(path) ||
    /\.module\.ts$/.test(path) ||
    path.startsWith('src/database/') ||
    path.startsWith('src/cli/')
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
  { file: 'src/startup.ts', why: "the start-up wait: connects to Postgres until it answers, before any module (or repository) exists" },
];

interface Edge {
  from: string;
  to: string;
  specifier: string;
}

/** Every module specifier a source text imports or re-exports, as TypeScript's own pre-processor reads them. */
function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, false).importedFiles.map((file) => file.fileName);
}

/** The module a repository-relative path belongs to: the folder under src/, `app` for src/*.ts, `fixtures`, or `outside`. */
function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'src') return parts.length === 2 ? 'app' : parts[1];
  if (parts[0] === 'fixtures') return 'fixtures';
  return 'outside';
}

function allows(rule: readonly string[] | '*', to: string): boolean {
  const target = moduleOf(to);
  if (rule === '*') return target !== 'outside';
  const inside = to.replace(/^src\//, '').replace(/(\/index)?\.ts$/, '');
  return rule.some((entry) => entry === target || inside === entry || inside.startsWith(`${entry}/`));
}

/** The imports that break the rules and are not a listed exception, each as one readable line. */
function violations(edges: Edge[], rules = RULES, exceptions = EXCEPTIONS): string[] {
  return edges
    .filter((edge) => moduleOf(edge.from) !== moduleOf(edge.to))
    .filter((edge) => !exceptions.some((exception) => exception.from === edge.from && exception.to === edge.to))
    .filter((edge) => {
      const rule = rules[moduleOf(edge.from)];
      return rule === undefined || !allows(rule, edge.to);
    })
    .map((edge) => `${edge.from} imports '${edge.specifier}' (${moduleOf(edge.from)} → ${moduleOf(edge.to)})`);
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A specifier as TypeScript resolves it (file, file.ts, folder/index.ts), repository-relative; null if it names no file. */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = specifier.startsWith('.') ? resolve(ROOT, dirname(from), specifier) : resolve(ROOT, specifier);
  const candidates = [`${base}.ts`, join(base, 'index.ts'), base];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found ? relative(ROOT, found).split(sep).join('/') : null;
}

/** `src/…`-style paths (baseUrl) are local, like relative ones; everything else is a package. */
const isLocal = (specifier: string) => specifier.startsWith('.') || /^(src|fixtures|test)\//.test(specifier);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`, `pg/lib/x` → `pg`). */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Files that import a SQL package where SQL is not allowed (and are not listed), one line each. */
function sqlPackageViolations(imports: { from: string; specifier: string }[], listed = SQL_OUTSIDE_REPOSITORIES): string[] {
  return imports
    .filter(({ specifier }) => !isLocal(specifier) && SQL_PACKAGES.includes(packageOf(specifier)))
    .filter(({ from }) => !sqlAllowed(from) && !listed.some((entry) => entry.file === from))
    .map(({ from, specifier }) => `${from} imports '${specifier}' (SQL belongs in a repository)`);
}

function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[]; packages: { from: string; specifier: string }[] } {
  const files = [...sourceFiles('src'), ...sourceFiles('fixtures')];
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  const packages: { from: string; specifier: string }[] = [];
  for (const from of files) {
    const specifiers = importSpecifiers(readFileSync(join(ROOT, from), 'utf8'));
    packages.push(...specifiers.filter((specifier) => !isLocal(specifier)).map((specifier) => ({ from, specifier })));
    for (const specifier of specifiers.filter(isLocal)) {
      const to = resolveSpecifier(from, specifier);
      if (to) edges.push({ from, to, specifier });
      else unresolved.push(`${from} imports '${specifier}'`);
    }
  }
  return { files, edges, unresolved, packages };
}

/** Module-level arrows the table allows, for the one-way check (`*` roots and self-arrows left out). */
function allowedArrows(): [string, string][] {
  return Object.entries(RULES).flatMap(([from, rule]) =>
    rule === '*' ? [] : rule.map((entry) => [from, entry.split('/')[0]] as [string, string]).filter(([a, b]) => a !== b),
  );
}

function findCycle(arrows: [string, string][]): string[] | null {
  const next = (node: string) => arrows.filter(([from]) => from === node).map(([, to]) => to);
  const visit = (node: string, path: string[]): string[] | null => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node];
    for (const to of next(node)) {
      const cycle = visit(to, [...path, node]);
      if (cycle) return cycle;
    }
    return null;
  };
  for (const [start] of arrows) {
    const cycle = visit(start, []);
    if (cycle) return cycle;
  }
  return null;
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

  it('lets nothing import the composition roots (app, cli) but themselves', () => {
    const roots = ['app', 'cli'];
    const intoRoots = graph.edges.filter((edge) => roots.includes(moduleOf(edge.to)) && !roots.includes(moduleOf(edge.from)));
    expect(intoRoots).toEqual([]);
  });

  it('lists only exceptions that still exist (delete one once its arrow is gone)', () => {
    const stale = EXCEPTIONS.filter((exception) => !graph.edges.some((edge) => edge.from === exception.from && edge.to === exception.to));
    expect(stale).toEqual([]);
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

    it('holds a module restricted to one file of another to that file', () => {
      const edge = (to: string) => ({ from: 'src/phi/projector.ts', to, specifier: to });
      expect(violations([edge('src/cohort/enum.ts'), edge('src/cohort/cohort.repository.ts')])).toEqual([
        "src/phi/projector.ts imports 'src/cohort/cohort.repository.ts' (phi → cohort)",
      ]);
    });

    it('refuses a module that has no rule, and finds a cycle in a table', () => {
      expect(violations([{ from: 'src/newcomer/x.ts', to: 'src/cohort/enum.ts', specifier: '../cohort/enum' }])).toHaveLength(1);
      expect(findCycle([['common', 'phi'], ['phi', 'common']])).toEqual(['common', 'phi', 'common']);
    });
  });
});

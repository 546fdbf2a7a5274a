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
  // The schema, its vocabularies, the only SQL over patient data: nothing of the service below it.
  // (Not `common`: common → phi → cohort/enum would make that a loop.)
  cohort: ['config'],
  // The projection and redaction policy needs the role names, and nothing else.
  // (Not `common`: common's logger imports phi's redaction, so phi → common would close a loop.)
  phi: ['cohort/enum'],
  common: ['config', 'phi'],
  audit: ['common', 'config'],
  // The entities of cohort, audit, approvals and the agent's turn record for the data source; the
  // fixture loader for the embedded database.
  database: ['agent/entities', 'approvals', 'audit', 'cohort', 'config'],
  redis: ['common', 'config'],
  auth: ['audit', 'cohort', 'common', 'config', 'phi'],
  // The official value-set expansions and the one membership function: data, importing nothing.
  terminology: [],
  tools: ['audit', 'auth', 'cohort', 'common', 'config', 'phi', 'terminology'],
  // Proposals name tool vocabulary (measures) and wait in a Redis queue; tools never import approvals.
  approvals: ['audit', 'auth', 'cohort', 'common', 'config', 'phi', 'redis', 'tools'],
  // The agent reads through the tools and files through approvals; nothing imports it but the app.
  agent: ['approvals', 'audit', 'auth', 'cohort', 'common', 'config', 'phi', 'tools'],
  health: ['approvals', 'auth', 'common', 'config', 'database', 'redis'],
  // Request limits: the caller from auth's token check, counted in Redis.
  'rate-limit': ['auth', 'common', 'config', 'redis'],
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
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [
  {
    from: 'src/audit/audit-event.entity.ts',
    to: 'src/cohort/entities/check.ts',
    why: 'audit borrows cohort\'s enumCheck helper; audit must not depend on the patient-data module. The helper belongs in common (or database).',
  },
  {
    from: 'src/cohort/fixtures/fixture-loader.ts',
    to: 'fixtures/index.ts',
    why: 'the loader reads the fixture data while fixtures import cohort\'s types: a cohort ⇄ fixtures loop. The callers (database bootstrap, cli seed) could pass the data in.',
  },
  {
    from: 'src/tools/clinical/testing/fixture-charts.ts',
    to: 'fixtures/index.ts',
    why: 'test support for specs that lives in src and ships in the build (tsconfig.build.json excludes only *.spec.ts); it belongs under test/.',
  },
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

/** Package imports are not the question here; `src/…`-style paths (baseUrl) are, like relative ones. */
const isLocal = (specifier: string) => specifier.startsWith('.') || /^(src|fixtures|test)\//.test(specifier);

function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = [...sourceFiles('src'), ...sourceFiles('fixtures')];
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    for (const specifier of importSpecifiers(readFileSync(join(ROOT, from), 'utf8')).filter(isLocal)) {
      const to = resolveSpecifier(from, specifier);
      if (to) edges.push({ from, to, specifier });
      else unresolved.push(`${from} imports '${specifier}'`);
    }
  }
  return { files, edges, unresolved };
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

  describe('the checker itself', () => {
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

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The import graph of `src/` and `fixtures/` as `src/module-boundaries.spec.ts` holds it to its
 * rules: every file, every import resolved to the file and module it lands in, the packages named.
 * The rules themselves (the picture) stay in the spec; this is only how the graph is read.
 */

const ROOT = join(__dirname, '..', '..');

export interface Edge {
  from: string;
  to: string;
  specifier: string;
}

/** Every module specifier a source text imports or re-exports, as TypeScript's own pre-processor reads them. */
export function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, false).importedFiles.map((file) => file.fileName);
}

/** The specifiers a file loads as soon as it is loaded: import and export declarations, not `import()` calls. */
export function staticImportSpecifiers(source: string): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, false);
  return file.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
      ? [statement.moduleSpecifier.text]
      : [],
  );
}

const staticImportsOf = new Map<string, string[]>();

/** Every local file loading `entry` loads with it (static imports only). */
export function loadedWith(entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    if (!staticImportsOf.has(file)) staticImportsOf.set(file, staticImportSpecifiers(readFileSync(join(ROOT, file), 'utf8')).filter(isLocal));
    for (const specifier of staticImportsOf.get(file)!) {
      const to = resolveSpecifier(file, specifier);
      if (to) visit(to);
    }
  };
  visit(entry);
  return loaded;
}

/** Folders below a module that are modules of their own (`src/clinical/elm` is `clinical/elm`). */
const SUBMODULES = ['clinical/elm'];

/** The module a repository-relative path belongs to: the folder under src/, `app` for src/*.ts, `fixtures`, or `outside`. */
export function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'src' && parts.length > 3 && SUBMODULES.includes(`${parts[1]}/${parts[2]}`)) return `${parts[1]}/${parts[2]}`;
  if (parts[0] === 'src') return parts.length === 2 ? 'app' : parts[1];
  if (parts[0] === 'fixtures') return 'fixtures';
  return 'outside';
}

export function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A specifier as TypeScript resolves it (file, file.ts, folder/index.ts), repository-relative; null if it names no file. */
export function resolveSpecifier(from: string, specifier: string): string | null {
  const base = specifier.startsWith('.') ? resolve(ROOT, dirname(from), specifier) : resolve(ROOT, specifier);
  const candidates = [`${base}.ts`, join(base, 'index.ts'), base];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found ? relative(ROOT, found).split(sep).join('/') : null;
}

/** `src/…`-style paths (baseUrl) are local, like relative ones; everything else is a package. */
export const isLocal = (specifier: string) => specifier.startsWith('.') || /^(src|fixtures|test)\//.test(specifier);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`, `pg/lib/x` → `pg`). */
export const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

export function importGraph(): { files: string[]; edges: Edge[]; unresolved: string[]; packages: { from: string; specifier: string }[] } {
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

export function findCycle(arrows: [string, string][]): string[] | null {
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

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [join(dir, entry.name)] : [],
  );

/** The source files below `dir` (tests excepted) whose text matches `pattern`, relative to `dir`: who reads what. */
export function sourcesMatching(dir: string, pattern: RegExp): string[] {
  return sources(dir)
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(dir, file));
}

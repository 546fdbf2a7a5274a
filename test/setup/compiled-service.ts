import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** What the tests spawn: the API (start, traces), the worker (queue tests) and the CLI (the MCP stdio bridge). */
const OUTPUTS = ['main.js', 'worker.js', join('cli', 'main.js')].map((file) => join(ROOT, 'dist', 'src', file));
/** What `nest build` compiles (tsconfig.build.json, nest-cli.json's assets) and how. */
const INPUTS = ['src', 'fixtures', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'].map((path) => join(ROOT, path));

/**
 * Builds `dist/` when it is missing or older than the sources, for the tests that spawn the compiled
 * service. CI builds before it tests, and a developer who just built need not wait for it again; a
 * stale `dist/` would test yesterday's code. Directories count as sources too: a moved or deleted
 * file changes its directory's time, not its own.
 */
export function ensureCompiledService(): void {
  const reason = staleness();
  if (!reason) return;
  console.warn(`[vigil tests] ${reason}: running npm run build`);
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status ?? build.signal}): the tests that spawn dist/ cannot run`);
}

function staleness(): string | undefined {
  let built = Infinity;
  for (const output of OUTPUTS) {
    const time = mtimeOf(output);
    if (time === undefined) return 'dist/ is missing';
    built = Math.min(built, time);
  }
  const newest = Math.max(...INPUTS.map(newestMtime));
  return newest > built ? 'dist/ is older than the sources' : undefined;
}

/** The newest modification time under a path; unit specs are not compiled into dist/, so they do not count. */
function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return path.endsWith('.spec.ts') ? 0 : stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs);
}

function mtimeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

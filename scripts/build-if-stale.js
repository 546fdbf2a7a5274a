// @ts-check
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: it runs before anything is compiled, and the tests' setup requires it */
/**
 * `node scripts/build-if-stale.js`: builds `dist/` only when it is missing or older than what it is
 * built from, before every npm script that runs the compiled service (and the tests' setup, which
 * requires this file): a command that takes under a second should not wait 20 s for a build of
 * unchanged sources. `npm run build` stays the explicit, unconditional build (CI, the Dockerfile).
 *
 * The build writes into `dist/` in place (nest-cli.json: `deleteOutDir: false`) instead of deleting it
 * first: a service started from `dist/` keeps loading files from it after start-up (the review page,
 * lazily imported modules), and a command run beside it must not pull the folder from under it. The
 * price is that the output of a deleted source stays behind, unimported: nothing loads `dist/` by
 * listing it (migrations and entities are explicit lists). A swap of a fresh build into place was the
 * other choice; it still leaves a moment with no `dist/` at all, and a running service would then
 * load a mix of two builds just the same.
 *
 * Everything it prints goes to stderr, and a fresh `dist/` prints nothing: stdout belongs to the
 * command that follows (`TOKEN=$(npm run -s token …)`, the MCP bridge's stdio).
 */
const { spawnSync } = require('node:child_process');
const { readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
/** What the npm scripts and the tests run: the API, the worker and the command line. */
const OUTPUTS = ['main.js', 'worker.js', join('cli', 'main.js')].map((file) => join('dist', 'src', file));
/**
 * What `nest build` compiles (tsconfig.build.json, nest-cli.json's assets under src/) and how; the lock
 * file because an upgraded dependency can change what compiles.
 */
const INPUTS = ['src', 'fixtures', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];

/**
 * Why `dist/` under `root` needs a build, or undefined when it is current: an entry point is missing,
 * or a source is newer than the oldest entry point. Directories count as sources too: a moved or
 * deleted file changes its directory's time, not its own. Unit specs are not compiled, so they do not count.
 * @param {string} [root]
 * @returns {string | undefined}
 */
function staleness(root = ROOT) {
  let built = Infinity;
  for (const output of OUTPUTS) {
    const time = statSync(join(root, output), { throwIfNoEntry: false })?.mtimeMs;
    if (time === undefined) return `${output} is missing`;
    built = Math.min(built, time);
  }
  const newest = INPUTS.map((input) => newestUnder(root, input)).reduce((a, b) => (b.time > a.time ? b : a));
  return newest.time > built ? `dist/ is older than ${newest.path}` : undefined;
}

/**
 * The newest modification time under `path` (relative to `root`), and where it is.
 * @param {string} root
 * @param {string} path
 * @returns {{ time: number, path: string }}
 */
function newestUnder(root, path) {
  const stat = statSync(join(root, path), { throwIfNoEntry: false });
  if (!stat || (!stat.isDirectory() && path.endsWith('.spec.ts'))) return { time: 0, path };
  const here = { time: stat.mtimeMs, path };
  if (!stat.isDirectory()) return here;
  return readdirSync(join(root, path))
    .map((entry) => newestUnder(root, join(path, entry)))
    .reduce((a, b) => (b.time > a.time ? b : a), here);
}

/**
 * Runs `npm run build` when `dist/` is stale; returns whether it built. A failed build throws, and
 * leaves the entry points dated 1970 so the next run builds again instead of trusting a half-built `dist/`.
 * @param {string} [root]
 * @returns {boolean}
 */
function buildIfStale(root = ROOT) {
  const reason = staleness(root);
  if (!reason) return false;
  console.error(`[vigil] ${reason}: building (npm run build)`);
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (build.status === 0) return true;
  for (const output of OUTPUTS) {
    if (statSync(join(root, output), { throwIfNoEntry: false })) utimesSync(join(root, output), 0, 0);
  }
  throw new Error(`npm run build failed (${build.status ?? build.signal})`);
}

module.exports = { staleness, buildIfStale };

if (require.main === module) {
  try {
    buildIfStale();
  } catch (error) {
    console.error(`[vigil] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const ROOT = join(__dirname, '..');
const STEP = 'node scripts/build-if-stale.js';
const ENTRY_POINTS = ['dist/src/main.js', 'dist/src/worker.js', 'dist/src/cli/main.js'];

/**
 * A project laid out as Vigil's is, with this very script, and an `npm` first on the PATH whose
 * `npm run build --silent` writes the entry points and counts its runs (and fails while FAIL exists):
 * each run of the script can be seen to build or not in milliseconds, not a real npm's and build's 20 s.
 */
function fakeProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'vigil-build-if-stale-'));
  const write = (path: string, text = '') => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(ROOT, 'scripts', 'build-if-stale.js'), join(root, 'scripts', 'build-if-stale.js'));
  const build = ['[ -e FAIL ] && exit 3', 'mkdir -p dist/src/cli', `touch ${ENTRY_POINTS.join(' ')}`, 'printf x >> builds', 'echo compiler output'];
  write('bin/npm', ['#!/bin/sh', '[ "$*" = "run build --silent" ] || exit 64', ...build, ''].join('\n'));
  chmodSync(join(root, 'bin/npm'), 0o755);
  for (const source of ['src/main.ts', 'src/cli/main.ts', 'src/main.spec.ts', 'src/approvals/review-page/review.html', 'fixtures/index.ts', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json']) write(source);
  return root;
}

function runStep(root: string) {
  const env = { ...process.env, PATH: `${join(root, 'bin')}${delimiter}${process.env.PATH ?? ''}` };
  const result = spawnSync(process.execPath, ['scripts/build-if-stale.js'], { cwd: root, encoding: 'utf8', env });
  const builds = statSync(join(root, 'builds'), { throwIfNoEntry: false })?.size ?? 0;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, builds };
}

/** Touches `path` now; the clock moves on between a build and a touch, so the touch is the newer. */
function touch(root: string, path: string): void {
  const now = new Date();
  utimesSync(join(root, path), now, now);
}

describe('scripts/build-if-stale.js', () => {
  let root: string;
  beforeEach(() => {
    root = fakeProject();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when dist/ is missing, then not again: the second run prints nothing and leaves dist/ as it was', () => {
    const first = runStep(root);
    expect(first).toMatchObject({ status: 0, stdout: '', builds: 1 });
    expect(first.stderr).toContain('dist/src/main.js is missing: building');
    // The compiler's own output goes to stderr too: stdout is the next command's (TOKEN=$(npm run -s token …)).
    expect(first.stderr).toContain('compiler output');
    const built = statSync(join(root, 'dist/src/main.js')).mtimeMs;

    expect(runStep(root)).toEqual({ status: 0, stdout: '', stderr: '', builds: 1 });
    expect(statSync(join(root, 'dist/src/main.js')).mtimeMs).toBe(built);
  });

  it.each([
    ['a source', 'src/main.ts'],
    ['a source in a folder', 'src/cli/main.ts'],
    ['an asset', 'src/approvals/review-page/review.html'],
    ['a fixture', 'fixtures/index.ts'],
    ['tsconfig.json', 'tsconfig.json'],
    ['tsconfig.build.json', 'tsconfig.build.json'],
    ['nest-cli.json', 'nest-cli.json'],
    ['package-lock.json', 'package-lock.json'],
  ])('builds again after %s changes (%s), once', (_what, path) => {
    runStep(root);
    touch(root, path);
    const rebuilt = runStep(root);
    expect(rebuilt).toMatchObject({ status: 0, stdout: '', builds: 2 });
    expect(rebuilt.stderr).toContain(`dist/ is older than ${path}: building`);
    expect(runStep(root)).toMatchObject({ status: 0, stderr: '', builds: 2 });
  });

  it('builds again when a source is deleted (its folder changes), and when an entry point is missing', () => {
    runStep(root);
    rmSync(join(root, 'src/cli/main.ts'));
    expect(runStep(root)).toMatchObject({ status: 0, builds: 2, stderr: expect.stringContaining('dist/ is older than src/cli: building') });
    rmSync(join(root, 'dist/src/worker.js'));
    expect(runStep(root)).toMatchObject({ status: 0, builds: 3, stderr: expect.stringContaining('dist/src/worker.js is missing') });
  });

  it('does not build for a unit spec, which is not compiled', () => {
    runStep(root);
    touch(root, 'src/main.spec.ts');
    expect(runStep(root)).toMatchObject({ status: 0, stderr: '', builds: 1 });
  });

  it('fails when the build fails, and builds again on the next run rather than trust what it left', () => {
    runStep(root);
    writeFileSync(join(root, 'FAIL'), '');
    touch(root, 'src/main.ts');
    const failed = runStep(root);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('npm run build failed (3)');
    rmSync(join(root, 'FAIL'));
    expect(runStep(root)).toMatchObject({ status: 0, builds: 2 });
  });
});

describe('the npm scripts that run the compiled service', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  /** The compiled service's entry points: the API, the worker, the command line. */
  const runsService = /\bnode (?:--\S+ )*dist\/src\/(main|worker|cli\/main)\.js\b/;
  const running = Object.keys(scripts).filter((name) => runsService.test(scripts[name]));

  it('are the ones expected (a new one is checked below too)', () => {
    expect(running).toEqual(expect.arrayContaining(['start', 'worker', 'token', 'mcp', 'db:migrate', 'db:seed', 'import:fhir', 'audit:verify', 'measures:recompute', 'sql:sync']));
  });

  it.each(Object.keys(scripts).filter((name) => runsService.test(scripts[name])))('%s goes through the build-when-stale step first', (name) => {
    const first = scripts[`pre${name}`] ?? scripts[name].split(' && ')[0];
    expect(first).toBe(STEP);
  });

  it('never run a full build on the way (only `npm run build` does, unconditionally)', () => {
    expect(scripts.build).toBe('nest build');
    expect(Object.entries(scripts).filter(([, command]) => /npm run build\b|nest build/.test(command)).map(([name]) => name)).toEqual(['build']);
  });

  it('build into dist/ in place: a running service keeps its files', () => {
    const nest = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8')) as { compilerOptions: { deleteOutDir?: boolean } };
    expect(nest.compilerOptions.deleteOutDir).toBe(false);
  });
});

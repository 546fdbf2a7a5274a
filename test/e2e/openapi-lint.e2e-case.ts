import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SNAPSHOT = join(ROOT, 'docs', 'openapi.json');
const SPECTRAL = join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');

interface Finding {
  code: string;
  severity: number;
  path: string[];
  /** The document it is in. */
  source: string;
}

/**
 * Spectral (spectral:oas + the OWASP API Security 2023 ruleset, .spectral.yaml) on each document, in
 * one run of its command line: it lints each document on its own, and each start of it costs seconds.
 * Returns each document's findings, in the order given.
 */
function lint(...documents: string[]): Finding[][] {
  const result = spawnSync(process.execPath, [SPECTRAL, 'lint', ...documents, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.error) throw result.error;
  const start = result.stdout.indexOf('[');
  if (start < 0) throw new Error(`spectral printed no findings list: ${result.stdout}${result.stderr}`);
  const findings = JSON.parse(result.stdout.slice(start)) as Finding[];
  const unknown = findings.filter((finding) => !documents.some((document) => resolve(ROOT, finding.source) === resolve(document)));
  if (unknown.length > 0) throw new Error(`spectral named a document it was not given: ${unknown[0].source}`);
  return documents.map((document) => findings.filter((finding) => resolve(ROOT, finding.source) === resolve(document)));
}

const errorsOf = (findings: Finding[]) => findings.filter((finding) => finding.severity === 0).map((finding) => `${finding.code} at ${finding.path.join('.')}`);

/** The OpenAPI snapshot passes the OWASP API Security 2023 rules with no error (`npm run lint:openapi` runs the same). */
describe('OpenAPI document against Spectral’s OWASP ruleset', () => {
  /** The snapshot's findings, and those of a copy broken as the second test says, from one run. */
  let snapshot: Finding[];
  let broken: Finding[];
  beforeAll(() => {
    const document = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    const labs = document.paths['/patients/{patientId}/labs'].get;
    delete labs.responses['200'].headers;
    delete labs.parameters.find((parameter: { in: string }) => parameter.in === 'header').schema.maxLength;
    const brokenFile = join(mkdtempSync(join(tmpdir(), 'vigil-openapi-')), 'openapi.json');
    writeFileSync(brokenFile, JSON.stringify(document));
    [snapshot, broken] = lint(SNAPSHOT, brokenFile);
  }, 180_000);

  it('has no errors', () => {
    expect(errorsOf(snapshot)).toEqual([]);
  });

  it('would fail on an operation without rate-limit headers or with an unbounded input string (the lint can fail)', () => {
    const errors = errorsOf(broken);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^owasp:api4:2023-rate-limit at paths\.\/patients\/\{patientId\}\/labs\.get\.responses\.200/),
        expect.stringMatching(/^vigil:input-string-limit at paths\.\/patients\/\{patientId\}\/labs\.get\.parameters\.\d+\.schema$/),
      ]),
    );
    expect(errors).toHaveLength(2);
  });
});

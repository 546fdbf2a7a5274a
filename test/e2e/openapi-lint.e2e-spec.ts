import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SNAPSHOT = join(ROOT, 'docs', 'openapi.json');
const SPECTRAL = join(ROOT, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');

interface Finding {
  code: string;
  severity: number;
  path: string[];
}

/** Spectral (spectral:oas + the OWASP API Security 2023 ruleset, .spectral.yaml) on one document. */
function lint(document: string): Finding[] {
  const result = spawnSync(process.execPath, [SPECTRAL, 'lint', document, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.error) throw result.error;
  const start = result.stdout.indexOf('[');
  if (start < 0) throw new Error(`spectral printed no findings list: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.slice(start)) as Finding[];
}

const errorsOf = (findings: Finding[]) => findings.filter((finding) => finding.severity === 0).map((finding) => `${finding.code} at ${finding.path.join('.')}`);

/** The OpenAPI snapshot passes the OWASP API Security 2023 rules with no error (`npm run lint:openapi` runs the same). */
describe('OpenAPI document against Spectral’s OWASP ruleset', () => {
  it('has no errors', () => {
    expect(errorsOf(lint(SNAPSHOT))).toEqual([]);
  }, 120_000);

  it('would fail on an operation without rate-limit headers or with an unbounded input string (the lint can fail)', () => {
    const document = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    const labs = document.paths['/patients/{patientId}/labs'].get;
    delete labs.responses['200'].headers;
    delete labs.parameters.find((parameter: { in: string }) => parameter.in === 'header').schema.maxLength;
    const broken = join(mkdtempSync(join(tmpdir(), 'vigil-openapi-')), 'openapi.json');
    writeFileSync(broken, JSON.stringify(document));
    const errors = errorsOf(lint(broken));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^owasp:api4:2023-rate-limit at paths\.\/patients\/\{patientId\}\/labs\.get\.responses\.200/),
        expect.stringMatching(/^vigil:input-string-limit at paths\.\/patients\/\{patientId\}\/labs\.get\.parameters\.\d+\.schema$/),
      ]),
    );
    expect(errors).toHaveLength(2);
  }, 120_000);
});

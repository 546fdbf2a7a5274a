import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  DEFAULT_SOURCE,
  readTerminologySource,
  renderValueSetNames,
  repoRoot,
  serializeArtifact,
  TerminologySourceError,
} from './build/terminology-source';

const root = repoRoot(__dirname);
const snapshot = resolve(root, DEFAULT_SOURCE);
const haveSnapshot = existsSync(join(snapshot, 'valuesets'));

if (!haveSnapshot) {
  console.warn(`artifact.spec: ${DEFAULT_SOURCE} is absent (it lives beside the repository): the up-to-date check is skipped.`);
}

(haveSnapshot ? describe : describe.skip)('the committed terminology artifact', () => {
  const generated = haveSnapshot ? readTerminologySource(snapshot) : undefined;

  it('is what `npm run terminology:build` writes from the snapshot, byte for byte', () => {
    const committed = readFileSync(join(root, 'src/terminology/vsac-expansions.json'), 'utf8');
    expect(serializeArtifact(generated!.artifact) === committed).toBe(true);
    expect(renderValueSetNames(generated!)).toBe(readFileSync(join(root, 'src/terminology/value-set-names.ts'), 'utf8'));
  });

  it('is reproducible and stays under a megabyte', () => {
    const again = serializeArtifact(readTerminologySource(snapshot).artifact);
    expect(again).toBe(serializeArtifact(generated!.artifact));
    expect(Buffer.byteLength(again)).toBeLessThan(1_000_000);
  });
});

/** A minimal snapshot, written to a temporary folder, to test the generator's refusals. */
describe('the terminology generator', () => {
  let dir: string;
  const valueSet = (oid: string, contains: object[]) => ({
    resourceType: 'ValueSet',
    id: oid,
    url: `http://cts.nlm.nih.gov/fhir/ValueSet/${oid}`,
    version: '20240101',
    name: `Set${oid}`,
    title: `Set ${oid}`,
    expansion: { identifier: '20240502', timestamp: '2025-01-10T13:55:22-07:00', contains },
  });
  const write = (cql: Record<string, string>, sets: object[]) => {
    mkdirSync(join(dir, 'cql'));
    mkdirSync(join(dir, 'valuesets'));
    writeFileSync(join(dir, 'README.md'), 'Repository `o/r`, snapshot HEAD\n`' + 'a'.repeat(40) + '` (2025-01-15). **Licence: CC0 1.0** (x).');
    for (const [file, text] of Object.entries(cql)) writeFileSync(join(dir, 'cql', file), text);
    for (const set of sets) writeFileSync(join(dir, 'valuesets', `${(set as { id: string }).id}.json`), JSON.stringify(set));
  };
  const entry = (code: string, display = `display ${code}`) => ({ system: 'http://loinc.org', version: '2.76', code, display });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'terminology-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails with a clear message when the snapshot is absent', () => {
    expect(() => readTerminologySource(join(dir, 'nowhere'))).toThrow(TerminologySourceError);
    expect(() => readTerminologySource(join(dir, 'nowhere'))).toThrow(/eCQM content not found/);
  });

  it('sorts, drops repeated entries, and reads the source from the README', () => {
    write({ 'A.cql': "valueset \"B set\": 'http://cts.nlm.nih.gov/fhir/ValueSet/1.2'\r\nvalueset \"A set\": 'http://cts.nlm.nih.gov/fhir/ValueSet/1.1'\r\n" }, [
      valueSet('1.2', [entry('2-2'), entry('10-1'), entry('2-2')]),
      valueSet('1.1', [entry('1-1')]),
    ]);
    const { artifact, names } = readTerminologySource(dir);
    expect(names).toEqual([['A set', '1.1'], ['B set', '1.2']]);
    expect(artifact.valueSets.map((set) => set.oid)).toEqual(['1.1', '1.2']);
    expect(artifact.valueSets[1].codes).toEqual({ 'http://loinc.org': [['10-1', 'display 10-1'], ['2-2', 'display 2-2']] });
    expect(artifact.source).toMatchObject({ repository: 'o/r', commit: 'a'.repeat(40), date: '2025-01-15', licence: 'CC0 1.0', codeCount: 3 });
    expect(JSON.parse(serializeArtifact(artifact))).toEqual(artifact);
  });

  it('refuses one CQL name for two OIDs', () => {
    write(
      {
        'A.cql': "valueset \"Same\": 'http://cts.nlm.nih.gov/fhir/ValueSet/1.1'\n",
        'B.cql': "valueset \"Same\": 'http://cts.nlm.nih.gov/fhir/ValueSet/1.2'\n",
      },
      [valueSet('1.1', [entry('1-1')]), valueSet('1.2', [entry('1-1')])],
    );
    expect(() => readTerminologySource(dir)).toThrow(/"Same" is 1.1 in A.cql but 1.2 in B.cql/);
  });

  it('refuses a code with two displays, and a CQL name without an expansion', () => {
    write({ 'A.cql': "valueset \"A\": 'http://cts.nlm.nih.gov/fhir/ValueSet/1.1'\n" }, [valueSet('1.1', [entry('1-1', 'one'), entry('1-1', 'uno')])]);
    expect(() => readTerminologySource(dir)).toThrow(/appears with two displays/);
    rmSync(join(dir, 'valuesets', '1.1.json'));
    writeFileSync(join(dir, 'valuesets', '1.3.json'), JSON.stringify(valueSet('1.3', [entry('1-1')])));
    expect(() => readTerminologySource(dir)).toThrow(/"A" \(1.1\) has no expansion/);
  });
});

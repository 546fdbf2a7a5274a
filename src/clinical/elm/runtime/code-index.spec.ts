import { Code } from 'cql-execution';
import { CodeIndex } from './code-index';
import { fhirModel } from './fhir-model';
import { FhirValue, toCodes } from './fhir-value';
import { CodeSet, codesMatch, inCodeSet } from './terminology';
import { Expansion } from './value-sets';

/**
 * The code index a retrieve with a constant code filter reads: its candidates, tested by the
 * filter, are exactly what testing every resource gives, in the same order.
 */

const SCT = 'http://snomed.info/sct';
const ICD = 'http://hl7.org/fhir/sid/icd-10-cm';
const settings = { model: fhirModel(), timezoneOffset: 0, dateTimes: new Map() };
const condition = (id: string, code: unknown) => new FhirValue(fhirModel().classOf('Condition')!, { resourceType: 'Condition', id, ...(code === undefined ? {} : { code }) }, settings);
const concept = (...codings: [string | undefined, string | undefined][]) => ({ coding: codings.map(([system, code]) => ({ system, code })) });

const records = [
  condition('one-coding', concept([SCT, '44054006'])),
  condition('no-code', undefined),
  condition('two-codings-second-matches', concept([ICD, 'E11.9'], [SCT, '73211009'])),
  condition('other-system-same-code', concept(['http://example.org', '44054006'])),
  condition('empty-coding', { coding: [] }),
  condition('text-only', { text: 'diabetes' }),
  condition('coding-without-system', concept([undefined, '44054006'])),
  condition('both-codings-match', concept([SCT, '44054006'], [SCT, '73211009'])),
  condition('unrelated', concept([SCT, '38341003'])),
];
const codes = records.map((r) => new CodeSet(toCodes(r.get('code'))));
const ids = (values: FhirValue[]) => values.map((v) => (v.json as { id: string }).id);

describe(CodeIndex.name, () => {
  const index = new CodeIndex(records, codes);

  it.each([
    ['a value set of one system', [new Code('44054006', SCT), new Code('73211009', SCT)]],
    ['a value set matching through a second coding only', [new Code('E11.9', ICD)]],
    ['a value set the patient has none of', [new Code('0000', SCT)]],
  ])('selects for %s what a full scan selects, in order', (_name, expansionCodes) => {
    const expansion = new Expansion('http://example.org/ValueSet/x', expansionCodes);
    const full = records.filter((_, i) => inCodeSet(expansion, codes[i]));
    const indexed = index.candidatesIn(expansion).filter((r) => inCodeSet(expansion, codes[records.indexOf(r)]));
    expect(ids(indexed)).toEqual(ids(full));
    // Only resources holding a code of the value set are candidates: the resources without one are never tested.
    expect(index.candidatesIn(expansion)).toEqual(indexed);
  });

  it('gives a full scan’s answer for a list of codes, by system and code exactly', () => {
    const wanted = [new Code('44054006', SCT), new Code('E11.9', ICD)];
    const full = records.filter((_, i) => wanted.some((code) => codesMatch(code, codes[i].codes)));
    expect(ids(full)).toEqual(['one-coding', 'two-codings-second-matches', 'both-codings-match']);
    expect(ids(index.candidatesFor(wanted).filter((r) => wanted.some((code) => codesMatch(code, codes[records.indexOf(r)].codes))))).toEqual(ids(full));
  });

  it('keeps a resource whose code is a bare string among every filter’s candidates (it matches by code alone)', () => {
    const procedureLike = [condition('keyed', concept([SCT, '1'])), condition('string', undefined)];
    const sets = [new CodeSet(toCodes(procedureLike[0].get('code'))), new CodeSet('1')];
    const stringIndex = new CodeIndex(procedureLike, sets);
    expect(ids(stringIndex.candidatesIn(new Expansion('x', [new Code('2', SCT)])))).toEqual(['string']);
    expect(ids(stringIndex.candidatesFor([new Code('1', SCT)]))).toEqual(['keyed', 'string']);
  });
});

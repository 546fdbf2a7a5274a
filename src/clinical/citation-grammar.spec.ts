import { randomUUID } from 'node:crypto';
import { CitationKind, citationId } from '../cohort/chart.types';
import { CITATION_FORMS, CITATION_FORMS_TEXT, CITATION_MAX_LENGTH, citationFormOf, isCitation, ROW_CITATION } from './citation-grammar';
import { gapCitation, missingDataCitation, readmissionPredictionCitation, riskDriverCitation } from './derived-citations';

/** Every stored kind a row can be cited by (`citationId`), so a new kind cannot be left out of the grammar. */
const STORED_KINDS: Record<CitationKind, true> = { pat: true, enc: true, obs: true, cond: true, med: true, proc: true, note: true, allergy: true, req: true, ae: true };

/** One id of each kind the tools emit, made by the functions the tools make them with. */
const EMITTED = [
  ...(Object.keys(STORED_KINDS) as CitationKind[]).map((kind) => citationId(kind, randomUUID())),
  gapCitation('CMS122', { start: '2025-07-01', end: '2026-06-30' }),
  gapCitation('CMS951', { start: '2026-01-01', end: '2026-12-31' }),
  missingDataCitation('blood-pressure', '2026-06-30'),
  riskDriverCitation('prior_admissions_12m', '2026-06-30'),
  readmissionPredictionCitation('2026-06-30'),
];

const MALFORMED = [
  'obs:not-a-uuid',
  'OBS:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
  '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
  'lab:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
  'gap:CMS122',
  'gap:CMS122@2026-06-30',
  'missing:Blood Pressure@2026-06-30',
  ' obs:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
  '',
];

describe('the citation grammar', () => {
  it.each(EMITTED)('accepts %s, as a tool emits it', (id) => {
    expect(isCitation(id)).toBe(true);
    expect(ROW_CITATION.test(id)).toBe(true);
    expect(id.length).toBeLessThanOrEqual(CITATION_MAX_LENGTH);
  });

  it('has one form per kind, each stored kind and each derived kind the tools emit', () => {
    expect(CITATION_FORMS.map((form) => form.kind).sort()).toEqual([...Object.keys(STORED_KINDS), 'gap', 'missing', 'risk', 'prediction'].sort());
    expect(citationFormOf(EMITTED.find((id) => id.startsWith('gap:'))!)).toMatchObject({ names: 'care gap', source: 'derived' });
    expect(citationFormOf(EMITTED.find((id) => id.startsWith('cond:'))!)).toMatchObject({ names: 'condition', source: 'stored' });
  });

  it.each(MALFORMED)('refuses %p', (id) => {
    expect(isCitation(id)).toBe(false);
    expect(citationFormOf(id)).toBeUndefined();
  });

  it('says every accepted form in words', () => {
    for (const form of CITATION_FORMS) expect(CITATION_FORMS_TEXT).toContain(`${form.shape} (${form.names})`);
  });
});

import { groundAnswer, indexCitations, parseFinalAnswer } from './grounding';

const OBS = 'obs:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11';
const ENC = 'enc:0b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d12';
const rows = [
  { citation: OBS, encounterCitation: ENC, display: 'Hemoglobin A1c', value: 6.8, unit: '%', effectiveAt: '2026-05-30T09:00:00.000Z' },
];

describe(groundAnswer.name, () => {
  const cited = indexCitations(rows);
  const ground = (statements: unknown[], status = 'answered') => groundAnswer({ status, statements }, cited);

  it('keeps a statement whose citations were returned and whose numbers are in the cited row', () => {
    const sut = ground([{ text: 'The last HbA1c was 6.8 % on 2026-05-30.', citations: [OBS] }]);
    expect(sut).toEqual({ status: 'answered', statements: [{ text: 'The last HbA1c was 6.8 % on 2026-05-30.', citations: [OBS] }], dropped: [] });
  });

  it('finds a row by a citation nested in it (the encounter of an observation)', () => {
    expect(ground([{ text: 'An HbA1c of 6.8 % was taken at that visit.', citations: [ENC] }]).status).toBe('answered');
  });

  it('drops uncited, mis-cited, ungrounded-number and treatment statements, degrading to insufficient_data', () => {
    const sut = ground([
      { text: 'The HbA1c was 6.8 %.', citations: [] },
      { text: 'The HbA1c was 6.8 %.', citations: ['obs:00000000-0000-4000-8000-000000000000'] },
      { text: 'The HbA1c was 9.4 %.', citations: [OBS] },
      { text: 'A statin should be started given HbA1c 6.8 %.', citations: [OBS] },
      'not a statement',
    ]);
    expect(sut).toEqual({ status: 'insufficient_data', statements: [], dropped: ['no_citation', 'unknown_citation', 'ungrounded_number', 'treatment_advice', 'malformed'] });
  });

  it('carries no statements for a non-answer', () => {
    expect(ground([{ text: 'x 6.8', citations: [OBS] }], 'refused')).toEqual({ status: 'refused', statements: [], dropped: [] });
    expect(ground([{ text: 'x 6.8', citations: [OBS] }], 'something-else').status).toBe('insufficient_data');
  });
});

describe(indexCitations.name, () => {
  const OTHER = 'obs:11111111-2222-4333-8444-555555555555';
  it('takes ids only from identity and evidence fields, never from text inside a record', () => {
    const encounter = {
      citation: ENC,
      reason: OTHER,
      notes: [{ citation: 'note:0b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d13', text: OTHER, type: `see ${OTHER}` }],
    };
    const gap = { measureId: 'CMS122', evidence: [OBS], groups: [{ evidence: { numerator: [OBS], denominator: [ENC] } }], reason: { text: OTHER } };
    expect([...indexCitations([encounter, gap]).keys()].sort()).toEqual([ENC, 'note:0b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d13', OBS].sort());
  });

  it('refuses ids that are not of the shape the tools write', () => {
    expect([...indexCitations([{ citation: 'obs:not-a-uuid' }, { citation: 'gap:CMS122' }, { evidence: ['x'] }]).keys()]).toEqual([]);
  });
});

describe(parseFinalAnswer.name, () => {
  it('reads the JSON answer, fenced or not, and refuses anything else', () => {
    expect(parseFinalAnswer('```json\n{"status":"answered","statements":[]}\n```')).toEqual({ status: 'answered', statements: [] });
    expect(parseFinalAnswer('The HbA1c is fine.')).toBeNull();
    expect(parseFinalAnswer('[]')).toBeNull();
    expect(parseFinalAnswer(null)).toBeNull();
  });
});

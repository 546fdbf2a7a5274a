import { StaffRole } from '../common/roles';
import { citedItems, conditionRow, FoundRow, WITHHELD } from './cited-evidence';

const CONDITION = conditionRow({
  id: '97995cdf-1111-4222-8333-444455556666', codeSystem: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes mellitus type 2',
  clinicalStatus: 'active', verificationStatus: 'confirmed', category: 'problem-list-item', bodySiteSystem: null, bodySiteCode: null,
  onsetDate: '2019-03-02', abatementDate: null, recordedAt: '2019-03-02T10:00:00Z',
} as never);
const COND = String(CONDITION.citation);
const GAP = 'gap:CMS122@2025-07-01..2026-06-30';
const GAP_ROW = { citation: GAP, measureId: 'CMS122', title: 'Diabetes: HbA1c poor control', status: 'open-gap', reason: 'No HbA1c in the period', periodStart: '2025-07-01', periodEnd: '2026-06-30' };
const found = new Map<string, FoundRow>([[COND, { shape: 'cited_condition', row: CONDITION }], [GAP, { shape: 'care_gap_lookup', row: GAP_ROW }]]);

describe(citedItems.name, () => {
  it('says a cited condition and a care gap in words for a clinician', () => {
    const { items } = citedItems([COND, GAP], found, StaffRole.Clinician);
    expect(items).toEqual([
      { id: COND, kind: 'condition', withheld: false, text: 'Diabetes mellitus type 2 · active · onset 2019-03-02', why: null },
      { id: GAP, kind: 'care gap', withheld: false, text: 'CMS122 Diabetes: HbA1c poor control · open-gap · No HbA1c in the period · 2025-07-01 to 2026-06-30', why: null },
    ]);
  });

  it('withholds what the role may not see, what is gone and kinds not shown, saying why', () => {
    const gone = 'cond:00000000-0000-4000-8000-000000000000';
    const med = 'med:00000000-0000-4000-8000-000000000001';
    expect(citedItems([COND], found, StaffRole.Analyst).items).toEqual([{ id: COND, kind: 'condition', withheld: true, text: null, why: WITHHELD.role }]);
    expect(citedItems([gone, med], found, StaffRole.Clinician).items).toEqual([
      { id: gone, kind: 'condition', withheld: true, text: null, why: WITHHELD.gone },
      { id: med, kind: 'medication', withheld: true, text: null, why: WITHHELD.kind },
    ]);
  });
});

import { CodeSystem } from '../../cohort/enum';
import { VS } from '../../terminology';
import { chart, condition, observation, patient, visit } from '../../../test/setup/clinical/chart-builder';
import { evaluateCareGaps } from '.';

const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const officeVisit = visit('2025-05-02', { typeSystem: CodeSystem.Cpt, typeCode: '99213', typeDisplay: 'Office visit' });
const adult = patient({ birthDate: '1970-03-01' });

describe('care-gap data-quality notes', () => {
  it('names a near miss: hypertension coded as SNOMED CT 38341003, outside Essential Hypertension', () => {
    const hypertension = condition(CodeSystem.SnomedCt, '38341003', '2020-01-01', { display: 'Hypertensive disorder, systemic arterial (disorder)' });
    const [result] = evaluateCareGaps(chart({ patient: adult, encounters: [officeVisit], conditions: [hypertension] }), { period: PERIOD, measureIds: ['CMS165'] });
    expect(result.reason.code).toBe('initial-population:essential-hypertension');
    expect(result.dataQuality).toEqual([
      {
        code: 'near-miss-code',
        text: expect.stringContaining(`SNOMED CT 38341003`),
        evidence: [`cond:${hypertension.id}`],
      },
    ]);
    expect(result.dataQuality[0].text).toContain(VS['Essential Hypertension']);
  });

  it('flags an implausible HbA1c and rounds values as a clinician writes them', () => {
    const diabetes = condition(CodeSystem.SnomedCt, '44054006', '2015-01-01');
    const a1c = observation('4548-4', 2.04, '2025-06-01T10:00:00Z', { unit: '%' });
    const [result] = evaluateCareGaps(chart({ patient: adult, encounters: [officeVisit], conditions: [diabetes], observations: [a1c] }), { period: PERIOD, measureIds: ['CMS122'] });
    expect(result.reason).toMatchObject({ code: 'not-numerator:most-recent-at-or-below-9', text: expect.stringContaining('is 2.0 %') });
    expect(result.dataQuality).toEqual([{ code: 'implausible-value', text: expect.stringContaining('2.0 %'), evidence: [`obs:${a1c.id}`] }]);
  });
});

import { PatientChart } from '../../cohort/chart.types';
import { CodeSystem, EncounterClass, EncounterStatus } from '../../cohort/enum';
import { chart, encounter, observation, patient } from '../../../test/setup/clinical/chart-builder';
import { buildFixtureCharts, FIXTURE_ANCHOR, FIXTURE_KEYS } from '../../../test/setup/fixture-charts';
import { expectedIndexAdmissions } from '../../../test/setup/clinical/fixture-readme';
import { attributeReadmissionRisk, READMISSION_FEATURES, READMISSION_MODEL } from '.';
import { AttributionResult, ReadmissionFeature } from './readmission.types';

const charts = buildFixtureCharts();
const scored = new Map(FIXTURE_KEYS.map((key) => [key, attributeReadmissionRisk(charts.get(key)!, FIXTURE_ANCHOR)]));
const withIndex = FIXTURE_KEYS.filter((key) => scored.get(key) !== null);
const values = (result: AttributionResult | null) =>
  Object.fromEntries(result!.contributions.map((row) => [row.feature, row.value])) as Record<ReadmissionFeature, number>;

describe(attributeReadmissionRisk.name, () => {
  it('finds an index admission for exactly the patients the README names', () => {
    expect(withIndex.sort()).toEqual(expectedIndexAdmissions().sort());
    expect(withIndex.sort()).toEqual(['aged-92', 'arabic-name', 'readmission-high-utilizer']);
  });

  it.each(withIndex.map((key) => [key]))('%s: baselineLogit + Σφ = logit(p), exactly (Shapley efficiency)', (key) => {
    const result = scored.get(key)!;
    const sum = result.contributions.reduce((total, row) => total + row.phi, 0);
    expect(Math.abs(result.baselineLogit + sum - result.logit)).toBeLessThan(1e-9);
    expect(Math.abs(Math.log(result.probability / (1 - result.probability)) - result.logit)).toBeLessThan(1e-9);
    for (const row of result.contributions) expect(row.phi).toBeCloseTo(row.weight * (row.value - row.baseline), 12);
  });

  it.each(withIndex.map((key) => [key]))('%s: every feature once, sorted by |φ|, directions matching the sign', (key) => {
    const { contributions, disclaimer } = scored.get(key)!;
    expect(contributions.map((row) => row.feature).sort()).toEqual([...READMISSION_FEATURES].sort());
    const magnitudes = contributions.map((row) => Math.abs(row.phi));
    expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
    for (const row of contributions) {
      expect(row.direction).toBe(row.phi > 0 ? 'raises' : row.phi < 0 ? 'lowers' : 'neutral');
      // A count of zero (no ED visit, no Charlson condition) has no row to cite; anything else does.
      if (!row.imputed && row.value !== 0) expect(row.evidence.length).toBeGreaterThan(0);
    }
    expect(disclaimer).toBe('Illustrative model, not validated for clinical use.');
  });

  it('scores the readmission of readmission-high-utilizer with the README drivers, highest in the cohort', () => {
    const result = scored.get('readmission-high-utilizer')!;
    const index = charts.get('readmission-high-utilizer')!.encounters.find((row) => row.disposition === 'home with home health services')!;
    expect(result.indexAdmission).toBe(`enc:${index.id}`);
    expect(values(result)).toMatchObject({
      length_of_stay_days: 5,
      emergency_admission: 1,
      charlson_index: 6,
      ed_visits_6m: 3,
      inpatient_stays_12m: 1,
      age: 73,
      egfr: 23,
      discharged_to_care: 1,
    });
    const others = withIndex.filter((key) => key !== 'readmission-high-utilizer').map((key) => scored.get(key)!.probability);
    expect(result.probability).toBeGreaterThan(Math.max(...others));
  });

  it('scores aged-92 and arabic-name with the README drivers; arabic-name has no eGFR and is imputed at baseline', () => {
    expect(values(scored.get('aged-92')!)).toMatchObject({ length_of_stay_days: 6, emergency_admission: 1, charlson_index: 1, age: 91, egfr: 45, discharged_to_care: 1 });
    const arabic = scored.get('arabic-name')!;
    expect(values(arabic)).toMatchObject({ length_of_stay_days: 2, emergency_admission: 1, charlson_index: 0, ed_visits_6m: 1, inpatient_stays_12m: 0, age: 43, discharged_to_care: 0 });
    const egfr = arabic.contributions.find((row) => row.feature === 'egfr')!;
    expect(egfr).toMatchObject({ imputed: true, phi: 0, direction: 'neutral', evidence: [], value: egfr.baseline });
    expect(arabic.probability).toBeLessThan(1 / (1 + Math.exp(-arabic.baselineLogit)));
  });

  it('has no index admission for a stay that ended in death or an observation-class stay', () => {
    expect(scored.get('deceased')).toBeNull();
    expect(scored.get('statin-ascvd-on-statin')).toBeNull();
  });

  it('takes the earlier stay as the index before the readmission has ended', () => {
    // The readmission ends on 2026-05-31 (−30d); the day before, the index is the −52d → −47d stay.
    const result = attributeReadmissionRisk(charts.get('readmission-high-utilizer')!, '2026-05-30')!;
    expect(values(result)).toMatchObject({ length_of_stay_days: 5, emergency_admission: 1, charlson_index: 6, ed_visits_6m: 3, inpatient_stays_12m: 0, egfr: 24 });
    expect(attributeReadmissionRisk(charts.get('readmission-high-utilizer')!, '2026-05-13')).toBeNull();
  });

  it('ignores cancelled or planned inpatient encounters and counts ED visits only within 6 months of admission', () => {
    const c = chart({
      patient: patient({ birthDate: '1960-01-01' }),
      encounters: [
        encounter(EncounterClass.Emergency, '2025-09-30', '2025-09-30'), // 6 months + 1 day before: out
        encounter(EncounterClass.Emergency, '2025-10-01', '2025-10-01'), // exactly 6 months before: in
        encounter(EncounterClass.Emergency, '2026-03-20', '2026-03-20', { status: EncounterStatus.Cancelled }),
        encounter(EncounterClass.Inpatient, '2026-04-01', '2026-04-04', { disposition: 'home' }),
        encounter(EncounterClass.Inpatient, '2026-05-01', '2026-05-03', { status: EncounterStatus.Cancelled }),
        encounter(EncounterClass.Inpatient, '2026-07-01', '2026-07-03', { status: EncounterStatus.Planned }),
      ],
    });
    const result = attributeReadmissionRisk(c, '2026-06-30')!;
    expect(values(result)).toMatchObject({ length_of_stay_days: 3, ed_visits_6m: 1, emergency_admission: 0, inpatient_stays_12m: 0 });
  });

  it('reads an eGFR recorded as mL/min as well as mL/min/{1.73_m2}, and not one in another unit', () => {
    const stay = encounter(EncounterClass.Inpatient, '2026-04-01', '2026-04-04', { disposition: 'home' });
    const egfr = (unit: string) =>
      values(attributeReadmissionRisk(chart({ encounters: [stay], observations: [observation('33914-3', 52, '2026-04-02', { unit })] }), '2026-06-30')).egfr;
    expect(egfr('mL/min')).toBe(52);
    expect(egfr('mL/min/{1.73_m2}')).toBe(52);
    expect(egfr('mL/s')).toBe(READMISSION_MODEL.features.find((spec) => spec.feature === 'egfr')!.baseline);
  });

  it('counts an emergency-typed admission as acute without an ED row, and caps long stays at 14 days', () => {
    const stay = encounter(EncounterClass.Inpatient, '2026-03-01', '2026-04-10', {
      typeSystem: CodeSystem.SnomedCt,
      typeCode: '183452005',
      disposition: 'skilled nursing facility',
    });
    expect(values(attributeReadmissionRisk(chart({ encounters: [stay] }), '2026-06-30'))).toMatchObject({
      emergency_admission: 1,
      length_of_stay_days: 14,
      discharged_to_care: 1,
    });
  });

  it('imputes the baseline for an unknown disposition', () => {
    const c: PatientChart = chart({ encounters: [encounter(EncounterClass.Inpatient, '2026-03-01', '2026-03-03')] });
    const row = attributeReadmissionRisk(c, '2026-06-30')!.contributions.find((item) => item.feature === 'discharged_to_care')!;
    expect(row).toMatchObject({ imputed: true, phi: 0 });
  });
});

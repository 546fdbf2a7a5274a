import { randomUUID } from 'node:crypto';
import { CodeSystem, EncounterClass, MedicationStatus } from '../../cohort/enum';
import { VS } from '../../terminology';
import { allergy, bloodPressure, chart, condition, encounter, medication, observation, patient, procedure, visit } from '../../../test/setup/clinical/chart-builder';
import { closed, holds, overlaps } from './cql/day-interval';
import { allergyOnset, effectiveInterval, effectiveLatest } from './cql/qicore';
import { evaluateCareGaps } from '.';

/**
 * Facts the stewards' CQL reads exactly as the source coded them: the encounter class code (CMS165)
 * and whether a medication order carries its own code or only a referenced Medication's (every
 * `[MedicationRequest: …]` retrieve). Each row here is a case the stewards' logic decides one way.
 */
const PERIOD = { start: '2025-01-01', end: '2025-12-31' };
const officeVisit = visit('2025-03-02', { typeSystem: CodeSystem.Cpt, typeCode: '99213', typeDisplay: 'Office visit' });
const essentialHypertension = condition(CodeSystem.Icd10Cm, 'I10', '2020-01-01');

/** A hypertensive adult whose only blood-pressure panel (118/76, controlled) was taken in `bpEncounter`. */
function hypertensiveWithReadingIn(bpEncounter: ReturnType<typeof encounter>) {
  const panelId = randomUUID();
  const panel = bloodPressure(118, 76, '2025-06-01T10:00:00Z', bpEncounter.id).map((row) => ({ ...row, panelId }));
  return chart({ patient: patient({ birthDate: '1970-03-01' }), encounters: [officeVisit, bpEncounter], conditions: [essentialHypertension], observations: panel });
}

const cms165 = (patientChart: ReturnType<typeof chart>) => evaluateCareGaps(patientChart, { period: PERIOD, measureIds: ['CMS165'] })[0];

describe('CMS165: a reading counts unless its encounter’s class code is EMER, IMP, ACUTE, NONAC, PRENC or SS', () => {
  it.each([
    // [class code as the source wrote it, Vigil's class for it, does the reading count]
    ['AMB', EncounterClass.Ambulatory, true],
    ['FLD', EncounterClass.Ambulatory, true],
    ['PRENC', EncounterClass.Ambulatory, false],
    ['HH', EncounterClass.Home, true],
    ['VR', EncounterClass.Virtual, true],
    ['OBSENC', EncounterClass.Observation, true],
    ['SS', EncounterClass.Observation, false],
    ['EMER', EncounterClass.Emergency, false],
    ['IMP', EncounterClass.Inpatient, false],
    ['ACUTE', EncounterClass.Inpatient, false],
    ['NONAC', EncounterClass.Inpatient, false],
  ] as const)('class code %s (%s): counts = %s', (classCode, cls, counts) => {
    const result = cms165(hypertensiveWithReadingIn(encounter(cls, '2025-06-01', '2025-06-01', { classCode })));
    expect([result.status, result.reason.code]).toEqual(counts ? ['closed-gap', 'numerator:controlled'] : ['open-gap', 'not-numerator:no-blood-pressure']);
  });

  it.each([
    // Rows without a code of their own (fixtures, the generator) are read by the v3 code their class stands for.
    [EncounterClass.Ambulatory, true],
    [EncounterClass.Home, true],
    [EncounterClass.Virtual, true],
    [EncounterClass.Observation, true],
    [EncounterClass.Emergency, false],
    [EncounterClass.Inpatient, false],
  ] as const)('class %s without a raw code: counts = %s', (cls, counts) => {
    const result = cms165(hypertensiveWithReadingIn(encounter(cls, '2025-06-01', '2025-06-01', { classCode: null })));
    expect(result.status).toBe(counts ? 'closed-gap' : 'open-gap');
  });
});

describe('medication orders coded only through a referenced Medication are passed over by the retrieves (CQLIT-412)', () => {
  // CMS165's "Advanced Illness and Frailty Exclusion" for 66–80: frailty, and a dementia medication
  // active in the period or the year before (AdvancedIllnessandFrailty 1.16.000).
  const frailty = condition(CodeSystem.Icd10Cm, 'L89.000', '2024-06-01');
  const supply = { boundsStart: '2025-02-01', boundsEnd: '2025-08-01', validityStart: null, expectedSupplyDays: null, quantity: null, refills: null, frequency: null, period: null, periodUnit: null, timesOfDay: 0, dose: null, dosageCount: 1 };
  const donepezil = (codeFromReference: boolean) => medication('1100184', MedicationStatus.Active, '2025-02-01', '2025-08-01', { codeFromReference, supply });
  const frailHypertensive = (codeFromReference: boolean) => {
    const order = donepezil(codeFromReference);
    return {
      order,
      chart: chart({
        patient: patient({ birthDate: '1955-03-01' }),
        encounters: [officeVisit],
        conditions: [essentialHypertension, frailty],
        medications: [order],
      }),
    };
  };

  it('an order with its own dementia-medication code excludes, with no note', () => {
    const result = cms165(frailHypertensive(false).chart);
    expect([result.status, result.reason.code]).toEqual(['not-applicable', 'denominator-exclusion:advanced-illness-frailty']);
    expect(result.dataQuality).toEqual([]);
  });

  it('the same order coded through a referenced Medication does not exclude, and a note names it and the value set', () => {
    const { chart: patientChart, order } = frailHypertensive(true);
    const result = cms165(patientChart);
    expect(result.groups[0].populations).toEqual({ initialPopulation: true, denominator: true, denominatorExclusion: false, denominatorException: false, numerator: false });
    expect(result.dataQuality).toEqual([{ code: 'medication-by-reference', text: expect.stringContaining(VS['Dementia Medications']), evidence: [`med:${order.id}`] }]);
  });

  it('notes a passed-over order only for measures whose retrieves read its value set', () => {
    const results = evaluateCareGaps(frailHypertensive(true).chart, { period: PERIOD });
    const noted = results.filter((result) => result.dataQuality.some((note) => note.code === 'medication-by-reference')).map((result) => result.measureId);
    // CMS165 reaches the dementia retrieve; CMS951 and CMS347 read no dementia medications.
    expect(noted).toContain('CMS165');
    expect(noted).not.toContain('CMS951');
    expect(noted).not.toContain('CMS347');
  });
});

describe('a Period given without an end runs to the end of time (FHIRHelpers `Interval[start, null]`); a dateTime is a point', () => {
  const day = (instant: string) => instant.slice(0, 10);

  it.each([
    // [stored as an open period, what "overlaps 2025" says for an onset on 2020-05-01]
    [true, true],
    [false, false],
  ])('a statin allergy since 2020, open period = %s, overlaps the 2025 period = %s', (open, overlapsPeriod) => {
    const row = allergy(CodeSystem.RxNorm, '36567', '2020-05-01', { onsetAt: '2020-05-01T08:00:00Z', onsetPeriodOpen: open });
    const onset = allergyOnset(row, day)!;
    expect(holds(overlaps(onset, closed(PERIOD.start, PERIOD.end)))).toBe(overlapsPeriod);
  });

  it('CMS165: dialysis "ends on or before the end of the period": a dialysis still going (open period) does not exclude; one on a day does', () => {
    const dialysis = (open: boolean) => procedure(CodeSystem.Cpt, '90935', '2025-04-01T09:00:00Z', { performedPeriodOpen: open });
    const withDialysis = (open: boolean) =>
      chart({ patient: patient({ birthDate: '1970-03-01' }), encounters: [officeVisit], conditions: [essentialHypertension], procedures: [dialysis(open)] });
    expect(cms165(withDialysis(false)).reason.code).toBe('denominator-exclusion:esrd-procedure');
    expect(cms165(withDialysis(true)).groups[0].populations.denominatorExclusion).toBe(false);
  });

  it('an observation with an open effective period is dated by its start for `latest()` (no end: `hasEnd()` is false)', () => {
    const row = observation('4548-4', 7, '2025-03-01T10:00:00Z', { effectivePeriodOpen: true });
    expect(effectiveLatest(row, day)).toBe('2025-03-01');
    expect(effectiveInterval(row, day)).toEqual(closed('2025-03-01', null));
  });
});

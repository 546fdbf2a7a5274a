import { PatientChart } from '../cohort/chart.types';
import {
  AllergyClinicalStatus,
  CodeSystem,
  ConditionClinicalStatus,
  EncounterClass,
  EncounterStatus,
  Interpretation,
  MedicationStatus,
  NoteType,
  ObservationCategory,
  ObservationStatus,
  ProcedureStatus,
  Sex,
} from '../cohort/enum';
import { evaluateCareGaps } from '../clinical/care-gaps';
import { checkMissingData } from '../clinical/missing-data';
import { attributeReadmissionRisk } from '../clinical/readmission';
import { trailingYear } from '../clinical/shared/clinical-dates';
import { IdFactory } from './ids';
import { CohortContext, generatePatientRecord } from './patient-record';
import { PatientRecord } from './rows';
import { DAY_MS, YEAR_MS } from './time';
import { CONDITION, LAB } from './vocabulary';

const ANCHOR = '2026-06-30';
const TEAMS = ['0b6c1a4e-8a0f-5d7e-9b3c-1e2f3a4b5c6d', '7d8e9f0a-1b2c-5d3e-8f4a-5b6c7d8e9f0a'];
const context = (seed: number): CohortContext => ({ seed, anchorMs: Date.parse(`${ANCHOR}T00:00:00Z`), careTeamIds: TEAMS, ids: new IdFactory(seed) });
const cohort = (seed: number, size: number, from = 0) => Array.from({ length: size }, (_, i) => generatePatientRecord(context(seed), from + i));

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const ageOf = (record: PatientRecord) => Math.floor((Date.parse(`${ANCHOR}T00:00:00Z`) - Date.parse(record.patient.birthDate)) / YEAR_MS);
const hasCode = (record: PatientRecord, ...codes: string[]) => record.conditions.some((row) => codes.includes(row.code));
const share = (records: PatientRecord[], test: (record: PatientRecord) => boolean) => records.filter(test).length / records.length;

/** A generated record as the cohort repository would return it to the clinical engines. */
function toChart(record: PatientRecord): PatientChart {
  return {
    patient: { ...record.patient, deceasedAt: record.patient.deceasedAt === null ? null : iso(record.patient.deceasedAt) },
    encounters: record.encounters.map((row) => ({ ...row, startAt: iso(row.startAt), endAt: row.endAt === null ? null : iso(row.endAt) })),
    observations: record.observations.map((row) => ({ ...row, effectiveAt: iso(row.effectiveAt), effectiveEndAt: isoOrNull(row.effectiveEndAt) })),
    conditions: record.conditions.map((row) => ({ ...row, recordedAt: iso(row.recordedAt) })),
    medications: record.medications.map((row) => ({ ...row, authoredAt: isoOrNull(row.authoredAt) })),
    dispenses: [],
    immunizations: [],
    communications: [],
    administrations: [],
    tasks: [],
    procedures: record.procedures.map((row) => ({ ...row, performedAt: iso(row.performedAt), performedEndAt: isoOrNull(row.performedEndAt) })),
    allergies: record.allergies.map((row) => ({ ...row, recordedAt: iso(row.recordedAt), onsetAt: isoOrNull(row.onsetAt), onsetEndAt: isoOrNull(row.onsetEndAt) })),
    requests: [],
    adverseEvents: [],
  };
}

describe(generatePatientRecord.name, () => {
  /**
   * One cohort for the invariants (its first 600), the distributions (all of it) and the engines (its
   * first 1,500): generating patients is what this file spends its time on.
   */
  const generated = cohort(11, 3000);

  describe('determinism', () => {
    it('gives the same rows for the same seed and index', () => {
      expect(cohort(1, 50)).toEqual(cohort(1, 50));
    });

    it('makes patient k the same whatever came before it (no shared state, independent of N)', () => {
      const alone = generatePatientRecord(context(1), 149);
      const afterOthers = cohort(1, 150)[149];
      expect(afterOthers).toEqual(alone);
    });

    it('gives another cohort for another seed', () => {
      const [a, b] = [generatePatientRecord(context(1), 0), generatePatientRecord(context(2), 0)];
      expect(a.patient.id).not.toBe(b.patient.id);
      expect(a.patient.mrn).not.toBe(b.patient.mrn);
    });
  });

  describe('schema vocabularies and invariants (what the CHECK constraints and foreign keys demand)', () => {
    const records = generated.slice(0, 600);
    const values = <T extends object>(vocabulary: T) => new Set<unknown>(Object.values(vocabulary));
    const all = <K extends Exclude<keyof PatientRecord, 'patient'>>(key: K) => records.flatMap((record) => record[key] as unknown[]) as PatientRecord[K];

    it('uses only the vocabularies of each table', () => {
      const bad = (rows: object[], ok: (row: never) => boolean) => rows.filter((row) => !ok(row as never));
      const known = (vocabulary: object, value: unknown) => values(vocabulary).has(value);
      const coded = (system: string | null) => system === null || known(CodeSystem, system);
      expect(records.filter((record) => !known(Sex, record.patient.sex))).toEqual([]);
      expect(bad(all('encounters'), (row: PatientRecord['encounters'][number]) =>
        known(EncounterClass, row.class) && known(EncounterStatus, row.status) && coded(row.typeSystem) && coded(row.reasonSystem))).toEqual([]);
      expect(bad(all('observations'), (row: PatientRecord['observations'][number]) =>
        known(ObservationCategory, row.category) && known(ObservationStatus, row.status) && row.codeSystem === CodeSystem.Loinc &&
        (row.interpretation === null || known(Interpretation, row.interpretation)) && (row.valueNumeric !== null || row.valueText !== null))).toEqual([]);
      expect(bad(all('conditions'), (row: PatientRecord['conditions'][number]) =>
        [CodeSystem.Icd10Cm, CodeSystem.SnomedCt].includes(row.codeSystem as CodeSystem) && known(ConditionClinicalStatus, row.clinicalStatus))).toEqual([]);
      expect(bad(all('medications'), (row: PatientRecord['medications'][number]) =>
        row.codeSystem === CodeSystem.RxNorm && known(MedicationStatus, row.status) && (row.endDate === null || row.endDate >= row.startDate))).toEqual([]);
      expect(bad(all('procedures'), (row: PatientRecord['procedures'][number]) =>
        [CodeSystem.Cpt, CodeSystem.SnomedCt, CodeSystem.Loinc].includes(row.codeSystem as CodeSystem) && known(ProcedureStatus, row.status))).toEqual([]);
      expect(bad(all('clinicalNotes'), (row: PatientRecord['clinicalNotes'][number]) => known(NoteType, row.noteType))).toEqual([]);
      expect(bad(all('allergies'), (row: PatientRecord['allergies'][number]) => known(AllergyClinicalStatus, row.clinicalStatus))).toEqual([]);
    });

    it('keeps periods ordered, nothing happening after death, and references inside the patient', () => {
      const problems: string[] = [];
      for (const record of records) {
        const { patient } = record;
        const death = patient.deceasedAt ?? Infinity;
        if (patient.deceasedAt !== null && iso(patient.deceasedAt).slice(0, 10) < patient.birthDate) problems.push(`${patient.mrn} died before birth`);
        const encounterIds = new Set(record.encounters.map((row) => row.id));
        for (const row of record.encounters) {
          if (row.endAt !== null && row.endAt < row.startAt) problems.push(`${row.id} ends before it starts`);
          if (row.startAt > death) problems.push(`${row.id} after death`);
        }
        for (const row of record.observations) {
          if (row.encounterId !== null && !encounterIds.has(row.encounterId)) problems.push(`${row.id} foreign encounter`);
          if (row.effectiveAt > death) problems.push(`${row.id} after death`);
        }
        for (const row of [...record.procedures, ...record.clinicalNotes]) {
          if (row.encounterId !== null && !encounterIds.has(row.encounterId)) problems.push(`${row.id} foreign encounter`);
        }
        if (new Set(record.patientCareTeams.map((row) => row.careTeamId)).size !== record.patientCareTeams.length) problems.push(`${patient.mrn} team twice`);
      }
      expect(problems).toEqual([]);
    });

    it('gives every row a unique id and every patient a unique MRN', () => {
      const ids = records.flatMap((record) =>
        [record.patient, ...record.encounters, ...record.observations, ...record.conditions, ...record.medications, ...record.procedures,
          ...record.clinicalNotes, ...record.allergies].map((row) => row.id),
      );
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(records.map((record) => record.patient.mrn)).size).toBe(records.length);
    });
  });

  describe('distributions on 3,000 patients (bands around the sources in docs/generator.md)', () => {
    const records = generated;
    const band = (min: number, max: number) => (age: number) => age >= min && age <= max;
    const inBand = (test: (age: number) => boolean) => records.filter((record) => test(ageOf(record)));
    const diabetic = (record: PatientRecord) => hasCode(record, 'E11.9', 'E11.65', 'E11.22', '44054006');

    it('follows the adult age and sex pyramid', () => {
      expect(share(records, (record) => ageOf(record) >= 65)).toBeGreaterThan(0.17);
      expect(share(records, (record) => ageOf(record) >= 65)).toBeLessThan(0.28);
      expect(records.every((record) => ageOf(record) >= 18 && ageOf(record) <= 100)).toBe(true);
      expect(share(records, (record) => record.patient.sex === Sex.Female)).toBeGreaterThan(0.46);
      expect(share(records, (record) => record.patient.sex === Sex.Female)).toBeLessThan(0.57);
    });

    it('has chronic disease rising with age, near CDC prevalence', () => {
      const young = share(inBand(band(18, 44)), diabetic);
      const middle = share(inBand(band(45, 64)), diabetic);
      const old = share(inBand(band(65, 120)), diabetic);
      expect(young).toBeLessThan(middle);
      expect(middle).toBeLessThan(old);
      expect(share(records, diabetic)).toBeGreaterThan(0.07);
      expect(share(records, diabetic)).toBeLessThan(0.15);
      expect(old).toBeGreaterThan(0.14);
      const hypertensive = (record: PatientRecord) => hasCode(record, 'I10', '59621000');
      expect(share(inBand(band(18, 44)), hypertensive)).toBeLessThan(share(inBand(band(65, 120)), hypertensive));
      expect(share(records, hypertensive)).toBeGreaterThan(0.22);
      expect(share(records, hypertensive)).toBeLessThan(0.4);
      expect(share(inBand(band(75, 120)), (record) => hasCode(record, 'I50.9'))).toBeGreaterThan(0.04);
      expect(share(records, (record) => hasCode(record, 'J44.9'))).toBeGreaterThan(0.03);
    });

    it('records obesity by BMI, deaths at a plausible rate, and enough visits and results', () => {
      const lastBmi = (record: PatientRecord) => record.observations.filter((row) => row.code === '39156-5').at(-1)?.valueNumeric;
      const measured = records.filter((record) => lastBmi(record) !== undefined);
      expect(share(measured, (record) => (lastBmi(record) as number) >= 30)).toBeGreaterThan(0.3);
      expect(share(measured, (record) => (lastBmi(record) as number) >= 30)).toBeLessThan(0.52);
      expect(share(records, (record) => record.patient.deceasedAt !== null)).toBeGreaterThan(0.01);
      expect(share(records, (record) => record.patient.deceasedAt !== null)).toBeLessThan(0.08);
      const per = (key: 'encounters' | 'observations') => records.reduce((sum, record) => sum + record[key].length, 0) / records.length;
      expect(per('encounters')).toBeGreaterThan(10.5);
      expect(per('observations')).toBeGreaterThan(55);
    });

    it('checks HbA1c every 3–6 months in most diabetics who keep appointments, and flags values by range', () => {
      const anchorMs = Date.parse(`${ANCHOR}T00:00:00Z`);
      const established = records.filter(
        (record) => diabetic(record) && record.patient.deceasedAt === null && record.patient.createdAt < anchorMs - 2 * YEAR_MS,
      );
      const recentA1c = (record: PatientRecord) => record.observations.some((row) => row.code === LAB.hba1c.code && row.effectiveAt > anchorMs - 183 * DAY_MS);
      expect(established.length).toBeGreaterThan(100);
      expect(share(established, recentA1c)).toBeGreaterThan(0.55);
      expect(share(established, recentA1c)).toBeLessThan(0.97);
      const a1c = records.flatMap((record) => record.observations.filter((row) => row.code === LAB.hba1c.code));
      expect(a1c.every((row) => (row.valueNumeric as number) > 5.6 === (row.interpretation === Interpretation.High))).toBe(true);
    });

    it('has inpatient stays with 30-day readmissions', () => {
      let discharges = 0;
      let readmitted = 0;
      for (const record of records) {
        const stays = record.encounters.filter((row) => row.class === EncounterClass.Inpatient && row.disposition !== 'expired');
        for (const stay of stays) {
          discharges++;
          if (record.encounters.some((row) => row.class === EncounterClass.Inpatient && row.startAt > (stay.endAt as number) && row.startAt <= (stay.endAt as number) + 30 * DAY_MS)) readmitted++;
        }
      }
      expect(discharges).toBeGreaterThan(300);
      expect(readmitted / discharges).toBeGreaterThan(0.06);
      expect(readmitted / discharges).toBeLessThan(0.3);
    });
  });

  describe('the clinical engines on generated charts', () => {
    const charts = generated.slice(0, 1500).map(toChart);

    it('opens and closes care gaps of every measure, in realistic proportions', () => {
      const statuses = new Map<string, Map<string, number>>();
      for (const chart of charts) {
        for (const result of evaluateCareGaps(chart, { period: trailingYear(ANCHOR), timeZone: 'UTC' })) {
          const counts = statuses.get(result.measureId) ?? new Map<string, number>();
          counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
          statuses.set(result.measureId, counts);
        }
      }
      for (const [measure, counts] of statuses) {
        expect({ measure, open: (counts.get('open-gap') ?? 0) > 5, closed: (counts.get('closed-gap') ?? 0) > 5 }).toEqual({ measure, open: true, closed: true });
      }
      expect([...statuses.keys()].sort()).toEqual(['CMS122', 'CMS125', 'CMS130', 'CMS165', 'CMS347', 'CMS951']);
    });

    it('scores readmission risk for patients with a stay, and finds missing data in some', () => {
      const scored = charts.filter((chart) => attributeReadmissionRisk(chart, ANCHOR) !== null);
      expect(scored.length).toBeGreaterThan(50);
      expect(charts.filter((chart) => checkMissingData(chart, ANCHOR).length > 0).length).toBeGreaterThan(0);
    });

    it('codes diabetes as the engines expect (ICD-10-CM and SNOMED CT both present)', () => {
      const systems = new Set(charts.flatMap((chart) => chart.conditions.filter((row) => row.code === CONDITION.diabetesType2Snomed.code || row.code.startsWith('E11')).map((row) => row.codeSystem)));
      expect(systems).toEqual(new Set([CodeSystem.Icd10Cm, CodeSystem.SnomedCt]));
    });
  });
});

import {
  AllergyClinicalStatus,
  CodeSystem,
  ConditionCategory,
  ConditionClinicalStatus,
  ConditionVerificationStatus,
  MedicationStatus,
  RequestIntent,
} from '../cohort/enum';
import type { MedicationSupply } from '../cohort/chart.types';
import { ChartWriter } from './chart-writer';
import { ChronicCondition, has, PatientProfile } from './profile';
import { Random } from './random';
import { dayString, DAY_MS, HOUR_MS, YEAR_MS } from './time';
import { ALLERGY, Coding, CONDITION, Drug, RX } from './vocabulary';

/** The coding each chronic condition carries on this patient's problem list (and as a visit reason). */
export type ProblemCodings = Partial<Record<ChronicCondition, Coding>>;

export function chooseCodings(random: Random, profile: PatientProfile): ProblemCodings {
  const codings: ProblemCodings = {};
  const set = (condition: ChronicCondition, coding: Coding) => {
    if (has(profile, condition)) codings[condition] = coding;
  };
  // Most problem lists are ICD-10-CM; some EHRs file SNOMED CT (as Synthea and the fixtures do).
  set(
    'diabetes',
    random.chance(0.15)
      ? CONDITION.diabetesType2Snomed
      : has(profile, 'ckd') && random.chance(0.7)
        ? CONDITION.diabetesType2Ckd
        : profile.baseline.hba1c >= 8 && random.chance(0.5)
          ? CONDITION.diabetesType2Hyperglycemia
          : CONDITION.diabetesType2,
  );
  set('prediabetes', CONDITION.prediabetes);
  set('hypertension', random.chance(0.12) ? CONDITION.hypertensionSnomed : CONDITION.hypertension);
  set('hyperlipidemia', random.chance(0.3) ? CONDITION.pureHypercholesterolemia : CONDITION.hyperlipidemia);
  set('coronaryDisease', CONDITION.coronaryArteryDisease);
  set('heartFailure', CONDITION.heartFailure);
  set('ckd', profile.ckdStage === '4' ? CONDITION.ckdStage4 : profile.ckdStage === '3b' ? CONDITION.ckdStage3b : CONDITION.ckdStage3a);
  set('copd', CONDITION.copd);
  set('asthma', CONDITION.asthmaModeratePersistent);
  set('obesity', CONDITION.obesity);
  set('osteoarthritis', CONDITION.osteoarthritisRightKnee);
  set('osteoporosis', CONDITION.osteoporosis);
  set('gout', CONDITION.gout);
  set('alzheimers', CONDITION.alzheimers);
  set('gerd', CONDITION.gerd);
  set('anemia', CONDITION.ironDeficiencyAnemia);
  return codings;
}

/** Problem-list rows for the chronic conditions (plus smoking), recorded when first seen in the record. */
export function addChronicConditions(writer: ChartWriter, random: Random, profile: PatientProfile, codings: ProblemCodings): void {
  for (const [condition, coding] of Object.entries(codings) as [ChronicCondition, Coding][]) {
    const onset = profile.onset[condition] as number;
    const resolved = (condition === 'gerd' || condition === 'anemia') && random.chance(0.2);
    const abatement = resolved ? Math.min(profile.endMs - DAY_MS, onset + random.uniform(0.3, 3) * YEAR_MS) : null;
    addCondition(writer, coding, {
      onset: onset < profile.registeredMs && random.chance(0.08) ? null : onset,
      recordedAt: Math.max(onset, profile.registeredMs) + 9 * HOUR_MS,
      status: resolved ? ConditionClinicalStatus.Resolved : ConditionClinicalStatus.Active,
      abatement,
    });
  }
  if (has(profile, 'coronaryDisease') && random.chance(0.3)) {
    const onset = profile.onset.coronaryDisease as number;
    addCondition(writer, CONDITION.oldMyocardialInfarction, { onset, recordedAt: Math.max(onset, profile.registeredMs) + 9 * HOUR_MS });
  }
  if (profile.smoking !== 'never' && (profile.smoking === 'current' || random.chance(0.5))) {
    const coding = profile.smoking === 'current' ? CONDITION.nicotineDependenceCigarettes : CONDITION.historyOfNicotineDependence;
    addCondition(writer, coding, { onset: null, recordedAt: profile.registeredMs + 9 * HOUR_MS });
  }
}

/** An acute problem found at a visit, resolved some days later. */
export function addAcuteCondition(writer: ChartWriter, coding: Coding, at: number, resolvesAfterDays: number, endMs: number): void {
  const abatement = at + resolvesAfterDays * DAY_MS;
  const resolved = abatement < endMs;
  addCondition(writer, coding, {
    onset: at,
    recordedAt: at,
    status: resolved ? ConditionClinicalStatus.Resolved : ConditionClinicalStatus.Active,
    abatement: resolved ? abatement : null,
  });
}

function addCondition(
  writer: ChartWriter,
  coding: Coding,
  options: { onset: number | null; recordedAt: number; status?: ConditionClinicalStatus; abatement?: number | null },
): void {
  writer.record.conditions.push({
    id: writer.nextId('condition'),
    patientId: writer.patientId,
    createdAt: options.recordedAt,
    codeSystem: coding.system,
    code: coding.code,
    display: coding.display,
    clinicalStatus: options.status ?? ConditionClinicalStatus.Active,
    onsetDate: options.onset === null ? null : dayString(options.onset),
    abatementDate: options.abatement ? dayString(options.abatement) : null,
    onsetAt: null,
    abatementAt: null,
    otherCodings: [],
    severitySystem: null,
    severityCode: null,
    recordedAt: options.recordedAt,
    // A generated problem is a confirmed problem-list entry, as a clinician keeps it.
    verificationStatus: ConditionVerificationStatus.Confirmed,
    category: ConditionCategory.ProblemListItem,
    bodySiteSystem: null,
    bodySiteCode: null,
  });
}

/**
 * The request fields of a generated order: an order, authored when the plan starts, with no reason
 * given. Its timing bounds (`dosageInstruction.timing.repeat.boundsPeriod`) say for how long it is to be
 * taken: from the start day to the end day, open while it runs, so a long-term order still overlaps a
 * later measurement period (CMS347 reads an order authored in the period or whose bounds overlap it).
 * No dispense details are given.
 */
function orderedOn(startMs: number, endMs: number | null) {
  const supply: MedicationSupply = {
    boundsStart: dayString(startMs),
    boundsEnd: endMs === null ? null : dayString(Math.max(endMs, startMs)),
    validityStart: null,
    expectedSupplyDays: null,
    quantity: null,
    refills: null,
    frequency: null,
    period: null,
    periodUnit: null,
    timesOfDay: 0,
    dose: null,
    dosageCount: 1,
  };
  return { intent: RequestIntent.Order, doNotPerform: false, codeFromReference: false, authoredAt: startMs, reasonSystem: null, reasonCode: null, supply } as const;
}

/**
 * Medication plans that match the problem list (guideline-typical first lines, not everyone
 * treated). Returns when the statin began, which lowers later LDL results.
 */
export function addMedications(writer: ChartWriter, random: Random, profile: PatientProfile): { statinStartMs: number | null } {
  const given = new Set<string>();
  const prescribe = (drug: Drug, probability: number, fromMs: number | undefined, options: { stopAt?: number } = {}) => {
    if (fromMs === undefined || given.has(drug.code) || !random.chance(probability)) return null;
    const start = Math.min(profile.endMs - DAY_MS, fromMs + random.int(0, 60) * DAY_MS);
    // Not started at all when it would already have had to stop (metformin once eGFR is below 30).
    if (options.stopAt !== undefined && options.stopAt <= start) return null;
    given.add(drug.code);
    let end: number | null = options.stopAt ?? null;
    if (end === null && random.chance(0.08)) end = start + random.uniform(0.1, 1) * (profile.endMs - start);
    if (end === null && profile.deceasedMs !== null) end = profile.deceasedMs;
    writer.record.medications.push({
      id: writer.nextId('medication'),
      patientId: writer.patientId,
      createdAt: start + 10 * HOUR_MS,
      codeSystem: CodeSystem.RxNorm,
      code: drug.code,
      display: drug.display,
      status: end === null ? (random.chance(0.01) ? MedicationStatus.OnHold : MedicationStatus.Active) : MedicationStatus.Stopped,
      startDate: dayString(start),
      endDate: end === null ? null : dayString(Math.max(end, start)),
      dosageText: drug.dosage,
      ...orderedOn(start, end),
    });
    return start;
  };
  const onset = profile.onset;

  if (onset.diabetes !== undefined) {
    const ckd4 = profile.ckdStage === '4' ? onset.ckd : undefined;
    prescribe(RX.metforminEr500, 0.88, onset.diabetes, { stopAt: ckd4 });
    const insulinFrom = onset.diabetes + random.uniform(1, 5) * YEAR_MS;
    if (insulinFrom < profile.endMs) prescribe(RX.insulinHuman7030, profile.baseline.hba1c >= 8.5 ? 0.55 : 0.08, insulinFrom);
  }
  const statinFrom = [onset.hyperlipidemia, onset.coronaryDisease, profile.age >= 40 && profile.age <= 75 ? onset.diabetes : undefined]
    .filter((value): value is number => value !== undefined)
    .sort((a, b) => a - b)[0];
  const statinDrug = random.chance(0.6) ? RX.atorvastatin40 : RX.simvastatin20;
  const statinStartMs = prescribe(statinDrug, onset.coronaryDisease !== undefined ? 0.8 : 0.6, statinFrom);

  if (onset.hypertension !== undefined) {
    const before = given.size;
    prescribe(RX.lisinopril10, 0.65, onset.hypertension);
    prescribe(RX.amlodipine5, 0.4, onset.hypertension);
    prescribe(RX.hydrochlorothiazide25, 0.25, onset.hypertension);
    if (given.size === before) prescribe(RX.lisinopril10, 0.9, onset.hypertension);
  }
  prescribe(RX.aspirin81, 0.75, onset.coronaryDisease);
  prescribe(RX.clopidogrel75, 0.2, onset.coronaryDisease);
  prescribe(RX.nitroglycerinSpray, 0.3, onset.coronaryDisease);
  prescribe(RX.metoprololSuccinateEr100, 0.5, onset.coronaryDisease);
  prescribe(RX.furosemide40, 0.85, onset.heartFailure);
  prescribe(RX.metoprololSuccinateEr100, 0.7, onset.heartFailure);
  prescribe(RX.lisinopril10, 0.6, onset.heartFailure);
  prescribe(RX.fluticasoneSalmeterol, 0.7, onset.copd);
  prescribe(RX.albuterolInhaler, 0.9, onset.copd ?? onset.asthma);
  prescribe(RX.fluticasoneInhaler, 0.7, onset.asthma);
  prescribe(RX.alendronate10, 0.6, onset.osteoporosis);
  prescribe(RX.donepezilMemantine, 0.7, onset.alzheimers);
  prescribe(RX.ferrousSulfate325, 0.8, onset.anemia);
  prescribe(RX.naproxenSodium220, 0.35, onset.osteoarthritis);
  prescribe(RX.acetaminophen325, 0.5, onset.osteoarthritis);
  return { statinStartMs };
}

/** A short antibiotic course, completed (a plan that ran its course). */
export function addAntibioticCourse(writer: ChartWriter, at: number): void {
  writer.record.medications.push({
    id: writer.nextId('medication'),
    patientId: writer.patientId,
    createdAt: at,
    codeSystem: CodeSystem.RxNorm,
    code: RX.amoxicillinClavulanate.code,
    display: RX.amoxicillinClavulanate.display,
    status: MedicationStatus.Completed,
    startDate: dayString(at),
    endDate: dayString(at + 10 * DAY_MS),
    dosageText: RX.amoxicillinClavulanate.dosage,
    ...orderedOn(at, at + 10 * DAY_MS),
  });
}

/** Allergies recorded on joining: a few common ones, or the recorded fact "no known allergy". */
export function addAllergies(writer: ChartWriter, random: Random, profile: PatientProfile): void {
  const recordedAt = profile.registeredMs + 9 * HOUR_MS;
  const found = [
    [ALLERGY.penicillin, 0.1],
    [ALLERGY.grassPollen, 0.08],
    [ALLERGY.peanut, 0.015],
    [ALLERGY.latex, 0.01],
  ] as const;
  const codings = found.filter(([, probability]) => random.chance(probability)).map(([coding]) => coding);
  if (codings.length === 0 && random.chance(0.6)) codings.push(ALLERGY.noKnownAllergy);
  for (const coding of codings) {
    writer.record.allergies.push({
      id: writer.nextId('allergy'),
      patientId: writer.patientId,
      createdAt: recordedAt,
      codeSystem: coding.system,
      code: coding.code,
      display: coding.display,
      clinicalStatus: AllergyClinicalStatus.Active,
      recordedAt,
      onsetAt: null,
      onsetEndAt: null,
      onsetPeriodOpen: false,
    });
  }
}

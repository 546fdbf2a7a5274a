import { EncounterStatus, ProcedureStatus, Sex } from '../cohort/enum';
import { ChartWriter } from './chart-writer';
import { planEncounters, PlannedEncounter } from './encounter-plan';
import { generatedMrn, IdFactory } from './ids';
import { addEncounterNote } from './notes';
import { addAcuteCondition, addAllergies, addAntibioticCourse, addChronicConditions, addMedications, chooseCodings, ProblemCodings } from './problem-list';
import { buildProfile, PatientProfile } from './profile';
import { Random } from './random';
import { PatientRecord } from './rows';
import { dayString, YEAR_MS } from './time';
import { Coding, CONDITION, IMAGING, PROCEDURE } from './vocabulary';
import { VisitObservations } from './visit-observations';

export interface CohortContext {
  seed: number;
  /** Midnight UTC of the anchor day. */
  anchorMs: number;
  /** Ids of the care teams patients are spread across (at least one). */
  careTeamIds: readonly string[];
  ids: IdFactory;
}

/** Days an acute problem stays on the list before it is resolved. */
const RESOLVES_AFTER_DAYS: Record<string, number> = {
  [CONDITION.acutePharyngitis.code]: 10,
  [CONDITION.pneumonia.code]: 21,
  [CONDITION.lowBackPain.code]: 42,
  [CONDITION.hipFractureRight.code]: 120,
  [CONDITION.acuteAppendicitis.code]: 14,
};

/**
 * Everything for patient `index` of the cohort with this seed: a function of (seed, index, anchor,
 * care teams) only, so patient k is the same whether the cohort has 300 patients or 100,000.
 */
export function generatePatientRecord(context: CohortContext, index: number): PatientRecord {
  const random = Random.forPatient(context.seed, index);
  const profile = buildProfile(random, index, context.anchorMs, context.careTeamIds.length);
  const patientId = context.ids.id(index, 'patient');
  const record: PatientRecord = {
    patient: {
      id: patientId,
      mrn: generatedMrn(context.seed, index),
      givenName: profile.identity.givenName,
      familyName: profile.identity.familyName,
      birthDate: dayString(profile.birthMs),
      sex: profile.sex,
      sexCode: null,
      race: [],
      ethnicity: [],
      phone: random.chance(0.9) ? profile.identity.phone : null,
      email: random.chance(0.7) ? profile.identity.email : null,
      addressLine: profile.identity.addressLine,
      city: profile.identity.city,
      state: profile.identity.state,
      postalCode: profile.identity.postalCode,
      deceasedAt: profile.deceasedMs,
      createdAt: profile.registeredMs,
      updatedAt: context.anchorMs,
    },
    patientCareTeams: profile.careTeamIndexes.map((team) => ({ patientId, careTeamId: context.careTeamIds[team] })),
    encounters: [],
    observations: [],
    conditions: [],
    medications: [],
    procedures: [],
    clinicalNotes: [],
    allergies: [],
  };
  const writer = new ChartWriter(context.ids, random, index, record);
  const codings = chooseCodings(random, profile);
  addChronicConditions(writer, random, profile, codings);
  const { statinStartMs } = addMedications(writer, random, profile);
  addAllergies(writer, random, profile);

  const visits = new VisitObservations(writer, random, profile, context.anchorMs, statinStartMs);
  for (const encounter of planEncounters(random, profile, context.anchorMs)) {
    const reason = reasonCoding(encounter, codings);
    const encounterId = writer.nextId('encounter');
    record.encounters.push({
      id: encounterId,
      patientId,
      createdAt: encounter.startMs,
      class: encounter.class,
      classCode: null,
      status: encounter.status,
      typeSystem: encounter.type.system,
      typeCode: encounter.type.code,
      typeDisplay: encounter.type.display,
      typeOtherCodings: [],
      diagnoses: [],
      reasonReferences: [],
      locations: [],
      reasonSystem: reason?.system ?? null,
      reasonCode: reason?.code ?? null,
      reasonDisplay: reason?.display ?? null,
      startAt: encounter.startMs,
      endAt: encounter.endMs,
      disposition: encounter.disposition,
      // Generated dispositions are free text ("home", "admitted"); none is coded.
      dischargeDispositionSystem: null,
      dischargeDispositionCode: null,
    });
    if (encounter.status !== EncounterStatus.Finished) continue;
    visits.record(encounter, encounterId);
    afterVisit(writer, random, profile, encounter, encounterId, reason);
  }
  addHistoricalColonoscopy(writer, random, profile, context.anchorMs);
  return record;
}

function reasonCoding(encounter: PlannedEncounter, codings: ProblemCodings): Coding | null {
  if (encounter.reason === null) return null;
  if ('coding' in encounter.reason) return encounter.reason.coding;
  return codings[encounter.reason.condition] ?? null;
}

/** What a visit leaves besides measurements: procedures, acute problems, antibiotics, notes. */
function afterVisit(
  writer: ChartWriter,
  random: Random,
  profile: PatientProfile,
  encounter: PlannedEncounter,
  encounterId: string,
  reason: Coding | null,
): void {
  const at = encounter.startMs + 15 * 60_000;
  if (encounter.purpose === 'mammogram') {
    const coding = random.chance(0.7) ? PROCEDURE.mammogramCpt : PROCEDURE.mammogramSnomed;
    const status = random.chance(0.02) ? ProcedureStatus.NotDone : ProcedureStatus.Completed;
    addProcedure(writer, coding, at, encounterId, status);
    // A study that was done has a radiology report, which is what CMS125 reads (LOINC "Mammography").
    if (status === ProcedureStatus.Completed) writer.imagingReport(IMAGING.mammogramScreening, 'BI-RADS 1: negative', at, encounterId);
  } else if (encounter.purpose === 'colonoscopy') {
    addProcedure(writer, random.chance(0.7) ? PROCEDURE.colonoscopyCpt : PROCEDURE.colonoscopySnomed, at, encounterId);
  } else if (reason === CONDITION.hipFractureRight && encounter.purpose === 'inpatient') {
    addProcedure(writer, PROCEDURE.hipFractureRepairCpt, encounter.startMs + 20 * 3_600_000, encounterId);
  } else if (reason === CONDITION.acuteAppendicitis && encounter.purpose === 'inpatient') {
    addProcedure(writer, PROCEDURE.appendectomy, encounter.startMs + 4 * 3_600_000, encounterId);
  }
  const resolvesAfter = reason ? RESOLVES_AFTER_DAYS[reason.code] : undefined;
  const problemWorthy = encounter.purpose === 'inpatient' || encounter.purpose === 'emergency' || random.chance(0.5);
  if (reason && resolvesAfter !== undefined && encounter.disposition !== 'admitted' && problemWorthy) {
    addAcuteCondition(writer, reason, encounter.startMs, resolvesAfter, profile.endMs);
  }
  if (reason === CONDITION.acutePharyngitis && random.chance(0.4)) addAntibioticCourse(writer, encounter.startMs);
  if (reason) addEncounterNote(writer, random, encounter, encounterId, reason.display.toLowerCase());
}

function addProcedure(
  writer: ChartWriter,
  coding: Coding,
  at: number,
  encounterId: string | null,
  status: ProcedureStatus = ProcedureStatus.Completed,
): void {
  writer.record.procedures.push({
    id: writer.nextId('procedure'),
    patientId: writer.patientId,
    createdAt: at,
    encounterId,
    codeSystem: coding.system,
    code: coding.code,
    display: coding.display,
    status,
    performedAt: at,
    performedEndAt: null,
    performedPeriodOpen: false,
    statusReasonSystem: null,
    statusReasonCode: null,
    bodySiteSystem: null,
    bodySiteCode: null,
    reasonSystem: null,
    reasonCode: null,
  });
}

/** A screening colonoscopy from before the record (brought in from outside), for some patients 50–80. */
function addHistoricalColonoscopy(writer: ChartWriter, random: Random, profile: PatientProfile, anchorMs: number): void {
  const hadOne = writer.record.procedures.some((row) => row.code === PROCEDURE.colonoscopyCpt.code || row.code === PROCEDURE.colonoscopySnomed.code);
  if (hadOne || profile.age < 50 || profile.age > 80 || profile.sex === Sex.Unknown || !random.chance(0.4)) return;
  const at = profile.registeredMs - random.uniform(0.2, 8) * YEAR_MS;
  if (at - profile.birthMs < 45 * YEAR_MS || at > anchorMs) return;
  addProcedure(writer, random.chance(0.6) ? PROCEDURE.colonoscopySnomed : PROCEDURE.colonoscopyCpt, Math.floor(at / 60_000) * 60_000, null);
}

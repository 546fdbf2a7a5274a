import { EncounterClass, EncounterStatus, Sex } from '../cohort/enum';
import { ChronicCondition, has, PatientProfile, startOfDay } from './profile';
import { byAge } from './prevalence';
import { Random } from './random';
import { DAY_MS, HOUR_MS, YEAR_MS } from './time';
import { Coding, CONDITION, ENCOUNTER_TYPE } from './vocabulary';

export type Purpose =
  | 'checkup'
  | 'followup'
  | 'virtual'
  | 'acute'
  | 'home'
  | 'emergency'
  | 'inpatient'
  | 'observation'
  | 'mammogram'
  | 'colonoscopy';

/** Why a patient came in: a chronic condition (its coding is decided by the problem list) or a coding. */
export type Reason = { condition: ChronicCondition } | { coding: Coding } | null;

export interface PlannedEncounter {
  purpose: Purpose;
  class: EncounterClass;
  status: EncounterStatus;
  type: Coding;
  reason: Reason;
  startMs: number;
  endMs: number | null;
  disposition: string | null;
  /** Acute reason of an ED visit or stay, for the labs it triggers. */
  acute?: 'cardiac' | 'breathing' | 'infection' | 'glucose' | 'fracture' | 'surgical' | 'other';
  readmission?: boolean;
}

/** Follow-up visits per year that each chronic condition adds (invented; see docs/generator.md). */
const FOLLOW_UP_RATE: Partial<Record<ChronicCondition, number>> = {
  diabetes: 2.6,
  heartFailure: 2.2,
  ckd: 1.2,
  copd: 1.2,
  hypertension: 1.1,
  coronaryDisease: 1.0,
  hyperlipidemia: 0.35,
  asthma: 0.5,
  alzheimers: 0.7,
  osteoarthritis: 0.4,
  osteoporosis: 0.25,
  gout: 0.3,
  gerd: 0.25,
  anemia: 0.4,
  obesity: 0.2,
  prediabetes: 0.3,
};

const DISCHARGE = {
  home: 'home',
  homeHealth: 'home with home health services',
  skilledNursing: 'skilled nursing facility',
  died: 'expired',
};

/**
 * The encounters of one patient over the record, in start order: yearly check-ups, chronic
 * follow-ups (some by video), acute visits, ED visits, inpatient and observation stays with
 * readmissions, home visits, screening studies, a few cancelled visits and, for the living, an
 * appointment still planned after the anchor. Nothing happens after death.
 */
export function planEncounters(random: Random, profile: PatientProfile, anchorMs: number): PlannedEncounter[] {
  const plan: PlannedEncounter[] = [];
  const { registeredMs: start, endMs: end } = profile;
  const age = profile.age;

  // Check-ups: one on joining, then most years.
  const checkupChance = age >= 65 ? 0.68 : 0.52;
  plan.push(office(random, 'checkup', start + random.int(0, 30) * DAY_MS, ENCOUNTER_TYPE.checkUp, { coding: CONDITION.generalExam }));
  for (let t = start + random.uniform(0.8, 1.3) * YEAR_MS; t < end; t += random.uniform(0.85, 1.35) * YEAR_MS) {
    if (random.chance(checkupChance)) plan.push(office(random, 'checkup', t, ENCOUNTER_TYPE.checkUp, { coding: CONDITION.generalExam }));
  }

  // Chronic follow-ups: a Poisson process at the summed rate of the patient's conditions.
  const conditions = (Object.keys(profile.onset) as ChronicCondition[]).filter((key) => FOLLOW_UP_RATE[key] !== undefined);
  const followUpRate = Math.min(7, conditions.reduce((sum, key) => sum + (FOLLOW_UP_RATE[key] ?? 0), 0));
  poisson(random, followUpRate, start, end, (t) => {
    const active = conditions.filter((key) => (profile.onset[key] as number) <= t);
    if (active.length === 0) return;
    const condition = random.weighted(active, active.map((key) => FOLLOW_UP_RATE[key] ?? 0));
    if (random.chance(0.15)) plan.push(office(random, 'virtual', t, ENCOUNTER_TYPE.telemedicine, { condition }, EncounterClass.Virtual));
    else plan.push(office(random, 'followup', t, ENCOUNTER_TYPE.followUp, { condition }));
  });

  // Acute visits in the office.
  poisson(random, age >= 65 ? 0.7 : 0.5, start, end, (t) => {
    const coding = random.weighted(
      [CONDITION.acutePharyngitis, CONDITION.lowBackPain, CONDITION.chestPain, CONDITION.dyspnea, CONDITION.pneumonia],
      [age < 45 ? 0.4 : 0.2, 0.3, 0.1, 0.12, 0.06],
    );
    plan.push(office(random, 'acute', t, ENCOUNTER_TYPE.symptom, { coding }));
  });

  // Home visits for the frail.
  if (age >= 80 && (has(profile, 'alzheimers') || has(profile, 'heartFailure'))) {
    poisson(random, 1, start, end, (t) => plan.push(office(random, 'home', t, ENCOUNTER_TYPE.homeVisit, null, EncounterClass.Home)));
  }

  // ED visits that end at home.
  const edRate =
    0.14 + 0.15 * flag(profile, 'heartFailure') + 0.15 * flag(profile, 'copd') + 0.05 * flag(profile, 'ckd') +
    0.05 * flag(profile, 'diabetes') + (age >= 75 ? 0.1 : 0);
  poisson(random, edRate, start, end, (t) => plan.push(emergency(random, profile, t)));

  // Hospital stays, a share of them through the ED, each possibly followed by a readmission.
  const stayRate =
    byAge([0.025, 0.045, 0.08, 0.14], age) + 0.25 * flag(profile, 'heartFailure') + 0.12 * flag(profile, 'copd') +
    0.06 * flag(profile, 'ckd') + 0.03 * flag(profile, 'diabetes');
  poisson(random, stayRate, start, end, (t) => addStay(random, profile, plan, t, false, 0));
  if (profile.deceasedMs !== null && profile.diesInHospital) addFinalStay(random, profile, plan);

  addScreening(random, profile, plan, anchorMs);

  // A few scheduled visits never happened; a planned one waits after the anchor for some of the living.
  for (const encounter of plan) {
    if ((encounter.purpose === 'followup' || encounter.purpose === 'checkup') && random.chance(0.04)) {
      encounter.status = EncounterStatus.Cancelled;
    }
  }
  if (profile.deceasedMs === null && conditions.length > 0 && random.chance(0.35)) {
    const planned = office(random, 'followup', anchorMs + random.int(3, 90) * DAY_MS, ENCOUNTER_TYPE.followUp, {
      condition: random.pick(conditions),
    });
    plan.push({ ...planned, status: EncounterStatus.Planned, endMs: null });
  }

  const kept = plan.filter((encounter) => encounter.status === EncounterStatus.Planned || encounter.startMs < end);
  kept.sort((a, b) => a.startMs - b.startMs);
  return withoutVisitsDuringStays(kept);
}

function flag(profile: PatientProfile, condition: ChronicCondition): number {
  return has(profile, condition) ? 1 : 0;
}

function poisson(random: Random, perYear: number, from: number, to: number, at: (t: number) => void): void {
  if (perYear <= 0) return;
  for (let t = from + random.exponential(YEAR_MS / perYear); t < to; t += random.exponential(YEAR_MS / perYear)) at(t);
}

/** An office-hours visit (08:00–17:00 UTC) of 15–45 minutes. */
function office(
  random: Random,
  purpose: Purpose,
  day: number,
  type: Coding,
  reason: Reason,
  encounterClass = EncounterClass.Ambulatory,
): PlannedEncounter {
  const startMs = startOfDay(day) + (8 * 60 + random.int(0, 36) * 15) * 60_000;
  return {
    purpose,
    class: encounterClass,
    status: EncounterStatus.Finished,
    type,
    reason,
    startMs,
    endMs: startMs + random.int(15, 45) * 60_000,
    disposition: null,
  };
}

function emergency(random: Random, profile: PatientProfile, t: number): PlannedEncounter {
  const options: [Coding, PlannedEncounter['acute'], number][] = [
    [CONDITION.chestPain, 'cardiac', 0.22],
    [CONDITION.dyspnea, 'breathing', 0.14],
    [CONDITION.lowBackPain, 'other', 0.14],
    [CONDITION.acutePharyngitis, 'infection', 0.12],
    [CONDITION.pneumonia, 'infection', 0.08],
    [CONDITION.copdExacerbation, 'breathing', has(profile, 'copd') ? 0.4 : 0],
    [CONDITION.heartFailure, 'cardiac', has(profile, 'heartFailure') ? 0.4 : 0],
    [CONDITION.diabetesType2Hyperglycemia, 'glucose', has(profile, 'diabetes') ? 0.08 : 0],
  ];
  const [coding, acute] = random.weighted(options, options.map((option) => option[2]));
  const startMs = Math.floor(t / 60_000) * 60_000;
  return {
    purpose: 'emergency',
    class: EncounterClass.Emergency,
    status: EncounterStatus.Finished,
    type: ENCOUNTER_TYPE.emergencyRoom,
    reason: { coding },
    startMs,
    endMs: startMs + random.int(90, 480) * 60_000,
    disposition: DISCHARGE.home,
    acute,
  };
}

interface StayReason {
  coding: Coding;
  acute: NonNullable<PlannedEncounter['acute']>;
  surgical: boolean;
}

function stayReason(random: Random, profile: PatientProfile): StayReason {
  const options: [StayReason, number][] = [
    [{ coding: CONDITION.heartFailure, acute: 'cardiac', surgical: false }, has(profile, 'heartFailure') ? 3 : 0],
    [{ coding: CONDITION.copdExacerbation, acute: 'breathing', surgical: false }, has(profile, 'copd') ? 2 : 0],
    [{ coding: CONDITION.pneumonia, acute: 'infection', surgical: false }, 1],
    [{ coding: CONDITION.chestPain, acute: 'cardiac', surgical: false }, 1],
    [{ coding: CONDITION.diabetesType2Hyperglycemia, acute: 'glucose', surgical: false }, has(profile, 'diabetes') ? 0.4 : 0],
    [{ coding: CONDITION.hipFractureRight, acute: 'fracture', surgical: true }, profile.age >= 70 ? (has(profile, 'osteoporosis') ? 1.2 : 0.4) : 0],
    [{ coding: CONDITION.acuteAppendicitis, acute: 'surgical', surgical: true }, profile.age < 60 ? 0.4 : 0.1],
  ];
  return random.weighted(
    options.map((option) => option[0]),
    options.map((option) => option[1]),
  );
}

function disposition(random: Random, profile: PatientProfile, reason: StayReason): string {
  if (reason.acute === 'fracture') return random.chance(0.5) ? DISCHARGE.skilledNursing : DISCHARGE.homeHealth;
  if (profile.age < 65) return random.weighted([DISCHARGE.home, DISCHARGE.homeHealth, DISCHARGE.skilledNursing], [0.9, 0.06, 0.04]);
  return random.weighted([DISCHARGE.home, DISCHARGE.homeHealth, DISCHARGE.skilledNursing], [0.68, 0.17, 0.15]);
}

/** An inpatient (or short observation) stay, through the ED 60 % of the time; readmission at most twice in a row. */
function addStay(random: Random, profile: PatientProfile, plan: PlannedEncounter[], t: number, readmission: boolean, depth: number): void {
  const reason = stayReason(random, profile);
  const startMs = Math.floor(t / 60_000) * 60_000;
  const observation = !reason.surgical && reason.coding === CONDITION.chestPain && random.chance(0.5);
  const days = observation ? 1 : Math.min(21, Math.max(reason.surgical ? 2 : 1, Math.round(random.logNormal(3.4, 0.55))));
  const endMs = startOfDay(startMs + days * DAY_MS) + (10 + random.int(0, 7)) * HOUR_MS;
  if (endMs >= profile.endMs) return;
  if (random.chance(0.6) || readmission) {
    const edStart = startMs - random.int(120, 360) * 60_000;
    plan.push({
      purpose: 'emergency',
      class: EncounterClass.Emergency,
      status: EncounterStatus.Finished,
      type: ENCOUNTER_TYPE.emergencyRoom,
      reason: { coding: reason.coding },
      startMs: edStart,
      endMs: startMs - random.int(5, 60) * 60_000,
      disposition: 'admitted',
      acute: reason.acute,
    });
  }
  plan.push({
    purpose: observation ? 'observation' : 'inpatient',
    class: observation ? EncounterClass.Observation : EncounterClass.Inpatient,
    status: EncounterStatus.Finished,
    type: reason.surgical ? ENCOUNTER_TYPE.surgicalAdmission : ENCOUNTER_TYPE.emergencyAdmission,
    reason: { coding: reason.coding },
    startMs,
    endMs,
    disposition: observation ? DISCHARGE.home : disposition(random, profile, reason),
    acute: reason.acute,
    readmission,
  });
  if (observation || depth >= 2) return;
  const readmitChance =
    0.08 + 0.1 * flag(profile, 'heartFailure') + 0.06 * flag(profile, 'copd') + 0.04 * flag(profile, 'ckd') + (profile.age >= 75 ? 0.03 : 0);
  if (random.chance(readmitChance)) addStay(random, profile, plan, endMs + random.uniform(2, 30) * DAY_MS, true, depth + 1);
}

function addFinalStay(random: Random, profile: PatientProfile, plan: PlannedEncounter[]): void {
  const deceasedMs = profile.deceasedMs as number;
  const reason = stayReason(random, profile);
  const startMs = Math.floor((deceasedMs - random.uniform(1, 9) * DAY_MS) / 60_000) * 60_000;
  if (startMs <= profile.registeredMs) return;
  plan.push({
    purpose: 'inpatient',
    class: EncounterClass.Inpatient,
    status: EncounterStatus.Finished,
    type: reason.surgical ? ENCOUNTER_TYPE.surgicalAdmission : ENCOUNTER_TYPE.emergencyAdmission,
    reason: { coding: reason.coding },
    startMs,
    endMs: deceasedMs,
    disposition: DISCHARGE.died,
    acute: reason.acute,
  });
}

/** Screening mammograms (women 50–74) and colonoscopies (45–75) inside the record, as outpatient studies. */
function addScreening(random: Random, profile: PatientProfile, plan: PlannedEncounter[], anchorMs: number): void {
  const ageAt = (t: number) => (t - profile.birthMs) / YEAR_MS;
  if (profile.sex === Sex.Female) {
    const adherent = random.chance(0.72);
    const from = Math.max(profile.registeredMs, profile.birthMs + 50 * YEAR_MS);
    for (let t = from + random.uniform(0, 1.5) * YEAR_MS; t < profile.endMs && ageAt(t) < 75; t += random.uniform(1, 2.2) * YEAR_MS) {
      if (adherent || random.chance(0.25)) {
        plan.push(office(random, 'mammogram', t, ENCOUNTER_TYPE.outpatientProcedure, { coding: CONDITION.screeningMammogram }));
      }
    }
  }
  const colonoscopyAt = anchorMs - random.uniform(0, 12) * YEAR_MS;
  if (colonoscopyAt >= profile.registeredMs && colonoscopyAt < profile.endMs && ageAt(colonoscopyAt) >= 45 && ageAt(colonoscopyAt) <= 75) {
    if (random.chance(0.35)) {
      plan.push(office(random, 'colonoscopy', colonoscopyAt, ENCOUNTER_TYPE.outpatientProcedure, { coding: CONDITION.screeningColon }));
    }
  }
}

/** Office visits that would fall inside a hospital stay did not happen. */
function withoutVisitsDuringStays(plan: PlannedEncounter[]): PlannedEncounter[] {
  const stays = plan.filter((encounter) => encounter.class === EncounterClass.Inpatient || encounter.class === EncounterClass.Observation);
  if (stays.length === 0) return plan;
  return plan.filter(
    (encounter) =>
      encounter.class === EncounterClass.Inpatient ||
      encounter.class === EncounterClass.Observation ||
      encounter.class === EncounterClass.Emergency ||
      !stays.some((stay) => encounter.startMs >= stay.startMs && encounter.startMs <= (stay.endMs as number)),
  );
}

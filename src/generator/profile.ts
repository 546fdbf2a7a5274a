import { Sex } from '../cohort/enum';
import { Identity, syntheticIdentity } from './names';
import { AGE_BANDS, annualMortality, byAge, HEIGHT_CM, MEAN_BMI, PREVALENCE } from './prevalence';
import { Random } from './random';
import { DAY_MS, YEAR_MS } from './time';

/** The chronic conditions the generator models; each drives codes, visits, labs and medicines. */
export type ChronicCondition =
  | 'diabetes'
  | 'prediabetes'
  | 'hypertension'
  | 'hyperlipidemia'
  | 'coronaryDisease'
  | 'heartFailure'
  | 'ckd'
  | 'copd'
  | 'asthma'
  | 'obesity'
  | 'osteoarthritis'
  | 'osteoporosis'
  | 'gout'
  | 'alzheimers'
  | 'gerd'
  | 'anemia';

export type Smoking = 'never' | 'former' | 'current';

/** Everything about a patient that stays fixed across the record: who they are and what they have. */
export interface PatientProfile {
  index: number;
  sex: Sex;
  identity: Identity;
  birthMs: number;
  /** Age on the anchor day (or the day of death). */
  age: number;
  /** First day in the practice's record. */
  registeredMs: number;
  /** The end of the record: the anchor, or death. */
  endMs: number;
  deceasedMs: number | null;
  /** Death happens during a final inpatient stay. */
  diesInHospital: boolean;
  smoking: Smoking;
  heightCm: number;
  bmi: number;
  /** Onset instant of each condition present. */
  onset: Partial<Record<ChronicCondition, number>>;
  ckdStage: '3a' | '3b' | '4' | null;
  /** Usual values around which each visit's measurement varies. */
  baseline: {
    hba1c: number;
    egfr: number;
    systolic: number;
    diastolic: number;
    heartRate: number;
    ldl: number;
    hdl: number;
    triglycerides: number;
    uacr: number;
  };
  /** Keeps lab appointments on schedule (the rest drift, so some care gaps stay open). */
  adherent: boolean;
  careTeamIndexes: number[];
}

/** How many years before the anchor the record starts. */
export const HISTORY_YEARS = 6;

export function has(profile: PatientProfile, condition: ChronicCondition): boolean {
  return profile.onset[condition] !== undefined;
}

export function buildProfile(random: Random, index: number, anchorMs: number, careTeamCount: number): PatientProfile {
  const band = random.weighted(AGE_BANDS, AGE_BANDS.map((entry) => entry.weight));
  const ageAtAnchor = random.int(band.min, band.max);
  const femaleShare = 0.495 + Math.max(0, ageAtAnchor - 60) * 0.004;
  const sexDraw = random.float();
  const sex = sexDraw < 0.002 ? Sex.Other : sexDraw < 0.003 ? Sex.Unknown : random.chance(femaleShare) ? Sex.Female : Sex.Male;
  const birthMs = startOfDay(anchorMs - ageAtAnchor * YEAR_MS - random.int(1, 364) * DAY_MS);

  const windowStart = anchorMs - HISTORY_YEARS * YEAR_MS;
  const adultFrom = birthMs + 18 * YEAR_MS;
  const joinedLate = random.chance(0.35);
  const registeredMs = startOfDay(Math.max(adultFrom, joinedLate ? random.uniform(windowStart, anchorMs - 60 * DAY_MS) : windowStart));

  const smokingDraw = random.float();
  const current = byAge(PREVALENCE.currentSmoker, ageAtAnchor);
  const smoking: Smoking = smokingDraw < current ? 'current' : smokingDraw < current + byAge(PREVALENCE.formerSmoker, ageAtAnchor) ? 'former' : 'never';
  const female = sex === Sex.Female;
  const height = female || (sex !== Sex.Male && random.chance(0.5)) ? HEIGHT_CM.female : HEIGHT_CM.male;
  const heightCm = round1(random.clampedNormal(height.mean, height.sd, 140, 205));
  const bmi = round1(Math.min(65, Math.max(16, random.logNormal(byAge(MEAN_BMI, ageAtAnchor) * 0.975, 0.21))));

  const onset: PatientProfile['onset'] = {};
  const age = ageAtAnchor;
  const obese = bmi >= 30;
  const weightFactor = obese ? 1.7 : bmi >= 25 ? 0.8 : 0.35;
  const draw = (condition: ChronicCondition, probability: number) => {
    if (random.chance(Math.min(0.95, probability))) onset[condition] = onsetBefore(random, anchorMs, age);
  };
  draw('diabetes', byAge(PREVALENCE.diabetes, age) * weightFactor);
  if (!onset.diabetes) draw('prediabetes', byAge(PREVALENCE.prediabetes, age) * (obese ? 1.5 : 0.8));
  draw('hypertension', byAge(PREVALENCE.hypertension, age) * (obese ? 1.35 : bmi < 25 ? 0.6 : 1) * (onset.diabetes ? 1.4 : 1));
  draw('hyperlipidemia', byAge(PREVALENCE.hyperlipidemia, age) * (onset.diabetes ? 1.4 : 1));
  const male = sex === Sex.Male ? 1.4 : 0.7;
  draw(
    'coronaryDisease',
    byAge(PREVALENCE.coronaryDisease, age) * male * (onset.diabetes ? 1.8 : 1) * (smoking === 'current' ? 1.5 : 1) * (onset.hypertension ? 1.3 : 0.8),
  );
  draw('heartFailure', byAge(PREVALENCE.heartFailure, age) * (onset.coronaryDisease ? 3 : 0.85) * (onset.hypertension ? 1.3 : 0.8));
  draw('ckd', byAge(PREVALENCE.ckd, age) * (onset.diabetes ? 2 : 0.8) * (onset.hypertension ? 1.5 : 0.7));
  const smokingFactor = smoking === 'current' ? 3 : smoking === 'former' ? 1.8 : 0.35;
  draw('copd', byAge(PREVALENCE.copd, age) * smokingFactor);
  draw('asthma', byAge(PREVALENCE.asthma, age));
  if (obese && random.chance(0.55)) onset.obesity = onsetBefore(random, anchorMs, age);
  draw('osteoarthritis', byAge(PREVALENCE.osteoarthritis, age) * (obese ? 1.5 : 0.8));
  draw('osteoporosis', byAge(female ? PREVALENCE.osteoporosisFemale : PREVALENCE.osteoporosisMale, age));
  draw('gout', byAge(female ? PREVALENCE.goutFemale : PREVALENCE.goutMale, age));
  if (age >= 65) draw('alzheimers', byAge(PREVALENCE.alzheimers, age) * (age >= 85 ? 2.2 : 1));
  draw('gerd', byAge(PREVALENCE.gerd, age));
  draw('anemia', byAge(female ? PREVALENCE.anemiaFemale : PREVALENCE.anemiaMale, age) * (onset.ckd ? 2 : 1));

  const ckdStage = onset.ckd ? random.weighted(['3a', '3b', '4'] as const, [0.58, 0.3, 0.12]) : null;

  // Death during the record: yearly mortality by age, higher with serious comorbidity.
  // Excess risks add (multiplying them would kill most of the very old with several conditions).
  const mortality =
    annualMortality(age) *
    (1 +
      (onset.heartFailure ? 1 : 0) +
      (onset.copd ? 0.6 : 0) +
      (onset.ckd ? 0.6 : 0) +
      (onset.alzheimers ? 1.2 : 0) +
      (onset.diabetes ? 0.3 : 0) +
      (smoking === 'current' ? 0.6 : 0));
  const yearsInRecord = (anchorMs - registeredMs) / YEAR_MS;
  const dies = random.chance(1 - Math.pow(1 - Math.min(0.6, mortality), yearsInRecord));
  const deceasedMs = dies ? Math.floor(random.uniform(registeredMs + 45 * DAY_MS, anchorMs - DAY_MS)) : null;
  const endMs = deceasedMs ?? anchorMs;
  // Conditions begin before the end of the record.
  for (const key of Object.keys(onset) as ChronicCondition[]) onset[key] = Math.min(onset[key] as number, endMs - 20 * DAY_MS);

  const diabetesControl = random.weighted([6.6, 7.5, 8.5, 9.8], [0.45, 0.3, 0.15, 0.1]);
  const hypertensionControlled = random.chance(0.6);
  const egfr = ckdStage === '3a' ? random.uniform(46, 59) : ckdStage === '3b' ? random.uniform(31, 44) : ckdStage === '4' ? random.uniform(17, 29)
    : Math.max(62, Math.min(125, random.normal(112 - 0.8 * Math.max(0, age - 25), 11)));
  const hyperlipidemic = onset.hyperlipidemia !== undefined;

  return {
    index,
    sex,
    identity: syntheticIdentity(random, sex, index),
    birthMs,
    age: deceasedMs === null ? ageAtAnchor : Math.max(18, ageAtAnchor - Math.floor((anchorMs - deceasedMs) / YEAR_MS)),
    registeredMs,
    endMs,
    deceasedMs,
    diesInHospital: dies && random.chance(0.35),
    smoking,
    heightCm,
    bmi,
    onset,
    ckdStage,
    baseline: {
      hba1c: onset.diabetes
        ? random.normal(diabetesControl, diabetesControl > 9 ? 0.7 : 0.25)
        : onset.prediabetes ? random.uniform(5.8, 6.3) : random.normal(5.25, 0.22),
      egfr,
      systolic: onset.hypertension
        ? random.normal(hypertensionControlled ? 128 : 149, 6)
        : Math.min(134, random.normal(112 + 0.25 * (age - 25), 7)),
      diastolic: onset.hypertension ? random.normal(hypertensionControlled ? 78 : 91, 5) : Math.min(84, random.normal(74, 6)),
      heartRate: random.clampedNormal(73, 7, 52, 96),
      ldl: Math.max(45, random.normal(hyperlipidemic ? 152 : 118, 30)),
      hdl: Math.max(22, random.normal(female ? 58 : 47, female ? 13 : 10)),
      triglycerides: Math.min(900, random.logNormal(onset.diabetes || obese ? 160 : 115, 0.4)),
      uacr: random.logNormal(onset.diabetes ? 16 : 8, 1) * (onset.ckd ? 2.5 : 1),
    },
    adherent: random.chance(0.75),
    careTeamIndexes: careTeams(random, careTeamCount),
  };
}

/** Chronic disease starts some years before the anchor (up to 15, never before 20): many predate the record. */
function onsetBefore(random: Random, anchorMs: number, age: number): number {
  const maxYears = Math.max(0.3, Math.min(15, age - 20));
  return startOfDay(anchorMs - random.uniform(0.1, maxYears) * YEAR_MS);
}

/** One team, chosen uniformly; 3 % of patients are shared by a second team. */
function careTeams(random: Random, count: number): number[] {
  const first = random.int(0, count - 1);
  if (count > 1 && random.chance(0.03)) return [first, (first + random.int(1, count - 1)) % count];
  return [first];
}

export function startOfDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

import { Sex } from '../cohort/enum';
import { PatientProfile } from './profile';
import { Random } from './random';
import { YEAR_MS } from './time';

/**
 * Measured values around a patient's baseline. Each function takes the instant (conditions and
 * medicines change values only after they begin) and, where it matters, whether the patient is
 * acutely ill (ED or inpatient), which raises blood pressure, heart rate and the like.
 */
export interface Moment {
  at: number;
  acute: boolean;
  /** A statin has been active since before this instant. */
  onStatin: boolean;
}

const since = (profile: PatientProfile, condition: keyof PatientProfile['onset'], at: number) => {
  const onset = profile.onset[condition];
  return onset !== undefined && onset <= at;
};

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function hba1c(random: Random, profile: PatientProfile, moment: Moment): number {
  if (profile.onset.diabetes !== undefined && !since(profile, 'diabetes', moment.at)) return round(random.uniform(5.8, 6.4), 1);
  const spread = profile.onset.diabetes !== undefined ? 0.35 : 0.12;
  return round(Math.min(14.5, Math.max(4.3, random.normal(profile.baseline.hba1c, spread))), 1);
}

/** Fasting-ish glucose: the ADAG estimated average glucose of the patient's HbA1c, with scatter. */
export function glucose(random: Random, profile: PatientProfile, moment: Moment): number {
  const diabetic = since(profile, 'diabetes', moment.at);
  const mean = diabetic ? 28.7 * profile.baseline.hba1c - 46.7 : 91 + (profile.onset.prediabetes !== undefined ? 12 : 0);
  const value = random.normal(mean + (moment.acute ? 25 : 0), diabetic ? 28 : 9);
  return Math.round(Math.min(600, Math.max(45, value)));
}

/** eGFR: the CKD stage's level once CKD has begun, higher before; a slow decline with age. */
export function egfr(random: Random, profile: PatientProfile, moment: Moment): number {
  const yearsToEnd = (profile.endMs - moment.at) / YEAR_MS;
  const beforeCkd = profile.onset.ckd !== undefined && !since(profile, 'ckd', moment.at);
  const level = beforeCkd ? Math.max(61, profile.baseline.egfr + 18) : profile.baseline.egfr + yearsToEnd * 0.8;
  const value = level * (1 + random.normal(0, 0.06)) * (moment.acute ? 0.88 : 1);
  return Math.round(Math.min(130, Math.max(6, value)));
}

/**
 * Serum creatinine that gives the eGFR above by the CKD-EPI 2021 equation (race-free), so the two
 * results of one draw agree: eGFR = 142 · min(S/κ,1)^α · max(S/κ,1)^−1.2 · 0.9938^age · (1.012 if female).
 */
export function creatinineFor(egfrValue: number, sex: Sex, age: number): number {
  const female = sex === Sex.Female;
  const kappa = female ? 0.7 : 0.9;
  const alpha = female ? -0.241 : -0.302;
  const scale = egfrValue / (142 * 0.9938 ** age * (female ? 1.012 : 1));
  const high = kappa * scale ** (-1 / 1.2);
  const creatinine = high >= kappa ? high : kappa * scale ** (1 / alpha);
  return round(creatinine, 2);
}

export function potassium(random: Random, profile: PatientProfile, moment: Moment): number {
  const ckd = since(profile, 'ckd', moment.at) ? (profile.ckdStage === '4' ? 0.6 : 0.25) : 0;
  return round(Math.min(7, Math.max(2.6, random.normal(4.25 + ckd, 0.33))), 1);
}

export function sodium(random: Random, _profile: PatientProfile, moment: Moment): number {
  return Math.round(Math.min(155, Math.max(120, random.normal(moment.acute ? 137.5 : 139.5, moment.acute ? 3.2 : 2.1))));
}

export interface Lipids {
  total: number;
  hdl: number;
  ldl: number;
  triglycerides: number;
}

/** A lipid panel with LDL calculated by Friedewald (total − HDL − TG/5), as the LOINC code says. */
export function lipids(random: Random, profile: PatientProfile, moment: Moment): Lipids {
  const ldl = Math.max(30, random.normal(profile.baseline.ldl * (moment.onStatin ? 0.62 : 1), 10));
  const hdl = Math.max(20, random.normal(profile.baseline.hdl, 4));
  const triglycerides = Math.max(40, Math.min(1000, profile.baseline.triglycerides * Math.exp(random.normal(0, 0.18))));
  const roundedLdl = Math.round(ldl);
  const roundedHdl = Math.round(hdl);
  const roundedTg = Math.round(triglycerides);
  return { total: Math.round(roundedLdl + roundedHdl + roundedTg / 5), hdl: roundedHdl, ldl: roundedLdl, triglycerides: roundedTg };
}

export function hemoglobin(random: Random, profile: PatientProfile, moment: Moment): number {
  const female = profile.sex === Sex.Female;
  let mean = female ? 13.5 : 15.0;
  if (since(profile, 'anemia', moment.at)) mean -= 2.6;
  if (since(profile, 'ckd', moment.at)) mean -= profile.ckdStage === '4' ? 2 : 1;
  return round(Math.min(19, Math.max(6.5, random.normal(mean - (moment.acute ? 0.4 : 0), 1.0))), 1);
}

export function leukocytes(random: Random, _profile: PatientProfile, moment: Moment, infection: boolean): number {
  const value = infection ? random.normal(13.5, 3) : random.normal(moment.acute ? 8.4 : 7.0, 1.7);
  return round(Math.min(30, Math.max(2.4, value)), 1);
}

export function ntProBnp(random: Random, profile: PatientProfile, moment: Moment): number {
  const failing = since(profile, 'heartFailure', moment.at);
  const median = failing ? (moment.acute ? 3800 : 1400) : profile.age >= 75 ? 220 : 70;
  return Math.round(Math.min(35000, Math.max(5, random.logNormal(median, failing ? 0.6 : 0.7))));
}

export function troponin(random: Random): number {
  return random.chance(0.09) ? round(random.logNormal(0.3, 1), 2) || 0.05 : round(random.uniform(0, 0.03), 2);
}

export function urineAlbuminCreatinine(random: Random, profile: PatientProfile): number {
  return Math.round(Math.min(3000, Math.max(2, profile.baseline.uacr * Math.exp(random.normal(0, 0.3)))));
}

export interface BloodPressure {
  systolic: number;
  diastolic: number;
}

export function bloodPressure(random: Random, profile: PatientProfile, moment: Moment): BloodPressure {
  const hypertensive = since(profile, 'hypertension', moment.at);
  const before = profile.onset.hypertension !== undefined && !hypertensive;
  const systolicMean = before ? profile.baseline.systolic + 6 : profile.baseline.systolic;
  const stress = moment.acute ? 9 : 0;
  const systolic = Math.round(Math.min(230, Math.max(85, random.normal(systolicMean + stress, 9))));
  const diastolic = Math.round(Math.min(130, Math.max(45, random.normal(profile.baseline.diastolic + stress / 2, 6), systolic - 100)));
  return { systolic, diastolic: Math.min(diastolic, systolic - 20) };
}

export function heartRate(random: Random, profile: PatientProfile, moment: Moment): number {
  return Math.round(Math.min(170, Math.max(42, random.normal(profile.baseline.heartRate + (moment.acute ? 12 : 0), 6))));
}

export function oxygenSaturation(random: Random, profile: PatientProfile, moment: Moment): number {
  const lungs = since(profile, 'copd', moment.at) || since(profile, 'heartFailure', moment.at);
  const mean = (lungs ? 94 : 97.6) - (moment.acute ? 3 : 0);
  return Math.round(Math.min(100, Math.max(78, random.normal(mean, lungs ? 2 : 1.1))));
}

export function temperature(random: Random, fever: boolean): number {
  return round(fever ? random.normal(38.5, 0.5) : random.normal(36.8, 0.25), 1);
}

/** Weight wanders a little around the patient's BMI; BMI is recomputed from weight and height as the fixtures do. */
export function bodyWeight(random: Random, profile: PatientProfile): number {
  const bmi = profile.bmi * (1 + random.normal(0, 0.025));
  return round(bmi * (profile.heightCm / 100) ** 2, 1);
}

export function bmiOf(weightKg: number, heightCm: number): number {
  return round(weightKg / (heightCm / 100) ** 2, 1);
}

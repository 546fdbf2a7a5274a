/**
 * The numbers behind the synthetic cohort. Sources and what is invented are in docs/generator.md;
 * here each table says in one line where it comes from. Prevalences are of *coded* diagnoses
 * (what a primary-care problem list carries), before the risk multipliers in `profile.ts`.
 */

/** Adult age bands and their share of US adults (Census 2020, ages 18+, rounded). */
export const AGE_BANDS: readonly { min: number; max: number; weight: number }[] = [
  { min: 18, max: 24, weight: 11.9 },
  { min: 25, max: 34, weight: 17.4 },
  { min: 35, max: 44, weight: 16.4 },
  { min: 45, max: 54, weight: 15.6 },
  { min: 55, max: 64, weight: 16.5 },
  { min: 65, max: 74, weight: 12.7 },
  { min: 75, max: 84, weight: 6.6 },
  { min: 85, max: 99, weight: 2.9 },
];

/** A value per age group: 18–44, 45–64, 65–74, 75+. */
export type ByAge = readonly [number, number, number, number];

export function byAge(table: ByAge, age: number): number {
  if (age < 45) return table[0];
  if (age < 65) return table[1];
  if (age < 75) return table[2];
  return table[3];
}

export const PREVALENCE = {
  /** CDC National Diabetes Statistics Report: diagnosed diabetes ≈ 3 %, 14 %, 22 % (18–44, 45–64, 65+). */
  diabetes: [0.033, 0.135, 0.21, 0.21] as ByAge,
  /** Coded prediabetes among people without diabetes (about 1 in 4 of the CDC's 38 % with lab prediabetes). */
  prediabetes: [0.04, 0.1, 0.12, 0.1] as ByAge,
  /** NCHS Data Brief 289 (NHANES 2015–16, ≥140/90 or treated): 7.5 % (18–39), 33.2 % (40–59), 63.1 % (60+). */
  hypertension: [0.1, 0.36, 0.56, 0.66] as ByAge,
  /** Coded hyperlipidaemia; NHANES puts high LDL or statin use near 40 % after 65 (partly invented). */
  hyperlipidemia: [0.07, 0.26, 0.38, 0.36] as ByAge,
  /** Coronary heart disease, AHA Heart Disease and Stroke Statistics (age bands rounded). */
  coronaryDisease: [0.006, 0.045, 0.11, 0.18] as ByAge,
  /** Heart failure, AHA statistics: ~0.3 %, 1.5 %, 5 %, 10 %+ by age. */
  heartFailure: [0.003, 0.014, 0.04, 0.09] as ByAge,
  /** Coded CKD stage 3–4 (CDC CKD Surveillance: most CKD is stage 1–3 and unrecorded; rates invented from it). */
  ckd: [0.005, 0.03, 0.08, 0.16] as ByAge,
  /** CDC BRFSS 2013 COPD: 3.2 % (18–44), 6.6–9.6 % (45–64), 12 % (65+). */
  copd: [0.032, 0.08, 0.12, 0.115] as ByAge,
  /** Moderate persistent asthma, coded (CDC current asthma ≈ 8 %; persistent ≈ 60 % of it). */
  asthma: [0.05, 0.045, 0.04, 0.035] as ByAge,
  /** Knee osteoarthritis on the problem list (invented from CDC arthritis prevalence). */
  osteoarthritis: [0.01, 0.07, 0.14, 0.18] as ByAge,
  /** NHANES 2017–18 osteoporosis: women 65+ 27 %; men 65+ 5 %; younger women invented. */
  osteoporosisFemale: [0.0, 0.05, 0.2, 0.3] as ByAge,
  osteoporosisMale: [0.0, 0.005, 0.03, 0.06] as ByAge,
  /** NHANES gout ≈ 3.9 % of adults, mostly older men. */
  goutMale: [0.01, 0.05, 0.08, 0.09] as ByAge,
  goutFemale: [0.002, 0.01, 0.03, 0.04] as ByAge,
  /** Alzheimer's Association Facts and Figures: 5 % (65–74), 13 % (75–84), 33 % (85+); coded ~60 % of it. */
  alzheimers: [0.0, 0.002, 0.03, 0.1] as ByAge,
  /** GERD on the problem list (invented; symptomatic GERD is ~20 % of adults). */
  gerd: [0.08, 0.13, 0.15, 0.15] as ByAge,
  /** Iron deficiency anaemia (invented; mostly women of reproductive age). */
  anemiaFemale: [0.05, 0.03, 0.03, 0.04] as ByAge,
  anemiaMale: [0.005, 0.01, 0.02, 0.04] as ByAge,
  /** CDC adult cigarette smoking 2021: 5–13 % (18–44), 14.9 % (45–64), 8.3 % (65+). */
  currentSmoker: [0.11, 0.15, 0.1, 0.06] as ByAge,
  /** Former smokers (NHIS, rounded). */
  formerSmoker: [0.1, 0.22, 0.33, 0.36] as ByAge,
};

/** Mean BMI by age (NHANES 2017–2020 adult mean ≈ 29.6 kg/m²; ~42 % obese), log-normal spread. */
export const MEAN_BMI: ByAge = [28.3, 30.2, 29.8, 27.6];

/** Adult height (cm) by sex: CDC anthropometric reference data (NHANES 2015–18 means). */
export const HEIGHT_CM = { female: { mean: 161.3, sd: 7 }, male: { mean: 175.3, sd: 7.5 } };

/**
 * Annual probability of death: a Gompertz curve fitted by eye to the CDC/NCHS US life table
 * (≈0.15 % at 40, 0.9 % at 60, 5.4 % at 80, 13 % at 90), times comorbidity multipliers in `profile.ts`.
 */
export function annualMortality(age: number): number {
  return Math.min(0.35, 0.00004 * Math.exp(0.09 * age));
}

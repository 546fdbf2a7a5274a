import { ExpectedGroup, OfficialCase } from './ecqm-measures';
import { stratumCounts } from './differential';

/**
 * The official cases whose expected report the stewards' own ELM does not give, each with the cause
 * found: the compiler's answer stands and the case is listed, not copied into the engine. Where the
 * reference engine can run the case it gives the compiler's answer (elm-official-cases.int-spec.ts
 * checks that); the causes say why the report differs. Keyed `edition key case-id-prefix`.
 */
export const REPORT_ERRATA_CAUSES = {
  'strata-contradict-themselves':
    'the report places an initial-population patient in more than one stratum of a group whose strata exclude each other (ages 12-17 and 18+; 13-17, 18-64 and 65+), or in none of strata that cover its initial population; the population counts of the same report agree',
  'truncated-value-set':
    'the diagnosis that decides the stratum (SNOMED 66344007, mental health) is in the full value set 2.16.840.1.113762.1.4.1046.285 but not in its stored expansion, cut at 1,000 of 3,453 codes; no fuller copy exists',
  'absent-value-set': 'the measure reads value set 2.16.840.1.113762.1.4.1147.174, absent from the published content; the reference engine refuses the measure',
  'claim-diagnosis':
    'the report counts an encounter no Claim item names: the 2025 logic (CQMCommon claimDiagnosis, principalDiagnosis, isDiagnosisPresentOnAdmission) reads principal and present-on-admission diagnoses from an active Claim whose item references the encounter, and the case has one for another encounter only',
  'dangling-reference': 'the delivery encounter names its singleton-delivery diagnosis by reasonReference to a Condition id the case does not hold, so encounterDiagnosis() finds none and the encounter is not in the denominator',
  'null-single-source-query':
    'an inactive prediabetes condition without abatement: QICoreCommon prevalenceInterval() is then a query whose only source, the end of a null abatement interval, is null, and the CQL specification makes such a query null (cql-execution does the same), so the condition overlaps no look-back period',
} as const;

export type ReportErratumCause = keyof typeof REPORT_ERRATA_CAUSES;

export const REPORT_ERRATA: Record<string, ReportErratumCause> = {
  '2024-qicore4 CMS1017 07dfba42': 'absent-value-set',
  '2024-qicore4 CMS1017 0884b17b': 'absent-value-set',
  '2024-qicore4 CMS1017 404570c9': 'absent-value-set',
  '2024-qicore4 CMS1017 4072632a': 'absent-value-set',
  '2024-qicore4 CMS1017 8f14c048': 'absent-value-set',
  '2024-qicore4 CMS1017 951a2d40': 'absent-value-set',
  '2024-qicore4 CMS1017 966cc666': 'absent-value-set',
  '2024-qicore4 CMS1017 972573e8': 'absent-value-set',
  '2024-qicore4 CMS1017 e6d91b78': 'absent-value-set',
  '2025-qicore6 CMS334 c58acff5': 'dangling-reference',
  '2025-qicore6 CMS1028 763d86f9': 'claim-diagnosis',
  '2025-qicore6 CMS104 348471db': 'claim-diagnosis',
  '2025-qicore6 CMS104 451b6853': 'claim-diagnosis',
  '2025-qicore6 CMS1154 bc9c82ca': 'null-single-source-query',
  '2025-qicore6 CMS1244 9ec1a135': 'truncated-value-set',
  '2025-qicore6 CMS1244 a11dce52': 'truncated-value-set',
  '2025-qicore6 CMS1244 e37040f5': 'truncated-value-set',
  '2025-qicore6 CMS1264 9ec1a135': 'truncated-value-set',
  '2025-qicore6 CMS1264 a11dce52': 'truncated-value-set',
  '2025-qicore6 CMS137 19b5b244': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 19e9d2c7': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 1e266d29': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 3698ad63': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 3d941a8c': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 404859c4': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 408f327a': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 48ff3299': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 5b0061aa': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 5d472e4a': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 67a71781': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 6d2606b6': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 703efc85': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 7c575e4b': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 818ae5f1': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 8715fad1': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 abedeee4': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 ade0fa8f': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 af70d9d1': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 b12424cd': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 bdca6f16': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 eff74fdb': 'strata-contradict-themselves',
  '2025-qicore6 CMS137 fe1e8e8e': 'strata-contradict-themselves',
  '2025-qicore6 CMS155 356b9969': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 01083d96': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 0604cc6e': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 07455a0e': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 16eff6ae': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 230e1741': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 2fb854f8': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 393ab9f4': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 5803e753': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 67ae7ee1': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 6c3abc11': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 8152f580': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 8467758b': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 879bf9f1': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 8cca688d': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 96b6579c': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 a7fc8494': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b0477f12': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b120a966': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b263321d': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b2dab5c6': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b34e3afc': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 b3921225': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 c8f6a83b': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 c907e077': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 cfe7e63e': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 f1a332e3': 'strata-contradict-themselves',
  '2025-qicore6 CMS159 fa45f7d1': 'strata-contradict-themselves',
  '2025-qicore6 CMS72 5a329008': 'claim-diagnosis',
};

export const erratumKey = (edition: string, key: string, caseId: string) => `${edition} ${key} ${caseId.slice(0, 8)}`;

/**
 * Whether a report's strata contradict themselves, whatever an engine says: a patient-based group
 * counts the patient in its initial population, and the report puts the patient in the initial
 * population of more than one stratum, or of none (checked only for the groups listed with that cause,
 * whose strata partition the initial population).
 */
export function strataContradictThemselves(testCase: OfficialCase): boolean {
  return testCase.expected.groups.some((group: ExpectedGroup) => {
    if (!group.stratifiers?.length || group.populations['initial-population'] !== 1) return false;
    return group.stratifiers.filter((stratifier) => (stratumCounts(stratifier)['initial-population'] ?? 0) > 0).length !== 1;
  });
}

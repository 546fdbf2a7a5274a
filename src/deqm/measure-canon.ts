import { MEASURE_ALIASES, MEASURE_IDS, MeasureId } from '../clinical/care-gaps';

/**
 * How each measure Vigil evaluates is named outside it: the stewards' FHIR `Measure` resource
 * (cqframework/ecqm-content-qicore-2024, the MADiE exports the clinical module follows), by its
 * canonical URL, version, resource id, short-name identifier and population group ids. A DEQM
 * MeasureReport names its measure by this canonical, so a payer's system can match it to the
 * Measure it holds.
 */
export interface MeasureCanon {
  url: string;
  version: string;
  /** The `Measure.id` the stewards publish (what `measureId` names on a FHIR server holding it). */
  resourceId: string;
  /** `Measure.identifier` with the short-name type (what `measureIdentifier` names). */
  shortName: string;
  /** The stewards' group ids, in the order of the clinical module's groups. */
  groupIds: readonly string[];
  /** The populations each group declares (CMS347 also has a denominator exception). */
  populations: readonly PopulationCode[];
  /** `decrease` for an inverse measure (CMS122: the numerator is the gap). */
  improvementNotation: 'increase' | 'decrease';
}

/** What a MeasureReport says of its measure: the canonical, the groups' ids and populations, the improvement notation. */
export type ReportedMeasure = Pick<MeasureCanon, 'url' | 'version' | 'groupIds' | 'populations' | 'improvementNotation'>;

export type PopulationCode = 'initial-population' | 'denominator' | 'denominator-exclusion' | 'denominator-exception' | 'numerator';

export const SHORT_NAME_SYSTEM = 'https://madie.cms.gov/measure/shortName';
const MADIE = 'https://madie.cms.gov/Measure/';
const PROPORTION: readonly PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'numerator'];

export const MEASURE_CANON: Readonly<Record<MeasureId, MeasureCanon>> = {
  CMS122: {
    url: `${MADIE}DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR`,
    version: '0.1.002',
    resourceId: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR',
    shortName: 'CMS122FHIR',
    groupIds: ['661d86730f0a9077c1d5a59d'],
    populations: PROPORTION,
    improvementNotation: 'decrease',
  },
  CMS165: {
    url: `${MADIE}ControllingHighBloodPressureFHIR`,
    version: '0.1.000',
    resourceId: 'ControllingHighBloodPressureFHIR',
    shortName: 'CMS165FHIR',
    groupIds: ['650b4f94da013638e7b3dd9a'],
    populations: PROPORTION,
    improvementNotation: 'increase',
  },
  CMS125: {
    url: `${MADIE}BreastCancerScreeningFHIR`,
    version: '0.0.001',
    resourceId: 'BreastCancerScreeningFHIR',
    shortName: 'CMS125FHIR',
    groupIds: ['64e646302ad653247b573ada'],
    populations: PROPORTION,
    improvementNotation: 'increase',
  },
  CMS130: {
    url: `${MADIE}ColonCancerScreeningFHIR`,
    version: '0.1.000',
    resourceId: 'ColonCancerScreeningFHIR',
    shortName: 'CMS130FHIR',
    groupIds: ['654a405f78418140875e351c'],
    populations: PROPORTION,
    improvementNotation: 'increase',
  },
  CMS347: {
    url: `${MADIE}StatinTherapyforthePreventionandTreatmentofCardiovascularDiseaseFHIR`,
    version: '0.2.000',
    resourceId: 'StatinTherapyforthePreventionandTreatmentofCardiovascularDiseaseFHIR',
    shortName: 'CMS347FHIR',
    groupIds: ['64ef76a356d636294b157b96', '64ef76a356d636294b157b97', '64ef76a356d636294b157b98', '64ef76a356d636294b157b99'],
    populations: [...PROPORTION, 'denominator-exception'],
    improvementNotation: 'increase',
  },
  CMS951: {
    url: `${MADIE}KidneyHealthEvaluationFHIR`,
    version: '0.1.000',
    resourceId: 'KidneyHealthEvaluationFHIR',
    shortName: 'CMS951FHIR',
    groupIds: ['64f0dfe956d636294b157faf'],
    populations: PROPORTION,
    improvementNotation: 'increase',
  },
};

/** What `measureId` may name: Vigil's id (`CMS122`, `KHE`) or the stewards' resource id. */
export function measureById(value: string): MeasureId | undefined {
  if ((MEASURE_IDS as readonly string[]).includes(value)) return value as MeasureId;
  return MEASURE_ALIASES[value] ?? MEASURE_IDS.find((id) => MEASURE_CANON[id].resourceId === value);
}

/**
 * What `measureIdentifier` may name, as a FHIR token: the short name alone (`CMS122FHIR`, or
 * Vigil's `CMS122`), or `system|value` with the stewards' short-name system.
 */
export function measureByIdentifier(value: string): MeasureId | undefined {
  const [system, code] = value.includes('|') ? value.split('|', 2) : [undefined, value];
  if (system !== undefined && system !== SHORT_NAME_SYSTEM) return undefined;
  return MEASURE_IDS.find((id) => MEASURE_CANON[id].shortName === code) ?? (system === undefined ? measureById(code) : undefined);
}

/** What `measureUrl` may name: the canonical URL, with or without `|version` (which must be the one evaluated). */
export function measureByUrl(value: string): MeasureId | undefined {
  const [url, version] = value.split('|', 2);
  return MEASURE_IDS.find((id) => MEASURE_CANON[id].url === url && (version === undefined || MEASURE_CANON[id].version === version));
}

/** A loaded edition's groups, as the measure catalogue lists them. */
export interface LoadedEditionCanon {
  url: string;
  version: string;
  groups: readonly { id: string | null; improvementNotation: string | null; populations: readonly { code: string }[] }[];
}

const REPORTED_POPULATIONS: readonly PopulationCode[] = ['initial-population', 'denominator', 'denominator-exclusion', 'denominator-exception', 'numerator'];

/** A measure loaded as data, as a MeasureReport names it: its package's canonical and groups (ids `group-n` where the Measure gives none). */
export function loadedCanon(edition: LoadedEditionCanon): ReportedMeasure {
  const declared = new Set(edition.groups.flatMap((group) => group.populations.map((population) => population.code)));
  return {
    url: edition.url,
    version: edition.version,
    groupIds: edition.groups.map((group, index) => group.id ?? `group-${index + 1}`),
    populations: REPORTED_POPULATIONS.filter((code) => declared.has(code)),
    improvementNotation: edition.groups[0]?.improvementNotation === 'decrease' ? 'decrease' : 'increase',
  };
}

import { CompiledMeasure, definesReferencedBy, ElmLibrary, evaluateMeasureExplained, GroupResult as ElmGroupResult, MeasureEvaluation, MeasurePatient, PopulationCode, ResourceRef, resourcesIn } from '../elm';
import { CARE_GAP_MEASURE_KEY } from '../citation-grammar';
import { Period } from '../shared/clinical-dates';
import { CareGapResult, CareGapStatus, POPULATION_CODE, PopulationName, POPULATIONS } from './care-gap.types';
import { Criterion, scoreGroup } from './population-rules';

/**
 * A measure loaded as data (the stewards' Measure, compiled from their ELM) read as a care gap, the
 * way the built-in measures are: each group's populations as the compiled measure counts them, its
 * status by the same proportion rules (`scoreGroup`), read through the group's improvement notation
 * (`decrease`: the numerator is the gap), and its evidence the stored rows behind each population's
 * criterion. Only patient-based proportion groups have a gap to close (`gapEvaluable`).
 */

/** What the catalogue knows of a loaded edition and its groups (measure-content's definitions). */
export interface PublishedMeasure {
  key: string;
  version: string;
  title: string;
  groups: readonly PublishedGroup[];
}

export interface PublishedGroup {
  id: string | null;
  scoring: string;
  basis: string;
  improvementNotation: string | null;
  populations: readonly { code: string; expression: string | null }[];
}

/** Why a loaded edition has no care gap to read, or null when it has: each group a patient-based proportion group. */
export function gapUnevaluableReason(measure: Pick<PublishedMeasure, 'key' | 'groups'>): string | null {
  if (!CARE_GAP_MEASURE_KEY.test(measure.key)) return `its key ${measure.key} is not a care-gap measure key (2–12 capital letters and digits)`;
  if (measure.groups.length === 0) return 'it has no population group';
  const other = measure.groups.find((group) => group.scoring !== 'proportion' || group.basis !== 'boolean');
  if (other) return `a ${other.basis === 'boolean' ? 'patient-based' : `${other.basis}-based`} ${other.scoring} group has no open or closed gap (only patient-based proportion measures do)`;
  return null;
}

/** A stored row's citation kind, by the FHIR resource `chartToFhir` makes of it (the Patient, a Medication, and a MedicationDispense, Immunization, Communication, MedicationAdministration or Task, which no tool shows, cite nothing). */
const CITATION_KIND: Readonly<Record<string, string>> = {
  Observation: 'obs',
  Encounter: 'enc',
  Condition: 'cond',
  MedicationRequest: 'med',
  Procedure: 'proc',
  AllergyIntolerance: 'allergy',
  ServiceRequest: 'req',
  DeviceRequest: 'req',
  AdverseEvent: 'ae',
};
const citationOf = (ref: ResourceRef): string | null => (CITATION_KIND[ref.resourceType] ? `${CITATION_KIND[ref.resourceType]}:${ref.id}` : null);

/**
 * What one evaluation reads: the compiled edition, its main library's ELM, and the patient's chart
 * as FHIR (`chartToFhir`) prepared with the practice's offset and `Now()` (`new MeasurePatient(resources,
 * { timezoneOffset, now })`): one per patient and request, shared by every measure evaluated for it.
 */
export interface PublishedInput {
  compiled: CompiledMeasure;
  mainLibrary: ElmLibrary;
  patient: MeasurePatient;
  period: Period;
}

/** One patient's care gap under a loaded measure. */
export function publishedCareGap(measure: PublishedMeasure, input: PublishedInput): CareGapResult<string> {
  const { evaluation, evidence } = evaluateWithEvidence(measure, input);
  const groups = measure.groups.map((group, index) => scoreGroup(criteriaOf(group, evaluation.groups[index], evidence), group.improvementNotation === 'decrease'));
  const deciding = groups.find((group) => group.populations.denominator) ?? groups[0];
  const decidingGroup = measure.groups[groups.indexOf(deciding)];
  return {
    measureId: measure.key,
    version: `${measure.key} (${measure.version})`,
    title: measure.title,
    period: { ...input.period },
    status: deciding.status,
    reason: deciding.reason,
    evidence: [...new Set(POPULATIONS.flatMap((population) => deciding.evidence[population]))],
    toClose: toClose(deciding.status, decidingGroup),
    groups: groups.map((group, index) => ({ ...group, id: measure.groups[index].id ?? `group-${index + 1}` })),
    dataQuality: [],
  };
}

/** What would change the result, in the measure's own words (its numerator's define), read through its improvement notation. */
function toClose(status: CareGapStatus, group: PublishedGroup): string {
  const numerator = group.populations.find((population) => population.code === 'numerator')?.expression ?? 'Numerator';
  if (status === 'not-applicable') return 'Nothing: the measure does not apply to this patient in the period.';
  if (group.improvementNotation === 'decrease') {
    return status === 'open-gap'
      ? `The record meets the measure's "${numerator}", which counts against it (a lower score is better): what the published measure asks for in the period changes this result.`
      : `Nothing: the record does not meet the measure's "${numerator}", which would count against it.`;
  }
  return status === 'open-gap'
    ? `What the measure's "${numerator}" asks for, recorded in the measurement period, changes this result (see the published measure for its criteria).`
    : 'Nothing: the record meets the measure as published.';
}

/** Per define name: the citations of the stored rows it and the defines it reads select. */
type EvidenceByDefine = ReadonlyMap<string, string[]>;

/**
 * The populations and, from the same evaluation, the rows each population's criterion and the defines it reads select:
 * only for the groups whose initial population the patient is in, since `scoreGroup` shows no evidence of any other
 * (and most patients are outside most measures, whose other defines are then never evaluated).
 */
function evaluateWithEvidence(measure: PublishedMeasure, input: PublishedInput): { evaluation: MeasureEvaluation; evidence: EvidenceByDefine } {
  let criteria: string[] = [];
  let reads = new Map<string, readonly string[]>();
  const { evaluation, defines } = evaluateMeasureExplained(
    input.compiled,
    (result) => {
      const inInitialPopulation = measure.groups.filter((_, index) => (result.groups[index]?.populations['initial-population'] ?? 0) > 0);
      criteria = [...new Set(inInitialPopulation.flatMap((group) => group.populations.map((population) => population.expression).filter((name): name is string => name !== null)))];
      reads = new Map(criteria.map((name) => [name, definesReferencedBy(input.mainLibrary, name)]));
      return [...new Set([...reads.values()].flat())];
    },
    input.patient,
    input.period,
  );
  const cited = (name: string) => resourcesIn(defines[name]).map(citationOf).filter((citation): citation is string => citation !== null);
  return { evaluation, evidence: new Map(criteria.map((name) => [name, [...new Set(reads.get(name)!.flatMap(cited))]])) };
}

function criteriaOf(group: PublishedGroup, result: ElmGroupResult, evidence: EvidenceByDefine) {
  const criterion = (population: PopulationName, code: PopulationCode = POPULATION_CODE[population]): Criterion | undefined => {
    const expression = group.populations.find((candidate) => candidate.code === code)?.expression;
    if (!expression) return undefined;
    const met = (result.populations[code] ?? 0) > 0 && !(code === 'numerator' && (result.populations['numerator-exclusion'] ?? 0) > 0);
    return {
      met,
      evidence: evidence.get(expression) ?? [],
      code: 'published-criteria',
      text: met ? `The record meets the measure's "${expression}".` : `The record does not meet the measure's "${expression}".`,
    };
  };
  const none: Criterion = { met: false, evidence: [], code: 'none', text: '' };
  return {
    id: group.id ?? '',
    initialPopulation: criterion('initialPopulation')!,
    denominator: criterion('denominator'),
    exclusion: criterion('denominatorExclusion') ?? none,
    exception: criterion('denominatorException'),
    numerator: criterion('numerator') ?? none,
  };
}

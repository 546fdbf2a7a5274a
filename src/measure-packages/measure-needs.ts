import { READ_BACK_TYPES } from '../clinical/chart-fhir';
import { dataRequirementsOf, DataRequirement, FhirResource, RequirementSelector, SelectorOptions } from '../clinical/elm';
import { chooseEdition, Period } from './edition-selection';
import type { EvaluableEdition, MeasurePackagesRepository } from './measure-packages.repository';

/** The edition of one loaded measure whose retrieves are checked. */
export interface NeedsEdition {
  key: string;
  edition: string;
  version: string;
  /** In force on the period's last day; otherwise the newest loaded (no edition is in force then). */
  inForce: boolean;
}

/** One data requirement, with the measures whose retrieves declare it. Names and codes of the measures only, never a record's. */
export interface MeasureNeed {
  resourceType: string;
  /** What selects within the type: the value set's or codes' names in the CQL, and the profile's short name. */
  label: string;
  /** Whether Vigil stores the type and gives it back to the measures (`READ_BACK_TYPES`). */
  stored: boolean;
  /** Measure keys, sorted. */
  measures: string[];
}

export interface MeasureNeeds {
  /** The day the editions were chosen for (the stored period's last). */
  day: string;
  editions: NeedsEdition[];
  needs: MeasureNeed[];
  /** The indexes of the needs a FHIR resource meets (see RequirementSelector). */
  select(resource: FhirResource): number[];
}

/** What the needs are read from: every loaded edition, and the content of many (the measure packages' repository). */
export type NeedsSource = Pick<MeasurePackagesRepository, 'allEditions' | 'contentsOf'>;

/**
 * The data requirements of the loaded measures: for each loaded key, the edition in force on the
 * period's last day (the one its stored results and care_gap_lookup use), else its newest loaded
 * edition; each requirement its ELM retrieves declare, merged across measures. Null when no measure is
 * loaded.
 */
export async function loadedMeasureNeeds(source: NeedsSource, period: Period, options: SelectorOptions = {}): Promise<MeasureNeeds | null> {
  const byKey = new Map<string, EvaluableEdition[]>();
  for (const edition of await source.allEditions()) byKey.set(edition.key, [...(byKey.get(edition.key) ?? []), edition]);
  if (byKey.size === 0) return null;
  const editions: (NeedsEdition & { id: string })[] = [];
  for (const [key, loaded] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    const choice = chooseEdition(loaded, period);
    const chosen = 'chosen' in choice ? choice.chosen : newest(loaded);
    editions.push({ id: chosen.id, key, edition: chosen.edition, version: chosen.version, inForce: 'chosen' in choice });
  }
  const requirements = new Map<string, { requirement: DataRequirement; measures: Set<string> }>();
  const { packages, valueSets } = await source.contentsOf(editions.map((edition) => edition.id));
  for (const edition of editions) {
    const content = packages.get(edition.id);
    if (!content) continue;
    for (const requirement of dataRequirementsOf(content.measure, content.libraries)) {
      const entry = requirements.get(requirement.key) ?? { requirement, measures: new Set<string>() };
      entry.measures.add(edition.key);
      requirements.set(requirement.key, entry);
    }
  }
  // Requirements that read alike to an operator (the same type, value set name and profile) are one need.
  const needs: MeasureNeed[] = [];
  const needIndex = new Map<string, number>();
  const needOf: number[] = [];
  const merged = [...requirements.values()];
  for (const { requirement, measures } of merged) {
    const label = labelOf(requirement);
    const id = JSON.stringify([requirement.resourceType, label]);
    let index = needIndex.get(id);
    if (index === undefined) {
      index = needs.push({ resourceType: requirement.resourceType, label, stored: READ_BACK_TYPES.includes(requirement.resourceType), measures: [] }) - 1;
      needIndex.set(id, index);
    }
    needs[index].measures = [...new Set([...needs[index].measures, ...measures])].sort();
    needOf.push(index);
  }
  const selector = new RequirementSelector(
    merged.map((entry) => entry.requirement),
    valueSets,
    options,
  );
  return {
    day: period.end,
    editions: editions.map(({ key, edition, version, inForce }) => ({ key, edition, version, inForce })),
    needs,
    select: (resource) => [...new Set(selector.select(resource).map((index) => needOf[index]))],
  };
}

function newest(editions: EvaluableEdition[]): EvaluableEdition {
  return [...editions].sort((a, b) => (b.periodStart ?? '').localeCompare(a.periodStart ?? '') || b.loadedAt.localeCompare(a.loadedAt))[0];
}

/** `"Office Visit"`, `"Birth date"`, `(any)`; with the profile's short name when the retrieve names one. */
export function labelOf(requirement: DataRequirement): string {
  const what = requirement.valueSet
    ? `"${requirement.valueSet.name}"`
    : requirement.codes
      ? requirement.codes.map((code) => `"${code.name}"`).join(', ')
      : requirement.runtimeCodes
        ? '(codes computed at run time)'
        : '(any)';
  return requirement.profile ? `${what} [${requirement.profile.slice(requirement.profile.lastIndexOf('/') + 1)}]` : what;
}

import { inferProfiles } from '../runtime/profiles';
import type { FhirResource } from '../runtime/patient-data';
import { codeKey, ValueSetIndex, ValueSetResource } from '../runtime/value-sets';
import type { DataRequirement } from './data-requirements';

export interface SelectorOptions {
  /** A coding's system as the data will be stored (an importer turns HL7 OIDs into URIs); as written when absent. */
  normaliseSystem?: (system: string) => string | null;
}

interface Indexed {
  index: number;
  profile?: string;
}

/**
 * Which of many data requirements a FHIR resource meets, as a retrieve selects it: its type, the
 * profile (inferred as for a stored resource, which Vigil gives back untagged: see profiles.ts, so a
 * tag written by the source neither adds nor hides one), and a code at the code path in the value
 * set or among the codes. Built once for thousands of requirements: per type and code path, one map
 * from code to the requirements holding it, so a resource costs a lookup per coding.
 */
export class RequirementSelector {
  private readonly uncoded = new Map<string, Indexed[]>();
  private readonly coded = new Map<string, Map<string, Map<string, Indexed[]>>>();

  constructor(
    requirements: readonly DataRequirement[],
    valueSets: readonly ValueSetResource[],
    private readonly options: SelectorOptions = {},
  ) {
    const expansions = new ValueSetIndex(valueSets);
    requirements.forEach((requirement, index) => {
      const entry: Indexed = { index, ...(requirement.profile ? { profile: requirement.profile } : {}) };
      const keys = requirement.valueSet
        ? expansions.get(requirement.valueSet.url)?.keys
        : requirement.codes?.map((code) => codeKey(code.system, code.code));
      if (!requirement.codePath || requirement.runtimeCodes || !keys) {
        // A value set without an expansion selects nothing: the measure's own compile refuses it.
        if (requirement.valueSet && !keys) return;
        push(this.uncoded, requirement.resourceType, entry);
        return;
      }
      let byPath = this.coded.get(requirement.resourceType);
      if (!byPath) this.coded.set(requirement.resourceType, (byPath = new Map()));
      let byCode = byPath.get(requirement.codePath);
      if (!byCode) byPath.set(requirement.codePath, (byCode = new Map()));
      for (const key of keys) push(byCode, key, entry);
    });
  }

  /** The indexes (into the requirements given) of those `resource` meets, each once, ascending. */
  select(resource: FhirResource): number[] {
    const type = resource.resourceType;
    const candidates: Indexed[] = [...(this.uncoded.get(type) ?? [])];
    for (const [path, byCode] of this.coded.get(type) ?? []) {
      for (const key of this.codeKeysAt(resource, path)) candidates.push(...(byCode.get(key) ?? []));
    }
    if (candidates.length === 0) return [];
    let profiles: ReadonlySet<string> | undefined;
    const hits = new Set<number>();
    for (const candidate of candidates) {
      if (candidate.profile) {
        profiles ??= new Set(inferProfiles({ ...resource, meta: undefined }));
        if (!profiles.has(candidate.profile)) continue;
      }
      hits.add(candidate.index);
    }
    return [...hits].sort((a, b) => a - b);
  }

  /** Every coding at `path` (a CodeableConcept, a Coding, lists of them; `medication` as `medicationCodeableConcept`). */
  private codeKeysAt(resource: FhirResource, path: string): string[] {
    const value = resource[path] ?? resource[`${path}CodeableConcept`];
    const keys: string[] = [];
    const add = (item: unknown): void => {
      if (Array.isArray(item)) return item.forEach(add);
      if (item === null || typeof item !== 'object') return;
      const { coding, system, code } = item as { coding?: unknown; system?: unknown; code?: unknown };
      if (Array.isArray(coding)) return coding.forEach(add);
      if (typeof system !== 'string' || typeof code !== 'string') return;
      const stored = this.options.normaliseSystem ? this.options.normaliseSystem(system) : system;
      if (stored) keys.push(codeKey(stored, code.trim()));
    };
    add(value);
    return keys;
  }
}

function push<K>(map: Map<K, Indexed[]>, key: K, entry: Indexed): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

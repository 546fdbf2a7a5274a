import {
  DecodedLibrary,
  Expansion,
  Json,
  MeasureGroupDefinition,
  commonValue,
  decodeLibrary,
  effectivePeriodOf,
  elmIncludes,
  elmValueSets,
  expansionHash,
  expansionOf,
  groupsOf,
  lastSegment,
  libraryHash,
  sha256,
  stableJson,
} from './measure-content';
import type { SourceMeasure } from './measure-source';

/**
 * From one measure of a source to the package Vigil stores, or the reasons it is refused: the
 * include closure of its ELM (`library.includes.def`, from the primary library down) and every value
 * set that closure declares (`library.valueSets.def`), each expansion checked for completeness. A
 * value set that is missing, unexpanded or cut short (`expansion.total` above the codes listed, or
 * an edition index that says `truncated`) is refused by name: a measure evaluated over part of a
 * value set gives wrong answers without saying so. With `supplement`, a stand-in copy replaces it,
 * checked the same way. Codes keep the system URIs the steward wrote (no mapping between editions).
 */

export interface ResolvedLibrary extends DecodedLibrary {
  hash: string;
}

export interface ResolvedValueSet {
  /** The names the ELM declares it under. */
  names: string[];
  expansion: Expansion;
  hash: string;
  fromSupplement: boolean;
}

export interface ResolvedPackage {
  key: string;
  url: string;
  version: string;
  title: string;
  edition: string;
  scoring: string;
  basis: string;
  groups: MeasureGroupDefinition[];
  period: { start: string; end: string } | null;
  measure: Json;
  primaryLibrary: ResolvedLibrary;
  /** The include closure, the primary library first. */
  libraries: ResolvedLibrary[];
  valueSets: ResolvedValueSet[];
  contentHash: string;
}

export interface RefusedPackage {
  key: string;
  url: string | null;
  version: string | null;
  reasons: string[];
}

export type Resolution = { resolved: ResolvedPackage } | { refused: RefusedPackage };

export interface ResolveOptions {
  /** Use the source's stand-in for a value set that is missing, unexpanded or cut short. */
  supplement: boolean;
}

const count = (value: number) => value.toLocaleString('en-US');

// Measures of one edition share most libraries and value sets (the same parsed objects): each is
// decoded, read and hashed once per load, not once per measure.
const decodedLibraries = new WeakMap<Json, ResolvedLibrary | { problem: string }>();
const expansions = new WeakMap<Json, { expansion: Expansion; hash: string } | null>();

function libraryOf(resource: Json): ResolvedLibrary | { problem: string } {
  let library = decodedLibraries.get(resource);
  if (!library) {
    const decoded = decodeLibrary(resource);
    library = 'problem' in decoded ? decoded : { ...decoded, hash: libraryHash(decoded) };
    decodedLibraries.set(resource, library);
  }
  return library;
}

function hashedExpansionOf(valueSet: Json): { expansion: Expansion; hash: string } | null {
  let found = expansions.get(valueSet);
  if (found === undefined) {
    const expansion = expansionOf(valueSet);
    found = expansion && { expansion, hash: expansionHash(expansion) };
    expansions.set(valueSet, found);
  }
  return found;
}

/** Why an expansion cannot be used as complete, or null. */
function expansionProblem(valueSet: Json | null, indexStatus: string | null, version: string | null): string | null {
  if (!valueSet) return 'missing';
  if (version && valueSet.version !== version) return `missing in version ${version} (the source has ${String(valueSet.version ?? 'no version')})`;
  const expansion = hashedExpansionOf(valueSet)?.expansion;
  if (!expansion) return 'not expanded (a definition without its codes)';
  if (expansion.total !== null && expansion.total > expansion.listed) return `cut short: ${count(expansion.listed)} of ${count(expansion.total)} codes`;
  if (indexStatus?.startsWith('truncated')) return `cut short (the edition's index says ${indexStatus})`;
  return null;
}

export function resolvePackage(source: SourceMeasure, edition: string, options: ResolveOptions): Resolution {
  const { measure, key } = source;
  const url = typeof measure.url === 'string' ? measure.url : null;
  const version = typeof measure.version === 'string' ? measure.version : null;
  const reasons: string[] = [];
  const refuse = (): Resolution => ({ refused: { key, url, version, reasons } });
  if (!url || !version) reasons.push('the Measure has no canonical url or no version');
  if (!source.primaryLibrary) reasons.push('the Measure names no library');
  if (reasons.length > 0) return refuse();

  const libraries = includeClosure(source, reasons);
  if (!libraries) return refuse();
  const valueSets = valueSetsOf(source, libraries, options, reasons);
  if (reasons.length > 0) return refuse();

  const groups = groupsOf(measure);
  const sortedHashes = (items: string[]) => [...items].sort().join(',');
  const contentHash = sha256(
    stableJson(measure),
    sortedHashes(libraries.map((library) => library.hash)),
    sortedHashes(valueSets.map((valueSet) => `${valueSet.expansion.url}|${valueSet.hash}|${valueSet.fromSupplement}`)),
  );
  return {
    resolved: {
      key,
      url: url as string,
      version: version as string,
      title: typeof measure.title === 'string' ? measure.title.trim() : key,
      edition,
      scoring: commonValue(groups.map((group) => group.scoring)),
      basis: commonValue(groups.map((group) => group.basis)),
      groups,
      period: effectivePeriodOf(measure) ?? source.indexPeriod,
      measure,
      primaryLibrary: libraries[0],
      libraries,
      valueSets,
      contentHash,
    },
  };
}

/**
 * The primary library and everything it includes, transitively; undefined (with reasons) when one
 * is missing, has no ELM, or its ELM is another version than the include asks for.
 */
function includeClosure(source: SourceMeasure, reasons: string[]): ResolvedLibrary[] | undefined {
  const primary = source.primaryLibrary as { name: string; version: string | null };
  const closure = new Map<string, ResolvedLibrary>();
  const queue: { name: string; version: string | null; from: string }[] = [{ ...primary, from: 'the Measure' }];
  while (queue.length > 0) {
    const wanted = queue.shift() as { name: string; version: string | null; from: string };
    const label = `library ${wanted.name}${wanted.version ? ` ${wanted.version}` : ''}`;
    if ([...closure.values()].some((library) => library.name === wanted.name && (!wanted.version || library.version === wanted.version))) continue;
    const candidates = source.libraries(wanted.name, wanted.version);
    if (candidates.length === 0) {
      reasons.push(`${label} (included by ${wanted.from}) missing`);
      continue;
    }
    // The measure's own copy comes first: where two translations of one version exist, its own.
    const library = libraryOf(candidates[0]);
    if ('problem' in library) {
      reasons.push(library.problem);
      continue;
    }
    if (library.name !== wanted.name || (wanted.version && library.version !== wanted.version)) {
      reasons.push(`${label} (included by ${wanted.from}): its ELM is ${library.name} ${library.version}`);
      continue;
    }
    closure.set(`${library.name}|${library.version}`, library);
    for (const include of elmIncludes(library.elm)) queue.push({ ...include, from: `${library.name} ${library.version}` });
  }
  return reasons.length > 0 ? undefined : [...closure.values()];
}

function valueSetsOf(source: SourceMeasure, libraries: ResolvedLibrary[], options: ResolveOptions, reasons: string[]): ResolvedValueSet[] {
  const declared = new Map<string, { names: Set<string>; version: string | null }>();
  for (const library of libraries) {
    for (const valueSet of elmValueSets(library.elm)) {
      const entry = declared.get(valueSet.url) ?? { names: new Set<string>(), version: valueSet.version };
      entry.names.add(valueSet.name);
      declared.set(valueSet.url, entry);
    }
  }
  const resolved: ResolvedValueSet[] = [];
  for (const [url, { names, version }] of [...declared.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const label = `value set ${[...names].map((name) => `"${name}"`).join(' / ')} (${lastSegment(url)})`;
    const candidates = source.valueSet(url, version);
    if (candidates.ambiguous) {
      reasons.push(`${label}: ${candidates.ambiguous}`);
      continue;
    }
    const problem = expansionProblem(candidates.primary, candidates.indexStatus, version);
    let chosen = problem ? null : candidates.primary;
    if (problem && options.supplement && candidates.supplement) {
      const standIn = expansionProblem(candidates.supplement, null, version);
      if (standIn) reasons.push(`${label} ${problem}, and its supplement too: ${standIn}`);
      else chosen = candidates.supplement;
    } else if (problem) {
      reasons.push(`${label} ${problem}${candidates.supplement ? ' (a stand-in is in the supplement: --supplement loads it)' : ''}`);
    }
    const found = chosen && hashedExpansionOf(chosen);
    if (found) resolved.push({ names: [...names].sort(), ...found, fromSupplement: chosen !== candidates.primary });
  }
  return resolved;
}

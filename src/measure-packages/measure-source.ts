import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Json, expansionHash, expansionOf, lastSegment, measureKeyOf, splitCanonical } from './measure-content';

/**
 * Where measures are loaded from, read into memory: either an edition folder laid out as the
 * stewards' content is kept beside Vigil (`index.json`, `measures/`, `libraries/`, `valuesets/`,
 * `valuesets-supplement/`), or FHIR resources: one Bundle, one resource, or a folder of them (a
 * `valuesets-supplement/` folder in it holds stand-in ValueSets). Reading decides nothing: the
 * resolver checks what it finds.
 */

/** The candidates for one value set a measure's ELM names. */
export interface ValueSetCandidates {
  /** The source's own expansion, if it has one. */
  primary: Json | null;
  /** A stand-in (`valuesets-supplement/`), if one is there; used only with `--supplement`. */
  supplement: Json | null;
  /** What the edition's index says of the value set (`ok`, `truncated 1000/1997`, `missing`…), when it has an index. */
  indexStatus: string | null;
  /** Why the source cannot tell which of several different expansions is meant. */
  ambiguous?: string;
}

export interface SourceMeasure {
  key: string;
  measure: Json;
  /** The measurement period the edition's index gives, when there is one. */
  indexPeriod: { start: string; end: string } | null;
  primaryLibrary: { name: string; version: string | null } | null;
  /** The Library resources that may be `name` at `version` (the measure's own first). */
  libraries(name: string, version: string | null): Json[];
  valueSet(url: string, version: string | null): ValueSetCandidates;
}

export interface MeasureSource {
  edition: string;
  measures: SourceMeasure[];
}

const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const jsonFiles = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.json')).sort() : []);

/** A Measure's primary library, from `Measure.library[0]` (a canonical, perhaps with `|version`). */
function primaryLibraryOf(measure: Json): SourceMeasure['primaryLibrary'] {
  const canonical = Array.isArray(measure.library) ? measure.library[0] : undefined;
  if (typeof canonical !== 'string') return null;
  return { name: lastSegment(canonical), version: splitCanonical(canonical).version };
}

/** Reads `path` as an edition folder (it has `index.json` with measures) or as FHIR resources. */
export function readMeasureSource(path: string, editionOverride?: string): MeasureSource {
  const indexPath = join(path, 'index.json');
  if (statSync(path).isDirectory() && existsSync(indexPath)) {
    const index = readJson(indexPath);
    if (index.measures && typeof index.measures === 'object') return readEditionFolder(path, index, editionOverride);
  }
  return readResources(path, editionOverride ?? basename(path).replace(/\.json$/i, ''));
}

interface IndexEntry {
  measure: string;
  period?: { start: string; end: string };
  libraries?: { name: string; version: string; file: string | null }[];
  valuesets?: { url: string; file: string | null; status: string; supplement?: { file: string } }[];
}

function readEditionFolder(folder: string, index: Json, editionOverride?: string): MeasureSource {
  const cache = new Map<string, Json>();
  const cached = (file: string): Json => {
    let value = cache.get(file);
    if (!value) cache.set(file, (value = readJson(join(folder, file))));
    return value;
  };
  // Files the index does not list for a measure are found by name only when its ELM asks for them.
  let libraryPool: Map<string, string[]> | undefined;
  const libraryFiles = (name: string, version: string | null): string[] => {
    libraryPool ??= groupBy(jsonFiles(join(folder, 'libraries')), (file) => {
      const library = cached(join('libraries', file));
      return `${String(library.name)}|${String(library.version)}`;
    });
    return version ? (libraryPool.get(`${name}|${version}`) ?? []) : [...libraryPool.entries()].filter(([key]) => key.startsWith(`${name}|`)).flatMap(([, files]) => files);
  };
  let valueSetPool: Map<string, string[]> | undefined;
  const valueSetFiles = (url: string): string[] => {
    valueSetPool ??= groupBy(jsonFiles(join(folder, 'valuesets')), (file) => String(cached(join('valuesets', file)).url));
    return valueSetPool.get(url) ?? [];
  };
  const edition = editionOverride ?? String(index.edition ?? basename(folder));
  const measures = Object.entries(index.measures as Record<string, IndexEntry>).map(([key, entry]): SourceMeasure => {
    const measure = cached(entry.measure);
    return {
      key,
      measure,
      indexPeriod: entry.period ?? null,
      primaryLibrary: primaryLibraryOf(measure),
      libraries(name, version) {
        // The index names the copy this measure's bundle carried (two translations of one version exist).
        const listed = (entry.libraries ?? []).filter((library) => library.name === name && (!version || library.version === version) && library.file);
        const files = listed.length > 0 ? listed.map((library) => library.file as string) : libraryFiles(name, version);
        return files.map((file) => cached(join('libraries', file)));
      },
      valueSet(url) {
        const listed = (entry.valuesets ?? []).find((valueSet) => valueSet.url === url);
        if (listed) {
          return {
            primary: listed.file ? cached(join('valuesets', listed.file)) : null,
            supplement: listed.supplement?.file ? cached(join('valuesets-supplement', listed.supplement.file)) : null,
            indexStatus: listed.status,
          };
        }
        return { ...pick(valueSetFiles(url).map((file) => ({ resource: cached(join('valuesets', file)), own: false }))), supplement: null, indexStatus: null };
      },
    };
  });
  return { edition, measures };
}

interface Found {
  resource: Json;
  file: string;
  supplement: boolean;
}

function readResources(path: string, edition: string): MeasureSource {
  const found: Found[] = [];
  const visit = (file: string, supplement: boolean) => {
    if (statSync(file).isDirectory()) {
      for (const name of readdirSync(file).sort()) {
        const child = join(file, name);
        if (statSync(child).isDirectory()) visit(child, supplement || name === 'valuesets-supplement');
        else if (name.endsWith('.json')) visit(child, supplement);
      }
      return;
    }
    const json = readJson(file);
    const resources = json.resourceType === 'Bundle' && Array.isArray(json.entry) ? (json.entry as Json[]).map((entry) => entry.resource as Json).filter(Boolean) : [json];
    for (const resource of resources) found.push({ resource, file, supplement });
  };
  visit(path, false);
  const of = (type: string, supplement = false) => found.filter((item) => item.resource.resourceType === type && item.supplement === supplement);
  const libraries = of('Library');
  const valueSets = of('ValueSet');
  const supplements = of('ValueSet', true);
  const measures = of('Measure').map(({ resource: measure, file }): SourceMeasure => ({
    key: measureKeyOf(measure) ?? 'unnamed',
    measure,
    indexPeriod: null,
    primaryLibrary: primaryLibraryOf(measure),
    libraries: (name, version) =>
      libraries
        .filter(({ resource }) => resource.name === name && (!version || resource.version === version))
        .sort((a, b) => Number(b.file === file) - Number(a.file === file))
        .map(({ resource }) => resource),
    valueSet(url, version) {
      const matching = (items: Found[]) => items.filter(({ resource }) => resource.url === url && (!version || resource.version === version));
      const own = (items: Found[]) => items.map((item) => ({ resource: item.resource, own: item.file === file }));
      return { ...pick(own(matching(valueSets))), supplement: pick(own(matching(supplements))).primary, indexStatus: null };
    },
  }));
  return { edition, measures };
}

/** One expansion among several copies: equal copies are one; else the measure's own file's; else ambiguous. */
function pick(copies: { resource: Json; own: boolean }[]): { primary: Json | null; ambiguous?: string } {
  const distinct = new Map<string, { resource: Json; own: boolean }>();
  for (const copy of copies) {
    const expansion = expansionOf(copy.resource);
    const key = expansion ? expansionHash(expansion) : `unexpanded:${String(copy.resource.version)}`;
    if (!distinct.has(key) || copy.own) distinct.set(key, copy);
  }
  const options = [...distinct.values()];
  if (options.length <= 1) return { primary: options[0]?.resource ?? null };
  const own = options.filter((option) => option.own);
  if (own.length === 1) return { primary: own[0].resource };
  return { primary: null, ambiguous: `${options.length} different copies in the source` };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

import { createHash } from 'node:crypto';

/**
 * What Vigil reads of the stewards' FHIR resources (`Measure`, `Library`, `ValueSet`): pure functions
 * over parsed JSON, no files and no database. Anything the loader does not understand is refused by
 * the resolver with a reason; nothing here guesses.
 */

export type Json = Record<string, unknown>;

export interface MeasurePopulationDefinition {
  /** `initial-population`, `denominator`, `numerator`, `measure-observation`… */
  code: string;
  id: string | null;
  /** The CQL definition it names (`criteria.expression`). */
  expression: string | null;
  /** For a measure observation: the population it observes (`cqfm-criteriaReference`). */
  criteriaReference?: string;
  /** For a measure observation: `Sum`, `Count`… (`cqfm-aggregateMethod`). */
  aggregateMethod?: string;
}

export interface MeasureGroupDefinition {
  id: string | null;
  scoring: string;
  basis: string;
  improvementNotation: string | null;
  populations: MeasurePopulationDefinition[];
  stratifiers: { id: string | null; expression: string | null }[];
}

const CQFM = 'http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/';
export const SHORT_NAME_SYSTEM = 'https://madie.cms.gov/measure/shortName';

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as Json[]) : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const extension = (element: Json, name: string): Json | undefined => asArray(element.extension).find((item) => item.url === `${CQFM}${name}`);
const firstCode = (concept: unknown): string | null => text(asArray((concept as Json | undefined)?.coding)[0]?.code);

/**
 * The measure's key: `CMS122` from the short name `CMS122FHIR` (how the stewards and Vigil's
 * catalogue call it), else the short name itself (`NHSNACHMonthly1`), else `Measure.name`.
 */
export function measureKeyOf(measure: Json): string | null {
  const shortName = asArray(measure.identifier).find((identifier) => identifier.system === SHORT_NAME_SYSTEM)?.value;
  if (typeof shortName === 'string' && shortName) return /^CMS\d+FHIR$/.test(shortName) ? shortName.slice(0, -'FHIR'.length) : shortName;
  return text(measure.name);
}

/** Every population group with its scoring and basis (a group's own extension, else the measure's). */
export function groupsOf(measure: Json): MeasureGroupDefinition[] {
  const measureScoring = firstCode(measure.scoring);
  const measureBasis = text(extension(measure, 'cqfm-populationBasis')?.valueCode);
  const measureNotation = firstCode(measure.improvementNotation);
  return asArray(measure.group).map((group) => ({
    id: text(group.id),
    scoring: firstCode(extension(group, 'cqfm-scoring')?.valueCodeableConcept) ?? measureScoring ?? 'unknown',
    basis: text(extension(group, 'cqfm-populationBasis')?.valueCode) ?? measureBasis ?? 'boolean',
    improvementNotation: firstCode(extension(group, 'cqfm-improvementNotation')?.valueCodeableConcept) ?? measureNotation,
    populations: asArray(group.population).map((population) => {
      const reference = extension(population, 'cqfm-criteriaReference');
      const aggregate = extension(population, 'cqfm-aggregateMethod');
      return {
        code: firstCode(population.code) ?? 'unknown',
        id: text(population.id),
        expression: text((population.criteria as Json | undefined)?.expression),
        ...(reference && { criteriaReference: String(reference.valueString ?? reference.valueCode ?? '') }),
        ...(aggregate && { aggregateMethod: String(aggregate.valueCode ?? aggregate.valueString ?? '') }),
      };
    }),
    stratifiers: asArray(group.stratifier).map((stratifier) => ({ id: text(stratifier.id), expression: text((stratifier.criteria as Json | undefined)?.expression) })),
  }));
}

/** One value for the whole measure: the groups' own when they agree, `mixed` when they do not. */
export function commonValue(values: string[]): string {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? distinct[0] : distinct.length === 0 ? 'unknown' : 'mixed';
}

/** `Measure.effectivePeriod` as two days, when it has both ends. */
export function effectivePeriodOf(measure: Json): { start: string; end: string } | null {
  const period = measure.effectivePeriod as Json | undefined;
  const start = text(period?.start)?.slice(0, 10);
  const end = text(period?.end)?.slice(0, 10);
  return start && end ? { start, end } : null;
}

/** A canonical reference split into its url and optional `|version`. */
export function splitCanonical(canonical: string): { url: string; version: string | null } {
  const bar = canonical.indexOf('|');
  return bar < 0 ? { url: canonical, version: null } : { url: canonical.slice(0, bar), version: canonical.slice(bar + 1) || null };
}

/** The last path segment of a canonical url or ELM include path (`https://madie.cms.gov/FHIRHelpers` → `FHIRHelpers`). */
export const lastSegment = (path: string): string => splitCanonical(path).url.split('/').pop() ?? path;

export interface DecodedLibrary {
  name: string;
  version: string;
  url: string | null;
  /** The ELM JSON's text, exactly as published (stored as jsonb). */
  elmText: string;
  elm: { library?: Json };
  cql: string | null;
}

/** The ELM (and CQL) of a `Library`; a reason when it carries no ELM JSON. */
export function decodeLibrary(resource: Json): DecodedLibrary | { problem: string } {
  const content = asArray(resource.content);
  const data = (type: string) => text(content.find((item) => item.contentType === type)?.data);
  const elmData = data('application/elm+json');
  const name = text(resource.name) ?? 'unnamed';
  if (!elmData) return { problem: `library ${name} ${text(resource.version) ?? ''} has no ELM JSON (application/elm+json)`.trim() };
  const elmText = Buffer.from(elmData, 'base64').toString('utf8');
  let elm: { library?: Json };
  try {
    elm = JSON.parse(elmText) as { library?: Json };
  } catch {
    return { problem: `library ${name}: its ELM JSON does not parse` };
  }
  const identifier = (elm.library?.identifier ?? {}) as Json;
  const cqlData = data('text/cql');
  return {
    name: text(identifier.id) ?? name,
    version: text(identifier.version) ?? text(resource.version) ?? '',
    url: text(resource.url),
    elmText,
    elm,
    cql: cqlData ? Buffer.from(cqlData, 'base64').toString('utf8') : null,
  };
}

export interface ElmInclude {
  name: string;
  version: string | null;
}

export interface ElmValueSet {
  name: string;
  url: string;
  version: string | null;
}

/** The libraries an ELM includes (`library.includes.def`). */
export function elmIncludes(elm: { library?: Json }): ElmInclude[] {
  return asArray((elm.library?.includes as Json | undefined)?.def).map((def) => ({ name: lastSegment(String(def.path ?? '')), version: text(def.version) }));
}

/** The value sets an ELM declares (`library.valueSets.def`). */
export function elmValueSets(elm: { library?: Json }): ElmValueSet[] {
  return asArray((elm.library?.valueSets as Json | undefined)?.def).map((def) => ({ name: String(def.name ?? ''), url: String(def.id ?? ''), version: text(def.version) }));
}

export interface ExpansionCode {
  system: string;
  code: string;
  display: string | null;
}

export interface Expansion {
  url: string;
  version: string | null;
  title: string | null;
  identifier: string | null;
  timestamp: string | null;
  /** `expansion.total`, when the expansion states one. */
  total: number | null;
  /** Unique by (system, code): a code listed twice is kept once, with its first display. */
  codes: ExpansionCode[];
  /** How many `contains` entries the file lists, nested ones included (before repeats are dropped): what `total` counts. */
  listed: number;
}

/** A ValueSet's expansion, flat; null when it has none (a definition only, `compose` without `expansion`). */
export function expansionOf(valueSet: Json): Expansion | null {
  const expansion = valueSet.expansion as Json | undefined;
  if (!expansion) return null;
  const seen = new Map<string, ExpansionCode>();
  let listed = 0;
  const walk = (entries: Json[]) => {
    for (const entry of entries) {
      listed += 1;
      // Hierarchical expansions nest; an abstract grouping entry is not a code to match.
      if (typeof entry.system === 'string' && typeof entry.code === 'string' && entry.abstract !== true) {
        const key = `${entry.system}\u0000${entry.code}`;
        if (!seen.has(key)) seen.set(key, { system: entry.system, code: entry.code, display: text(entry.display) });
      }
      walk(asArray(entry.contains));
    }
  };
  walk(asArray(expansion.contains));
  return {
    url: String(valueSet.url ?? ''),
    version: text(valueSet.version),
    title: text(valueSet.title) ?? text(valueSet.name),
    identifier: text(expansion.identifier),
    timestamp: text(expansion.timestamp),
    total: typeof expansion.total === 'number' ? expansion.total : null,
    codes: [...seen.values()],
    listed,
  };
}

/** JSON with object keys sorted, so equal content hashes equal whatever order a file listed it in. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Json).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256 = (...parts: string[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part, 'utf8').update('\u0000');
  return hash.digest('hex');
};

/** Over the ELM's text as published: hashing 3 MB of ELM in key order would cost more than it is worth. */
export const libraryHash = (library: DecodedLibrary): string => sha256(library.name, library.version, library.elmText, library.cql ?? '');

export function expansionHash(expansion: Expansion): string {
  const rows = expansion.codes.map((code) => `${code.system}\t${code.code}\t${code.display ?? ''}`).sort();
  return sha256(expansion.url, expansion.version ?? '', rows.join('\n'));
}

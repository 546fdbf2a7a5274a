import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ArtifactCode, ArtifactValueSet, TerminologyArtifact, TerminologySource } from '../terminology.types';

/**
 * Reads the eCQM content snapshot (`<dir>/README.md`, `<dir>/valuesets/*.json`, `<dir>/cql/*.cql`)
 * and derives the two generated files from it. Pure apart from reading: the CLI writes the result,
 * and the spec regenerates it in memory to prove the committed files are up to date.
 *
 * Everything is sorted by UTF-16 code unit (`<`), never `localeCompare`, so the output is the same
 * bytes on every machine.
 */

const VSAC_URL = 'http://cts.nlm.nih.gov/fhir/ValueSet/';
/** The folder of the upstream repository the value sets were copied from (the snapshot README's table). */
const UPSTREAM_PATH = 'input/vocabulary/valueset/external';

/** The snapshot's default place, relative to the repository root: beside the repository, never in it. */
export const DEFAULT_SOURCE = '../shared/external-data/ecqm-qicore-2024';

/** The repository root: the nearest folder at or above `from` with a package.json (works from src/ and dist/). */
export function repoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export interface GeneratedTerminology {
  artifact: TerminologyArtifact;
  /** CQL value set name → OID, sorted by name. */
  names: [name: string, oid: string][];
}

export class TerminologySourceError extends Error {}

const fail = (message: string): never => {
  throw new TerminologySourceError(message);
};

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function readTerminologySource(dir: string): GeneratedTerminology {
  for (const part of ['README.md', 'valuesets', 'cql']) {
    if (!existsSync(join(dir, part))) {
      fail(`eCQM content not found: ${join(dir, part)} is missing. Pass the snapshot folder (the one holding README.md, valuesets/ and cql/).`);
    }
  }
  const names = readCqlValueSetNames(join(dir, 'cql'));
  const valueSets = readValueSets(join(dir, 'valuesets'), names);
  for (const [name, oid] of names) {
    if (!valueSets.some((set) => set.oid === oid)) fail(`CQL value set "${name}" (${oid}) has no expansion in valuesets/`);
  }
  const source = readSourceBlock(readFileSync(join(dir, 'README.md'), 'utf8'), valueSets);
  return { artifact: { format: 1, source, valueSets }, names };
}

/** Every `valueset "Name": 'http://cts.nlm.nih.gov/fhir/ValueSet/<oid>'` of every CQL file. */
function readCqlValueSetNames(cqlDir: string): [string, string][] {
  const byName = new Map<string, { oid: string; file: string }>();
  const declaration = /^\s*valueset\s+"([^"]+)"\s*:\s*'([^']+)'/gm;
  const files = readdirSync(cqlDir).filter((file) => file.endsWith('.cql')).sort(byCodeUnit);
  if (files.length === 0) fail(`no .cql files in ${cqlDir}`);
  for (const file of files) {
    const text = readFileSync(join(cqlDir, file), 'utf8');
    for (const [, name, url] of text.matchAll(declaration)) {
      if (!url.startsWith(VSAC_URL)) fail(`${file}: value set "${name}" is not a VSAC URL: ${url}`);
      const oid = url.slice(VSAC_URL.length);
      const seen = byName.get(name);
      // The same name for two OIDs would make `VS[name]` ambiguous across libraries: refuse.
      if (seen && seen.oid !== oid) fail(`value set "${name}" is ${seen.oid} in ${seen.file} but ${oid} in ${file}`);
      byName.set(name, { oid, file });
    }
  }
  return [...byName].map(([name, { oid }]): [string, string] => [name, oid]).sort(([a], [b]) => byCodeUnit(a, b));
}

interface FhirValueSet {
  resourceType?: string;
  id?: string;
  url?: string;
  version?: string;
  name?: string;
  title?: string;
  expansion?: {
    identifier?: string;
    timestamp?: string;
    contains?: { system?: string; code?: string; display?: string; version?: string }[];
  };
}

function readValueSets(valueSetDir: string, names: [string, string][]): ArtifactValueSet[] {
  const files = readdirSync(valueSetDir).filter((file) => file.endsWith('.json') && statSync(join(valueSetDir, file)).isFile());
  if (files.length === 0) fail(`no ValueSet files in ${valueSetDir}`);
  const sets = files.map((file) => toArtifactValueSet(file, JSON.parse(readFileSync(join(valueSetDir, file), 'utf8')) as FhirValueSet, names));
  sets.sort((a, b) => byCodeUnit(a.oid, b.oid));
  for (let i = 1; i < sets.length; i++) if (sets[i].oid === sets[i - 1].oid) fail(`two files hold value set ${sets[i].oid}`);
  return sets;
}

function toArtifactValueSet(file: string, resource: FhirValueSet, names: [string, string][]): ArtifactValueSet {
  const where = `valuesets/${file}`;
  if (resource.resourceType !== 'ValueSet') fail(`${where} is not a FHIR ValueSet`);
  const oid = resource.id ?? fail(`${where} has no id`);
  if (resource.url !== VSAC_URL + oid) fail(`${where}: url ${resource.url} does not end in its id ${oid}`);
  const expansion = resource.expansion ?? fail(`${where} has no expansion (only expanded value sets can be used)`);
  const codes = new Map<string, Map<string, string>>();
  const versions = new Map<string, Set<string>>();
  for (const entry of expansion.contains ?? []) {
    const system = entry.system || fail(`${where}: an expansion entry has no system`);
    const code = entry.code || fail(`${where}: an entry of ${system} has no code`);
    const display = entry.display ?? '';
    const inSystem = codes.get(system) ?? codes.set(system, new Map()).get(system)!;
    const seen = inSystem.get(code);
    // Repeated identical entries occur (Acute Inpatient lists each code five times) and are dropped;
    // a code with two displays would make the choice arbitrary, so it stops the build instead.
    if (seen !== undefined && seen !== display) fail(`${where}: ${system}|${code} appears with two displays`);
    inSystem.set(code, display);
    if (entry.version) (versions.get(system) ?? versions.set(system, new Set()).get(system)!).add(entry.version);
  }
  if (codes.size === 0) fail(`${where}: the expansion is empty`);
  const sortedRecord = <T, U>(map: Map<string, T>, value: (item: T) => U): Record<string, U> =>
    Object.fromEntries([...map.keys()].sort(byCodeUnit).map((key) => [key, value(map.get(key)!)]));
  return {
    oid,
    name: resource.name ?? fail(`${where} has no name`),
    title: resource.title ?? resource.name!,
    version: resource.version ?? fail(`${where} has no version`),
    cqlNames: names.filter(([, named]) => named === oid).map(([name]) => name),
    expansion: {
      identifier: expansion.identifier ?? '',
      timestamp: expansion.timestamp ?? fail(`${where}: the expansion has no timestamp`),
    },
    codeSystemVersions: sortedRecord(versions, (set) => [...set].sort(byCodeUnit)),
    codes: sortedRecord(codes, (inSystem) =>
      [...inSystem.keys()].sort(byCodeUnit).map((code): ArtifactCode => [code, inSystem.get(code)!]),
    ),
  };
}

/** The provenance block, read from the snapshot README so it cannot claim a commit it was not taken at. */
function readSourceBlock(readme: string, valueSets: ArtifactValueSet[]): TerminologySource {
  const found = (pattern: RegExp, what: string) => pattern.exec(readme)?.[1] ?? fail(`README.md does not state the ${what}`);
  const timestamps = valueSets.map((set) => set.expansion.timestamp).sort((a, b) => Date.parse(a) - Date.parse(b) || byCodeUnit(a, b));
  return {
    repository: found(/Repository `([\w.-]+\/[\w.-]+)`/, 'source repository'),
    commit: found(/`([0-9a-f]{40})`/, 'source commit'),
    date: found(/`[0-9a-f]{40}`\s*\((\d{4}-\d{2}-\d{2})\)/, 'source commit date'),
    licence: found(/Licence:\s*([^*\n]+?)\s*\*\*/, 'licence'),
    upstreamPath: UPSTREAM_PATH,
    valueSetCount: valueSets.length,
    codeCount: valueSets.reduce((sum, set) => sum + Object.values(set.codes).reduce((n, codes) => n + codes.length, 0), 0),
    expansionIdentifiers: [...new Set(valueSets.map((set) => set.expansion.identifier))].sort(byCodeUnit),
    expansionTimestamps: { earliest: timestamps[0], latest: timestamps[timestamps.length - 1] },
  };
}

/**
 * The artifact as committed: one line per code, so a new expansion shows in review as the codes it
 * adds or drops, and no indentation, which keeps ~10 000 codes under a megabyte.
 */
export function serializeArtifact(artifact: TerminologyArtifact): string {
  const j = (value: unknown) => JSON.stringify(value);
  const sets = artifact.valueSets.map((set) => {
    const { codes, ...header } = set;
    const systems = Object.entries(codes).map(([system, list]) => `${j(system)}:[\n${list.map(j).join(',\n')}\n]`);
    return `${j(header).slice(0, -1)},"codes":{\n${systems.join(',\n')}\n}}`;
  });
  const text = `{"format":${j(artifact.format)},\n"source":${j(artifact.source)},\n"valueSets":[\n${sets.join(',\n')}\n]}\n`;
  // The hand-written layout must still be exactly the data: a slip here would ship a different artifact.
  if (j(JSON.parse(text)) !== j(artifact)) throw new Error('serializeArtifact: the written JSON does not round-trip');
  return text;
}

/** `value-set-names.ts`: the CQL names as typed constants, so a misspelt name fails to compile. */
export function renderValueSetNames(generated: GeneratedTerminology): string {
  const { source } = generated.artifact;
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return [
    '// GENERATED by `npm run terminology:build` (src/terminology/build/build-terminology.ts). Do not edit.',
    `// Source: ${source.repository} at ${source.commit} (${source.date}), cql/*.cql.`,
    '',
    '/** Every value set the measure CQL declares, by its CQL name (exactly as written there), to its OID. */',
    'export const VS = {',
    ...generated.names.map(([name, oid]) => `  ${quote(name)}: ${quote(oid)},`),
    '} as const;',
    '',
    'export type ValueSetName = keyof typeof VS;',
    'export type ValueSetOid = (typeof VS)[ValueSetName];',
    '',
  ].join('\n');
}

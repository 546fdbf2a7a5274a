import artifactJson from './vsac-expansions.json';
import { ArtifactValueSet, TerminologyArtifact, TerminologySource } from './terminology.types';

/**
 * Value set membership for every measure, exclusion and missing-data rule, read from the official
 * VSAC expansions the eCQM CQL names (`vsac-expansions.json`, generated; see README.md).
 *
 * Membership is what a CQL engine does with an expanded value set (cql-execution's `codesMatch`):
 * the code system URI and the code must both be equal, character for character. No dot stripping,
 * no case folding, no prefix or subsumption matching; the code system version is ignored. A chart
 * code that only *nearly* matches is a data-quality finding (`nearMiss`), never a member.
 */

/** Anything coded: a condition, observation, procedure or medication row, or a mapped value. */
export interface CodedValue {
  codeSystem: string | null;
  code: string | null;
}

export interface ValueSetInfo {
  oid: string;
  /** The ValueSet resource's computable name (e.g. `EssentialHypertension`). */
  name: string;
  /** Its human title; for two sets it differs from the CQL name (see `cqlNames`). */
  title: string;
  /** The value set version that was expanded. */
  version: string;
  /** The names the measure CQL declares it under (the keys of `VS`). */
  cqlNames: readonly string[];
  expansion: { readonly identifier: string; readonly timestamp: string };
  /** Distinct (system, code) pairs. */
  codeCount: number;
  /** Code system URIs the set holds codes in, sorted. */
  codeSystems: readonly string[];
}

export interface ValueSetCode {
  code: string;
  display: string;
}

/** Thrown for an OID that is not in the artifact: a programming error, not a non-member. */
export class UnknownValueSetError extends Error {
  constructor(readonly oid: string) {
    super(
      `Unknown value set OID ${JSON.stringify(oid)}` +
        (oid.includes('/') ? ' (pass the bare OID, e.g. VS[name], not the ValueSet URL)' : '') +
        ': it is not among the eCQM expansions in src/terminology/vsac-expansions.json',
    );
    this.name = 'UnknownValueSetError';
  }
}

/** system URI → (code → display). One Map lookup per system keeps the hot path allocation-free. */
type Members = ReadonlyMap<string, ReadonlyMap<string, string>>;

interface Indexed {
  info: ValueSetInfo;
  members: Members;
}

const ARTIFACT = artifactJson as unknown as TerminologyArtifact;

function index(set: ArtifactValueSet): Indexed {
  const members = new Map<string, Map<string, string>>();
  let codeCount = 0;
  for (const [system, codes] of Object.entries(set.codes)) {
    members.set(system, new Map(codes));
    codeCount += codes.length;
  }
  const info: ValueSetInfo = Object.freeze({
    oid: set.oid,
    name: set.name,
    title: set.title,
    version: set.version,
    cqlNames: Object.freeze([...set.cqlNames]),
    expansion: Object.freeze({ ...set.expansion }),
    codeCount,
    codeSystems: Object.freeze([...members.keys()]),
  });
  return { info, members };
}

/** Built once at module load (~9 000 codes, a few milliseconds). */
const BY_OID: ReadonlyMap<string, Indexed> = new Map(ARTIFACT.valueSets.map((set) => [set.oid, index(set)]));
const ALL_INFO: readonly ValueSetInfo[] = Object.freeze([...BY_OID.values()].map((set) => set.info));

export const TERMINOLOGY_SOURCE: Readonly<TerminologySource> = Object.freeze({
  ...ARTIFACT.source,
  expansionIdentifiers: Object.freeze([...ARTIFACT.source.expansionIdentifiers]),
  expansionTimestamps: Object.freeze({ ...ARTIFACT.source.expansionTimestamps }),
});

function lookup(oid: string): Indexed {
  const set = BY_OID.get(oid);
  if (set === undefined) throw new UnknownValueSetError(oid);
  return set;
}

/**
 * A value set Vigil defines itself, for checks no VSAC set covers (vital signs, a lipid panel…).
 * Same exact system+code membership as the VSAC sets, through the same `inValueSet`.
 */
export class LocalValueSet {
  /** @internal */
  readonly members: Members;

  constructor(
    readonly id: string,
    readonly title: string,
    codes: Readonly<Record<string, readonly string[]>>,
    /** Why the set exists, or how it differs from the nearest VSAC set. */
    readonly note?: string,
  ) {
    this.members = new Map(Object.entries(codes).map(([system, list]) => [system, new Map(list.map((code) => [code, '']))]));
    Object.freeze(this);
  }
}

/** A value set argument: a VSAC OID (use `VS['Name']`) or a `LocalValueSet`. */
export type ValueSetRef = string | LocalValueSet;

const membersOf = (set: ValueSetRef): Members => (typeof set === 'string' ? lookup(set).members : set.members);

/**
 * Whether a coded value is in a value set: exact system URI and exact code. Null or missing parts
 * are not members. An OID not in the artifact throws `UnknownValueSetError`, whatever the value.
 */
export function inValueSet(coded: CodedValue | null | undefined, valueSet: ValueSetRef): boolean {
  const members = membersOf(valueSet);
  if (coded === null || coded === undefined) return false;
  const { codeSystem, code } = coded;
  if (codeSystem === null || code === null) return false;
  return members.get(codeSystem)?.has(code) === true;
}

/** Whether a coded value is in any of the sets (every OID is checked, so a typo throws even after a match). */
export function inAnyValueSet(coded: CodedValue | null | undefined, ...valueSets: ValueSetRef[]): boolean {
  for (const set of valueSets) membersOf(set);
  for (const set of valueSets) if (inValueSet(coded, set)) return true;
  return false;
}

/**
 * Every code of the sets, whatever its system, sorted and without repeats: a read filter for the
 * rows a rule over these sets can match (a superset: the rule still checks the system).
 */
export function codesOf(...valueSets: ValueSetRef[]): string[] {
  const codes = new Set(valueSets.flatMap((set) => [...membersOf(set).values()].flatMap((inSystem) => [...inSystem.keys()])));
  return [...codes].sort();
}

export function valueSetInfo(oid: string): ValueSetInfo {
  return lookup(oid).info;
}

/** Every value set of the artifact, sorted by OID. */
export function allValueSets(): readonly ValueSetInfo[] {
  return ALL_INFO;
}

/** The set's codes in one code system, sorted by code (empty when the set has none in that system). */
export function codesInSystem(oid: string, system: string): readonly ValueSetCode[] {
  const inSystem = lookup(oid).members.get(system);
  return inSystem ? [...inSystem].map(([code, display]) => ({ code, display })) : [];
}

export type NearMissKind =
  /** The same code string is in the set under another system URI (a mislabelled or non-canonical system). */
  | 'other-system'
  /** Same system, and the code matches once dots, spaces and case are ignored (`E119` for `E11.9`). */
  | 'code-format'
  /** An ICD-10-CM category or subcategory whose more specific codes are in the set (`E11` for `E11.9`). */
  | 'less-specific';

export interface NearMiss {
  kind: NearMissKind;
  /** The set's members the value resembles (at most five, sorted). */
  members: readonly { system: string; code: string; display: string }[];
}

const ICD10_CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const loose = (code: string) => code.replace(/[\s.]/g, '').toUpperCase();

/**
 * For data-quality notes only: why a value that is *not* a member looks as if it was meant to be.
 * Returns null for members and for values with no resemblance. Not for the hot path (it scans).
 */
export function nearMiss(coded: CodedValue | null | undefined, oid: string): NearMiss | null {
  const { members } = lookup(oid);
  if (!coded?.codeSystem || !coded.code || inValueSet(coded, oid)) return null;
  const { codeSystem, code } = coded;
  const found = (kind: NearMissKind, hits: { system: string; code: string; display: string }[]): NearMiss | null =>
    hits.length === 0 ? null : { kind, members: hits.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)).slice(0, 5) };
  const all = (filter: (system: string, member: string) => boolean) =>
    [...members].flatMap(([system, codes]) =>
      [...codes].filter(([member]) => filter(system, member)).map(([member, display]) => ({ system, code: member, display })),
    );
  return (
    found('other-system', all((system, member) => system !== codeSystem && member === code)) ??
    found('code-format', all((system, member) => system === codeSystem && loose(member) === loose(code))) ??
    (codeSystem === ICD10_CM
      ? found('less-specific', all((system, member) => system === ICD10_CM && loose(member).startsWith(loose(code))))
      : null)
  );
}

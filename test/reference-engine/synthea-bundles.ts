import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SYNTHEA_80_NDJSON } from '../setup/synthea-80';
import { Bundle, Reference, Resource } from './fhir';
import { MEASURE_KEYS, MeasureKey } from './measure-bundles';
import { STRICT_BP_PANEL_CODES } from './profiles';
import { GroupPopulations, MeasurementPeriod, ReferenceEnginePool, ReferenceStats, referenceEngine } from './reference-engine';

/**
 * The 80 Synthea patients of ../shared/external-data/synthea-r4-smart-80 as one FHIR Bundle per
 * patient, for the reference engine. Their data ends on 2021-03-28, hence the period.
 */
export const SYNTHEA_PERIOD: MeasurementPeriod = { start: '2020-04-01', end: '2021-03-31' };

/**
 * Synthea 2.4 codes its blood-pressure panels 55284-4, not the 85354-9 that the FHIR `bp` profile
 * requires; without this, CMS165 would find no blood pressure at all in this data. The only
 * deviation from strict QI-Core tagging that the Synthea run makes.
 */
export const SYNTHEA_BP_PANEL_CODES = [...STRICT_BP_PANEL_CODES, '55284-4'] as const;

export function syntheaAvailable(): boolean {
  return existsSync(SYNTHEA_80_NDJSON);
}

function readNdjson(folder: string): Resource[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ndjson'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(folder, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Resource),
    );
}

/**
 * One Bundle (type `collection`) per patient, in Patient.ndjson order: the Patient and every
 * resource whose `subject`/`patient` points at it. References are `urn:uuid:<id>` in the source
 * (the ids of a transaction Bundle); they become `<Type>/<id>` where the target is in the data,
 * as a FHIR server that stored the transaction would answer them (the measures resolve e.g. an
 * Observation's encounter by `reference.getId()`, the text after the last '/'). References to
 * the Practitioners and Organizations that were not kept stay as they are. Reads the NDJSON in ../shared.
 */
export function syntheaPatientBundles(): Bundle[] {
  const resources = readNdjson(SYNTHEA_80_NDJSON);
  const typeOf = new Map(resources.map((resource) => [resource.id, resource.resourceType]));
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (key === 'reference' && typeof field === 'string' && field.startsWith('urn:uuid:')) {
        const id = field.slice('urn:uuid:'.length);
        out[key] = typeOf.has(id) ? `${typeOf.get(id)}/${id}` : field;
      } else out[key] = rewrite(field);
    }
    return out;
  };
  const byPatient = new Map<string, Resource[]>();
  for (const resource of resources) {
    if (resource.resourceType === 'Patient') byPatient.set(resource.id!, [resource, ...(byPatient.get(resource.id!) ?? [])]);
  }
  for (const resource of resources) {
    if (resource.resourceType === 'Patient') continue;
    const owner = (resource as { subject?: Reference; patient?: Reference }).subject ?? (resource as { patient?: Reference }).patient;
    const id = owner?.reference?.replace(/^urn:uuid:|^Patient\//, '');
    const list = id ? byPatient.get(id) : undefined;
    if (!list) throw new Error(`${resource.resourceType}/${resource.id} belongs to no patient of the set`);
    list.push(resource);
  }
  return [...byPatient.values()].map((list) => ({
    resourceType: 'Bundle',
    type: 'collection',
    entry: list.map((resource) => ({ resource: rewrite(resource) as Resource })),
  }));
}

export interface SyntheaReference {
  period: MeasurementPeriod;
  /** Per measure: populations per Patient.id, groups in the Measure's order. */
  populations: Map<MeasureKey, Map<string, GroupPopulations[]>>;
  /** Per measure: every define of the main library per Patient.id, in brief (pruned to the retrieves, as the populations). */
  statements: Map<MeasureKey, Map<string, Record<string, unknown>>>;
  stats: ReferenceStats[];
}

/**
 * The reference engine's populations and define values for the 80 Synthea patients, every
 * measure, over {@link SYNTHEA_PERIOD}: one live run for the comparison test and the pruning check.
 */
export async function syntheaReferencePopulations(pool: ReferenceEnginePool = referenceEngine(), measures: readonly MeasureKey[] = MEASURE_KEYS): Promise<SyntheaReference> {
  const bundles = syntheaPatientBundles();
  const populations = new Map<MeasureKey, Map<string, GroupPopulations[]>>();
  const statements = new Map<MeasureKey, Map<string, Record<string, unknown>>>();
  const stats: ReferenceStats[] = [];
  for (const key of measures) {
    const run = await pool.run(key, bundles, SYNTHEA_PERIOD, { bpPanelCodes: SYNTHEA_BP_PANEL_CODES, statements: true });
    populations.set(key, run.populations);
    statements.set(key, run.statements!);
    stats.push(run.stats);
  }
  return { period: SYNTHEA_PERIOD, populations, statements, stats };
}

const COLUMNS: [keyof Omit<GroupPopulations, 'groupId'>, string][] = [
  ['initialPopulation', 'IP'],
  ['denominator', 'DENOM'],
  ['denominatorExclusion', 'DENEX'],
  ['denominatorException', 'DENEXCEP'],
  ['numerator', 'NUMER'],
];

/** Patients counted in each population, per measure and group: counts only, no patient data. */
export function populationCounts(populations: Map<MeasureKey, Map<string, GroupPopulations[]>>): { measure: MeasureKey; group: number; counts: Record<string, number> }[] {
  const rows: { measure: MeasureKey; group: number; counts: Record<string, number> }[] = [];
  for (const [measure, byPatient] of populations) {
    const groups = Math.max(0, ...[...byPatient.values()].map((list) => list.length));
    for (let group = 0; group < groups; group++) {
      const counts: Record<string, number> = { patients: byPatient.size };
      for (const [field, label] of COLUMNS) counts[label] = [...byPatient.values()].filter((list) => list[group]?.[field]).length;
      rows.push({ measure, group: group + 1, counts });
    }
  }
  return rows;
}

/** {@link populationCounts} as a fixed-width text table. */
export function formatCountTable(rows: ReturnType<typeof populationCounts>): string {
  const header = ['measure', 'group', 'patients', ...COLUMNS.map(([, label]) => label)];
  const lines = rows.map((row) => [row.measure, String(row.group), String(row.counts.patients), ...COLUMNS.map(([, label]) => String(row.counts[label]))]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  return [header, ...lines].map((line) => line.map((cell, i) => cell.padStart(widths[i])).join('  ')).join('\n');
}

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { rowId } from '../../src/fhir-import/references';
import type { TestApp } from '../setup/app';
import { Bundle, Reference, Resource } from './fhir';
import { MEASURE_KEYS, MeasureKey } from './measure-bundles';
import { GroupPopulations, MeasurementPeriod } from './reference-engine';

/**
 * The Vigil side of the differential tests: `care_gap_lookup` over HTTP (the route the tool is),
 * for every patient and every measure, as populations per group in the Measure's group order, in
 * the same shape as the reference engine's; and the comparison of the two.
 */

export type Populations = Map<MeasureKey, Map<string, GroupPopulations[]>>;

/** The NDJSON files of a folder as one Bundle (type `collection`) per Patient, in Patient.ndjson order. */
export function ndjsonPatientBundles(folder: string): Bundle[] {
  const byPatient = new Map<string, Resource[]>();
  const others: Resource[] = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.ndjson')).sort()) {
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const resource = JSON.parse(line) as Resource;
      if (resource.resourceType === 'Patient') byPatient.set(resource.id!, [resource, ...(byPatient.get(resource.id!) ?? [])]);
      else others.push(resource);
    }
  }
  for (const resource of others) {
    const owner = ((resource as { subject?: Reference }).subject ?? (resource as { patient?: Reference }).patient)?.reference?.replace(/^Patient\//, '');
    const list = owner === undefined ? undefined : byPatient.get(owner);
    if (!list) throw new Error(`${resource.resourceType}/${resource.id} belongs to no patient of the set`);
    list.push(resource);
  }
  return [...byPatient.values()].map((list) => ({ resourceType: 'Bundle', type: 'collection', entry: list.map((resource) => ({ resource })) }));
}

interface CareGapRow {
  measureId: MeasureKey;
  groups: { id: string; populations: Omit<GroupPopulations, 'groupId'> }[];
}

/**
 * Vigil's populations for each patient (by the source's Patient.id, imported without `--source`, so
 * its row id is `rowId('Patient/<id>')`), every measure in one request per patient, `concurrency`
 * requests in flight over one keep-alive listener.
 */
export async function vigilPopulations(sut: TestApp, token: string, patientIds: readonly string[], period: MeasurementPeriod, concurrency = 4): Promise<Populations> {
  const server = await sut.app.listen(0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  const populations: Populations = new Map(MEASURE_KEYS.map((key) => [key, new Map()]));
  let next = 0;
  const worker = async () => {
    while (next < patientIds.length) {
      const id = patientIds[next++];
      const url = `http://127.0.0.1:${port}/patients/${rowId(`Patient/${id}`)}/care-gaps?periodStart=${period.start}&periodEnd=${period.end}`;
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { rows?: CareGapRow[] };
      if (response.status !== 200 || !body.rows) throw new Error(`care-gaps answered HTTP ${response.status} for patient #${patientIds.indexOf(id)}`);
      for (const row of body.rows) {
        populations.get(row.measureId)?.set(id, row.groups.map((group) => ({ groupId: group.id, ...pick(group.populations) })));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // Back in the patients' order, as the engine gives them.
  return new Map([...populations].map(([key, byPatient]) => [key, new Map(patientIds.map((id) => [id, byPatient.get(id)!]))]));
}

const pick = (p: Omit<GroupPopulations, 'groupId'>) => ({
  initialPopulation: p.initialPopulation,
  denominator: p.denominator,
  denominatorExclusion: p.denominatorExclusion,
  denominatorException: p.denominatorException,
  numerator: p.numerator,
});

export const POPULATIONS = ['initialPopulation', 'denominator', 'denominatorExclusion', 'denominatorException', 'numerator'] as const;
export type PopulationName = (typeof POPULATIONS)[number];

/** One class of disagreement: the same measure, group, population and the two answers. */
export interface DisagreementClass {
  measure: MeasureKey;
  /** 1-based population group. */
  group: number;
  population: PopulationName;
  vigil: boolean;
  engine: boolean;
  /** How many patients. */
  patients: number;
}

/** Every population value on which Vigil and the engine differ, grouped into classes (counts only). */
export function disagreementClasses(vigil: Populations, engine: Populations): { classes: DisagreementClass[]; patients: Map<string, string[]> } {
  const classes = new Map<string, DisagreementClass>();
  const patients = new Map<string, string[]>();
  for (const [measure, byPatient] of engine) {
    for (const [id, groups] of byPatient) {
      const ours = vigil.get(measure)?.get(id);
      if (!ours || ours.length !== groups.length) throw new Error(`${measure}: Vigil gave ${ours?.length ?? 'no'} groups for a patient, the engine ${groups.length}`);
      groups.forEach((group, index) => {
        for (const population of POPULATIONS) {
          if (ours[index][population] === group[population]) continue;
          const key = `${measure} g${index + 1} ${population} vigil=${ours[index][population]}`;
          const found = classes.get(key) ?? { measure, group: index + 1, population, vigil: ours[index][population], engine: group[population], patients: 0 };
          found.patients += 1;
          classes.set(key, found);
          patients.set(key, [...(patients.get(key) ?? []), id]);
        }
      });
    }
  }
  // A fixed order (measure, group, population), whichever patient disagreed first.
  const rank = (c: DisagreementClass) => [MEASURE_KEYS.indexOf(c.measure), c.group, POPULATIONS.indexOf(c.population), Number(c.vigil)];
  const order = (a: DisagreementClass, b: DisagreementClass) => rank(a).map((value, i) => value - rank(b)[i]).find((difference) => difference !== 0) ?? 0;
  return { classes: [...classes.values()].sort(order), patients };
}

const endOf = (resource: Resource): string | undefined => {
  const period = (resource.period ?? resource.effectivePeriod) as { start?: string; end?: string } | undefined;
  return period?.end ?? period?.start ?? (resource.effectiveDateTime as string | undefined);
};

/**
 * Copies the NDJSON of `from` to `to` without the visits and vital signs that ended before `since`
 * (an Encounter any kept resource still references stays). Labs, conditions, medications,
 * procedures and allergies keep their whole history: the measures look back years for those
 * (LDL ≥ 190 at any time, colonoscopy in 10 years, a condition's onset). Visits and vital signs
 * count only in the measurement period or the year before it, and they are what makes the engine
 * slow: CMS165 looks up every blood pressure's encounter among all encounters
 * (`getEncounter`: a retrieve per reading), so its cost grows with readings × visits.
 */
export function trimVisitHistory(from: string, to: string, since: string): void {
  const read = (type: string) =>
    readFileSync(join(from, `${type}.ndjson`), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Resource);
  const old = (resource: Resource) => (endOf(resource) ?? '9999') < since;
  const files = readdirSync(from).filter((name) => name.endsWith('.ndjson'));
  const kept = new Map<string, Resource[]>();
  for (const file of files) {
    const type = file.replace(/\.ndjson$/, '');
    if (type === 'Encounter') continue;
    const resources = read(type);
    const vital = (resource: Resource) => JSON.stringify(resource.category ?? '').includes('"vital-signs"');
    kept.set(type, type === 'Observation' ? resources.filter((resource) => !(vital(resource) && old(resource))) : resources);
  }
  const referenced = new Set([...kept.values()].flat().map((resource) => (resource.encounter as Reference | undefined)?.reference).filter(Boolean));
  kept.set('Encounter', read('Encounter').filter((resource) => !old(resource) || referenced.has(`Encounter/${resource.id}`)));
  mkdirSync(to, { recursive: true });
  for (const [type, resources] of kept) writeFileSync(join(to, `${type}.ndjson`), resources.map((resource) => `${JSON.stringify(resource)}\n`).join(''));
}

import request from 'supertest';
import type { Server } from 'node:http';
import { MEASURE_IDS, POPULATION_CODE, POPULATIONS } from '../../src/clinical/care-gaps';
import { MEASURE_CANON } from '../../src/deqm/measure-canon';

/** FHIR JSON as the tests walk it: any shape, read by path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The DEQM `$care-gaps` URL for one subject and period, every status Vigil answers unless said. */
export function careGapsUrl(subject: string, period: { start: string; end: string }, extra = ''): string {
  return `/fhir/Measure/$care-gaps?subject=${subject}&periodStart=${period.start}&periodEnd=${period.end}&status=open-gap&status=closed-gap${extra}`;
}

/** What a gaps-in-care Bundle says per measure: its gap status (DetectedIssue) and each group's populations (MeasureReport). */
export function measuresIn(bundle: Json): Map<string, { status: string; groups: Record<string, boolean>[] }> {
  const resources = new Map<string, Json>((bundle.entry as Json[]).map((entry) => [entry.fullUrl as string, entry.resource as Json]));
  const composition = (bundle.entry as Json[])[0].resource as Json;
  const out = new Map<string, { status: string; groups: Record<string, boolean>[] }>();
  for (const section of composition.section as Json[]) {
    const report = resources.get(section.focus.reference)!;
    const issue = resources.get(section.entry[0].reference)!;
    const measureId = MEASURE_IDS.find((id) => report.measure === `${MEASURE_CANON[id].url}|${MEASURE_CANON[id].version}`) ?? `unknown ${report.measure}`;
    const status = issue.modifierExtension[0].valueCodeableConcept.coding[0].code as string;
    const groups = (report.group as Json[]).map((group) =>
      Object.fromEntries(
        (group.population as Json[]).map((population) => [population.code.coding[0].code as string, population.count === 1]),
      ),
    );
    out.set(measureId, { status, groups });
  }
  return out;
}

const CODE = POPULATION_CODE;

/**
 * Where `$care-gaps` and `care_gap_lookup` disagree for one patient: every measure the lookup
 * reports open or closed must be in the document with that status and the same populations in
 * every group; every measure that does not apply must be absent (it is no gap, open or closed).
 */
export function disagreements(label: string, lookupRows: Json[], bundle: Json | undefined): string[] {
  const reported = bundle ? measuresIn(bundle) : new Map();
  const found: string[] = [];
  for (const row of lookupRows) {
    const got = reported.get(row.measureId);
    if (row.status === 'not-applicable') {
      if (got) found.push(`${label} ${row.measureId}: not applicable, but reported as ${got.status}`);
      continue;
    }
    if (!got) {
      found.push(`${label} ${row.measureId}: ${row.status} in care_gap_lookup, absent from $care-gaps`);
      continue;
    }
    if (got.status !== row.status) found.push(`${label} ${row.measureId}: ${row.status} in care_gap_lookup, ${got.status} in $care-gaps`);
    (row.groups as Json[]).forEach((group, index) => {
      for (const name of POPULATIONS) {
        const code = CODE[name];
        if (code in got.groups[index] ? got.groups[index][code] !== group.populations[name] : group.populations[name]) {
          found.push(`${label} ${row.measureId} group ${index + 1}: ${code} ${group.populations[name]} in care_gap_lookup`);
        }
      }
    });
  }
  for (const measureId of reported.keys()) if (!lookupRows.some((row) => row.measureId === measureId)) found.push(`${label} ${measureId}: reported but not asked for`);
  return found;
}

/** Both answers for one patient and period, as `token`'s holder. */
export async function bothAnswers(server: Server, token: string, patientId: string, period: { start: string; end: string }, measure?: string) {
  const auth = { authorization: `Bearer ${token}` };
  const lookup = await request(server).get(`/patients/${patientId}/care-gaps?periodStart=${period.start}&periodEnd=${period.end}${measure ? `&measure=${measure}` : ''}`).set(auth);
  const deqm = await request(server).get(careGapsUrl(`Patient/${patientId}`, period, measure ? `&measureId=${measure}` : '')).set(auth);
  return { lookup, deqm };
}

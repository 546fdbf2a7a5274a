import { randomUUID } from 'node:crypto';
import { MeasureId, POPULATION_CODE, POPULATIONS, PopulationName } from '../clinical/care-gaps';
import { citationFormOf } from '../clinical/citation-grammar';
import type { CareGapReport } from '../tools/tool-read.service';
import { DEQM, FhirResource, GAP_STATUS_SYSTEM } from './fhir-profiles';
import { conditionResource, encounterResource, observationResource, patientResource, REPORTER_ID, reporterResource, unknownElement, urn } from './fhir-records';
import { MEASURE_CANON, PopulationCode, ReportedMeasure } from './measure-canon';

/** The gap statuses a DEQM caller may ask for and Vigil computes (a prospective gap it does not). */
export const GAP_STATUSES = ['open-gap', 'closed-gap'] as const;
export type GapStatus = (typeof GAP_STATUSES)[number];

/** The one care_gap_lookup row shape this module reads (a projected row; a field may be absent). */
interface GapRow {
  citation: string;
  /** A built-in measure's id, or a loaded measure's key. */
  measureId: string;
  title?: string;
  periodStart: string;
  periodEnd: string;
  status: string;
  reason?: string;
  toClose?: string;
  evidence?: string[];
  groups: { populations: Record<PopulationName, boolean>; evidence?: Record<PopulationName, string[]> }[];
}

/** Citations of kinds that are not resources here: named by their Vigil citation, resolvable through Vigil's tools. */
export const CITATION_SYSTEM = 'urn:vigil:citation';
const RESOURCE_TYPE: Record<string, string> = {
  obs: 'Observation', enc: 'Encounter', cond: 'Condition', med: 'MedicationRequest', proc: 'Procedure', note: 'DocumentReference',
  allergy: 'AllergyIntolerance', req: 'ServiceRequest', ae: 'AdverseEvent', pat: 'Patient',
};

export interface DocumentOptions {
  statuses: readonly GapStatus[];
  /** The instant the answer is made (`Bundle.timestamp`, `MeasureReport.date`, `Composition.date`). */
  now: string;
  newId?: () => string;
  /** How a MeasureReport names a measure that is not built in (a loaded measure, by its row's key and period). */
  loadedMeasure?: (row: { measureId: string; periodStart: string; periodEnd: string }) => ReportedMeasure;
}

/**
 * One patient's DEQM gaps-in-care document: the Composition, then per reported measure its
 * individual MeasureReport and a DetectedIssue carrying the gap status, then the patient, the
 * reporter and every cited record the read path gives as a resource (observations, encounters,
 * conditions). A measure is reported when its status is one asked for; one that does not apply to
 * the patient is never a gap, open or closed. Null when no measure is reported (a document needs a
 * section).
 */
export function gapsDocument(report: CareGapReport, options: DocumentOptions): { bundle: FhirResource; measures: string[] } | null {
  const newId = options.newId ?? randomUUID;
  const rows = (report.envelope.rows as unknown as GapRow[]).filter((row) => (options.statuses as readonly string[]).includes(row.status));
  if (rows.length === 0) return null;
  const patient = patientResource(report.envelope.patient);
  const patientRef = urn(String(patient.id));
  const reporterRef = urn(REPORTER_ID);
  const records = new Map<string, FhirResource>();
  for (const row of report.evidence.observations) records.set(String(row.citation), observationResource(row, patientRef));
  for (const row of report.evidence.encounters) records.set(String(row.citation), encounterResource(row, patientRef));
  for (const row of report.evidence.conditions) records.set(String(row.citation), conditionResource(row, patientRef));
  records.set(`pat:${patient.id}`, patient);

  const sections: Record<string, unknown>[] = [];
  const reported: FhirResource[] = [];
  const cited = new Set<FhirResource>([patient]);
  for (const row of rows) {
    const measure = reportedMeasure(row, options);
    const measureReport = measureReportOf(row, measure, { id: newId(), patientRef, reporterRef, now: options.now, records, cited });
    const issue = detectedIssueOf(row, { id: newId(), patientRef, measureReportRef: urn(String(measureReport.id)), now: options.now });
    reported.push(measureReport, issue);
    sections.push({
      title: `${row.measureId}${row.title ? ` ${row.title}` : ''}`,
      focus: { reference: urn(String(measureReport.id)) },
      entry: [{ reference: urn(String(issue.id)) }],
    });
  }
  const composition: FhirResource = {
    resourceType: 'Composition',
    id: newId(),
    meta: { profile: [DEQM.composition] },
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '96315-7', display: 'Gaps in care report' }] },
    subject: { reference: patientRef },
    date: options.now,
    author: [{ reference: reporterRef }],
    title: 'Gaps in care report',
    custodian: { reference: reporterRef },
    section: sections,
  };
  const resources = [composition, ...reported, ...cited, reporterResource()];
  const bundle: FhirResource = {
    resourceType: 'Bundle',
    id: newId(),
    meta: { profile: [DEQM.bundle] },
    identifier: { system: 'urn:ietf:rfc:3986', value: urn(newId()) },
    type: 'document',
    timestamp: options.now,
    entry: resources.map((resource) => ({ fullUrl: urn(String(resource.id)), resource })),
  };
  return { bundle, measures: rows.map((row) => row.measureId) };
}

/** The built-in catalogue's canon of a built-in measure, else what the caller says of a loaded one. */
function reportedMeasure(row: GapRow, options: DocumentOptions): ReportedMeasure {
  const builtIn = MEASURE_CANON[row.measureId as MeasureId];
  if (builtIn) return builtIn;
  if (!options.loadedMeasure) throw new Error('a loaded measure reported without its canon');
  return options.loadedMeasure(row);
}

function measureReportOf(
  row: GapRow,
  canon: ReportedMeasure,
  context: { id: string; patientRef: string; reporterRef: string; now: string; records: Map<string, FhirResource>; cited: Set<FhirResource> },
): FhirResource {
  // Which populations each cited row put the patient in (or was read for), as DEQM's populationReference says.
  const populationsOf = new Map<string, Set<PopulationCode>>();
  row.groups.forEach((group) => {
    for (const name of POPULATIONS) for (const id of group.evidence?.[name] ?? []) populationsOf.set(id, (populationsOf.get(id) ?? new Set()).add(POPULATION_CODE[name]));
  });
  for (const id of row.evidence ?? []) if (!populationsOf.has(id)) populationsOf.set(id, new Set());
  const evaluatedResource = [...populationsOf].map(([id, populations]) => {
    const extension = [...populations].map((code) => ({ url: DEQM.populationReference, valueString: code }));
    const record = context.records.get(id);
    if (record) context.cited.add(record);
    const kind = citationFormOf(id)?.kind ?? '';
    const reference = record ? { reference: urn(String(record.id)) } : { type: RESOURCE_TYPE[kind], identifier: { system: CITATION_SYSTEM, value: id } };
    return { ...(extension.length ? { extension } : {}), ...reference };
  });
  return {
    resourceType: 'MeasureReport',
    id: context.id,
    meta: { profile: [DEQM.measureReport] },
    extension: [{ url: DEQM.measureScoring, valueCodeableConcept: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-scoring', code: 'proportion' }] } }],
    status: 'complete',
    type: 'individual',
    measure: `${canon.url}|${canon.version}`,
    subject: { reference: context.patientRef },
    date: context.now,
    reporter: { reference: context.reporterRef },
    period: { start: row.periodStart, end: row.periodEnd },
    improvementNotation: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-improvement-notation', code: canon.improvementNotation }] },
    group: row.groups.map((group, index) => ({
      id: canon.groupIds[index],
      population: POPULATIONS.filter((name) => canon.populations.includes(POPULATION_CODE[name])).map((name) => ({
        code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/measure-population', code: POPULATION_CODE[name] }] },
        count: group.populations[name] ? 1 : 0,
      })),
      measureScore: measureScore(group.populations),
    })),
    ...(evaluatedResource.length ? { evaluatedResource } : {}),
  };
}

/** A patient's score in a proportion group: 1 in the numerator, 0 not; unknown outside the (unexcluded) denominator. */
function measureScore(populations: Record<PopulationName, boolean>) {
  const measured = populations.denominator && !populations.denominatorExclusion && !populations.denominatorException;
  return measured ? { value: populations.numerator ? 1 : 0 } : unknownElement();
}

function detectedIssueOf(row: GapRow, context: { id: string; patientRef: string; measureReportRef: string; now: string }): FhirResource {
  const detail = [row.reason, row.status === 'open-gap' && row.toClose ? `To close: ${row.toClose}` : undefined].filter(Boolean).join(' ');
  return {
    resourceType: 'DetectedIssue',
    id: context.id,
    meta: { profile: [DEQM.detectedIssue] },
    modifierExtension: [{ url: DEQM.gapStatus, valueCodeableConcept: { coding: [{ system: GAP_STATUS_SYSTEM, code: row.status }] } }],
    status: 'final',
    code: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'CAREGAP', display: 'Care Gaps' }] },
    patient: { reference: context.patientRef },
    identifiedDateTime: context.now,
    evidence: [{ detail: [{ reference: context.measureReportRef }] }],
    ...(detail ? { detail } : {}),
  };
}

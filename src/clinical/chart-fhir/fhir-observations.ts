import { ObservationRow } from '../../cohort/chart.types';
import { QICORE_EXTENSION } from '../../cohort/enum';
import type { FhirResource } from '../elm';
import { codeable, coding, encounterReference, instant, Json, patientReference, period } from './fhir-elements';

const UCUM = 'http://unitsofmeasure.org';
const LOINC = 'http://loinc.org';
const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';

/**
 * The components a blood pressure is stored as (rows sharing a `panelId`), and the code of the panel
 * they are put back into: the stored rows keep no code of the panel itself (only its components'),
 * and the measures retrieve blood pressures by FHIR's `bp` profile, whose code is fixed to 85354-9.
 */
const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
const BLOOD_PRESSURE_PANEL = { system: LOINC, code: '85354-9', display: 'Blood pressure panel with all children optional' };
const isBloodPressureComponent = (row: ObservationRow) => row.panelId !== null && row.codeSystem === LOINC && (row.code === SYSTOLIC || row.code === DIASTOLIC);

/**
 * `value[x]` as the importer stored it: a number is a Quantity in its unit as written (the importer
 * kept the UCUM code when there was one), a whole number without a unit an integer, a coded answer a CodeableConcept with its display, any other
 * text a string (a comparator quantity such as `<5` was stored as text, because it is not the number);
 * without a value, the `dataAbsentReason` stored in its place.
 */
function value(row: ObservationRow): Json {
  if (row.valueNumeric !== null) {
    const unit = row.unit?.trim() || null;
    // A whole number without a unit was a `valueInteger` (a score: PHQ-9, Gleason); the measures read it
    // `as Integer`, which a Quantity is not (US Core gives every Quantity a unit).
    if (!unit && Number.isInteger(row.valueNumeric)) return { valueInteger: row.valueNumeric };
    return { valueQuantity: { value: row.valueNumeric, ...(unit ? { unit, system: UCUM, code: unit } : {}) } };
  }
  if (row.valueCode !== null) return { valueCodeableConcept: codeable(row.valueSystem, row.valueCode, row.valueText) };
  if (row.valueText !== null) return { valueString: row.valueText };
  return row.dataAbsentReason ? { dataAbsentReason: codeable(DATA_ABSENT_REASON, row.dataAbsentReason) } : {};
}


function referenceRange(row: ObservationRow): Json {
  if (row.referenceLow === null && row.referenceHigh === null && row.referenceText === null) return {};
  const bound = (v: number | null) => (v === null ? {} : { value: v, ...(row.unit ? { unit: row.unit, system: UCUM, code: row.unit } : {}) });
  return {
    referenceRange: [
      {
        ...(row.referenceLow !== null ? { low: bound(row.referenceLow) } : {}),
        ...(row.referenceHigh !== null ? { high: bound(row.referenceHigh) } : {}),
        ...(row.referenceText !== null ? { text: row.referenceText } : {}),
      },
    ],
  };
}

/**
 * A new Observation with what one stored row and the resource it came from share: why not done, partOf,
 * status, category, subject, encounter, effective, issued. Written property by property, in this
 * order (the order the JSON shows them in), not spread from small objects: it runs for every
 * observation of every chart converted.
 */
function observation(id: string, row: ObservationRow, patientId: string, procedureIds: ReadonlySet<string>): FhirResource {
  const out: FhirResource = { resourceType: 'Observation', id };
  if (row.notDoneReasonCode !== null) out.extension = [{ url: QICORE_EXTENSION.notDoneReason, valueCodeableConcept: codeable(row.notDoneReasonSystem, row.notDoneReasonCode) }];
  // Only a Procedure the chart holds: the measures follow the reference to it (CMS646's staging procedure).
  if (row.partOfProcedureId !== null && procedureIds.has(row.partOfProcedureId)) out.partOf = [{ reference: `Procedure/${row.partOfProcedureId}` }];
  out.status = row.status;
  if (row.category !== null) out.category = [{ coding: [coding(row.categorySystem, row.category)] }];
  out.subject = patientReference(patientId);
  if (row.encounterId !== null) out.encounter = encounterReference(row.encounterId);
  // `effective[x]`: a period when one was stored (with an end, or started and still going), else a dateTime.
  if (row.effectiveEndAt !== null || row.effectivePeriodOpen) out.effectivePeriod = period(row.effectiveAt, row.effectiveEndAt);
  else out.effectiveDateTime = instant(row.effectiveAt);
  if (row.issuedAt !== null) out.issued = instant(row.issuedAt);
  return out;
}

/** One stored row's component of its panel: code, value and reference range. */
const component = (row: ObservationRow): Json => ({ code: codeable(row.codeSystem, row.code, row.display), ...value(row), ...referenceRange(row) });

/**
 * The components of each panel stored with a row of its own (its code and value: a CT scan's dose
 * category with its noise and dose components), by panel id: the measures read the panel's value
 * and its components from one resource.
 */
function panelComponents(rows: readonly ObservationRow[]): Map<string, Json[]> {
  const panels = new Map<string, Json[]>(rows.filter((row) => row.panelOwnValue && row.panelId !== null).map((row) => [row.panelId!, []]));
  for (const row of rows) if (row.panelId !== null && !row.panelOwnValue) panels.get(row.panelId)?.push(component(row));
  return panels;
}

/**
 * The chart's observations as FHIR Observations: one per stored row, except a panel's components,
 * which are put back as the components of the panel's own row (the resource they were imported
 * from; its value too), and a blood pressure's systolic and diastolic rows stored without one,
 * which are put back together as the components of one panel (id: the panel id).
 */
export function observationResources(rows: readonly ObservationRow[], patientId: string, procedureIds: ReadonlySet<string> = new Set()): FhirResource[] {
  const resources: FhirResource[] = [];
  const owned = panelComponents(rows);
  const panels = new Map<string, { resource: FhirResource; components: Json[] }>();
  for (const row of rows) {
    if (row.panelId !== null && !row.panelOwnValue && owned.has(row.panelId)) continue;
    if (!isBloodPressureComponent(row)) {
      const components = row.panelOwnValue && row.panelId !== null ? (owned.get(row.panelId) ?? []) : [];
      const resource = observation(row.id, row, patientId, procedureIds);
      resource.code = codeable(row.codeSystem, row.code, row.display);
      Object.assign(resource, value(row), referenceRange(row));
      if (row.interpretation !== null) resource.interpretation = [codeable('http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', row.interpretation)];
      if (components.length > 0) resource.component = components;
      resources.push(resource);
      continue;
    }
    let panel = panels.get(row.panelId!);
    if (!panel) {
      const components: Json[] = [];
      const resource = observation(row.panelId!, row, patientId, procedureIds);
      resource.code = codeable(BLOOD_PRESSURE_PANEL.system, BLOOD_PRESSURE_PANEL.code, BLOOD_PRESSURE_PANEL.display);
      resource.component = components;
      panels.set(row.panelId!, (panel = { resource, components }));
      resources.push(resource);
    }
    panel.components.push(component(row));
  }
  return resources;
}

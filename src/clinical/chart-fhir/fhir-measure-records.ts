import { MedicationAdministrationRow, TaskRow } from '../../cohort/chart.types';
import { QICORE_EXTENSION } from '../../cohort/enum';
import type { FhirResource } from '../elm';
import { codeable, instant, Json, patientReference, period } from './fhir-elements';

/** Record types only the published measures read, as the FHIR the importer read them from: MedicationAdministration and Task. */

/** A medication coded through a referenced Medication is kept as one (contained), so a retrieve by the resource’s own concept passes it over, as it did the source. */
export function medicationElements(row: { codeSystem: string; code: string; display: string; codeFromReference: boolean }): Json {
  const medication = codeable(row.codeSystem, row.code, row.display);
  return row.codeFromReference
    ? { contained: [{ resourceType: 'Medication', id: 'medication', code: medication }], medicationReference: { reference: '#medication' } }
    : { medicationCodeableConcept: medication };
}

export function medicationAdministration(row: MedicationAdministrationRow, patientId: string): FhirResource {
  return {
    resourceType: 'MedicationAdministration',
    id: row.id,
    ...(row.recordedAt !== null ? { extension: [{ url: QICORE_EXTENSION.recorded, valueDateTime: instant(row.recordedAt) }] } : {}),
    ...medicationElements(row),
    status: row.status,
    ...(row.statusReasonCode !== null ? { statusReason: [codeable(row.statusReasonSystem, row.statusReasonCode)] } : {}),
    subject: patientReference(patientId),
    ...(row.effectiveIsPeriod ? { effectivePeriod: period(row.effectiveAt, row.effectiveEndAt) } : row.effectiveAt !== null ? { effectiveDateTime: instant(row.effectiveAt) } : {}),
  };
}

export function task(row: TaskRow, patientId: string): FhirResource {
  return {
    resourceType: 'Task',
    id: row.id,
    ...(row.basedOn.length > 0 ? { basedOn: row.basedOn.map((reference) => ({ reference })) } : {}),
    status: row.status,
    ...(row.statusReasonCode !== null ? { statusReason: codeable(row.statusReasonSystem, row.statusReasonCode) } : {}),
    ...(row.intent !== null ? { intent: row.intent } : {}),
    ...(row.code !== null ? { code: codeable(row.codeSystem, row.code, row.display) } : {}),
    ...(row.focus !== null ? { focus: { reference: row.focus } } : {}),
    for: patientReference(patientId),
    ...(row.executionStartAt !== null || row.executionEndAt !== null ? { executionPeriod: period(row.executionStartAt, row.executionEndAt) } : {}),
    ...(row.authoredAt !== null ? { authoredOn: instant(row.authoredAt) } : {}),
    ...(row.reasonCode !== null ? { reasonCode: codeable(row.reasonSystem, row.reasonCode) } : {}),
  };
}

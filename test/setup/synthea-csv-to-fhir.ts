import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * The 80-patient Synthea set beside the project (`../shared/external-data/synthea-r4-smart-80`,
 * see its README). Tests skip, saying why, where it is absent; nothing of it is copied into the repo.
 */
export const SYNTHEA_80 = join(__dirname, '..', '..', '..', 'shared', 'external-data', 'synthea-r4-smart-80');
export const SYNTHEA_80_NDJSON = join(SYNTHEA_80, 'fhir-r4-ndjson');
export const SYNTHEA_80_CSV = join(SYNTHEA_80, 'csv');

/** A CSV file with a header row, as header-keyed rows (csv-parse: quoting, embedded commas and newlines). */
export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

const present = (value: string) => (value === '' ? undefined : value);
const coding = (system: string, code: string, display: string) => (code ? { coding: [{ system, code, display: present(display) }] } : undefined);
const ref = (id: string) => (id ? { reference: `urn:uuid:${id}` } : undefined);

/**
 * Rebuilds FHIR R4 resources from `csv/` mechanically, field by field, for machines where the
 * NDJSON folder is absent: Patient, Encounter, Condition, MedicationRequest and Observation (the
 * blood-pressure component rows regrouped by Observation id into one 55284-4 panel). Only what the
 * CSV holds is written; the one exception is `Observation.status`, which the CSV does not carry
 * and which is `final` for every Observation of the source (its README); it is written as `final`.
 * The panel's own coding has no display (the CSV has none). Returns the NDJSON files written.
 */
export function rebuildSyntheaNdjson(csvFolder: string, outFolder: string): Record<string, number> {
  mkdirSync(outFolder, { recursive: true });
  const written: Record<string, number> = {};
  const write = (name: string, resources: object[]) => {
    writeFileSync(join(outFolder, `${name}.ndjson`), resources.map((resource) => JSON.stringify(resource)).join('\n') + '\n');
    written[name] = resources.length;
  };
  const csv = (name: string) => readCsv(join(csvFolder, `${name}.csv`));

  write(
    'Patient',
    csv('patients').map((row) => ({
      resourceType: 'Patient',
      id: row.id,
      identifier: [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }] }, system: 'http://hospital.smarthealthit.org', value: row.mrn }],
      name: [{ use: 'official', prefix: row.prefix ? [row.prefix] : undefined, given: [row.given], family: row.family }],
      telecom: row.phone ? [{ system: 'phone', value: row.phone, use: 'home' }] : undefined,
      gender: row.gender,
      birthDate: row.birth_date,
      deceasedDateTime: present(row.deceased_datetime),
      address: [{ line: row.address_line ? [row.address_line] : undefined, city: present(row.city), state: present(row.state), postalCode: present(row.postal_code), country: present(row.country) }],
    })),
  );

  write(
    'Encounter',
    csv('encounters').map((row) => ({
      resourceType: 'Encounter',
      id: row.id,
      status: row.status,
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: row.class },
      type: row.type_code ? [coding(row.type_system, row.type_code, row.type_display)] : undefined,
      subject: ref(row.patient_id),
      period: { start: row.start, end: present(row.end) },
      reasonCode: row.reason_code ? [coding(row.reason_system, row.reason_code, row.reason_display)] : undefined,
    })),
  );

  write(
    'Condition',
    csv('conditions').map((row) => ({
      resourceType: 'Condition',
      id: row.id,
      clinicalStatus: coding('http://terminology.hl7.org/CodeSystem/condition-clinical', row.clinical_status, ''),
      verificationStatus: coding('http://terminology.hl7.org/CodeSystem/condition-ver-status', row.verification_status, ''),
      code: coding(row.system, row.code, row.display),
      subject: ref(row.patient_id),
      encounter: ref(row.encounter_id),
      onsetDateTime: present(row.onset),
      abatementDateTime: present(row.abatement),
      recordedDate: present(row.recorded_date),
    })),
  );

  write(
    'MedicationRequest',
    csv('medications').map((row) => ({
      resourceType: 'MedicationRequest',
      id: row.id,
      status: row.status,
      intent: row.intent,
      medicationCodeableConcept: coding(row.system, row.code, row.display),
      subject: ref(row.patient_id),
      encounter: ref(row.encounter_id),
      authoredOn: row.authored_on,
      reasonReference: row.reason_condition_ids ? row.reason_condition_ids.split(/[;|]/).map(ref) : undefined,
    })),
  );

  const value = (row: Record<string, string>) => {
    if (row.value_type === 'quantity') return { valueQuantity: { value: Number(row.value), unit: present(row.unit), system: 'http://unitsofmeasure.org', code: present(row.ucum_or_value_code) } };
    if (row.value_type === 'codeable_concept') return { valueCodeableConcept: { coding: [{ code: row.ucum_or_value_code, display: row.value }], text: row.value } };
    return { valueString: row.value };
  };
  const observations = new Map<string, Record<string, unknown>>();
  for (const row of csv('observations')) {
    const common = {
      resourceType: 'Observation',
      id: row.id,
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: row.category }] }],
      subject: ref(row.patient_id),
      encounter: ref(row.encounter_id),
      effectiveDateTime: row.effective,
    };
    if (!row.panel_code) {
      observations.set(row.id, { ...common, code: coding(row.system, row.code, row.display), ...value(row) });
      continue;
    }
    const panel = observations.get(row.id) ?? { ...common, code: { coding: [{ system: row.system, code: row.panel_code }] }, component: [] };
    (panel.component as object[]).push({ code: coding(row.system, row.code, row.display), ...value(row) });
    observations.set(row.id, panel);
  }
  write('Observation', [...observations.values()]);
  return written;
}

/** `describe`, or `describe.skip` with the reason in its name when the folder is absent. */
export function describeWithFolder(folder: string, what: string): (name: string, body: () => void) => void {
  return existsSync(folder)
    ? describe
    : (name: string, body: () => void) => describe.skip(`${name} [skipped: ${what} is absent (see ../shared/external-data/README.md)]`, body);
}

import {
  AllergyRow,
  ClinicalNoteRow,
  ConditionRow,
  EncounterRow,
  GeneratedTable,
  MedicationRow,
  ObservationRow,
  PatientCareTeamRow,
  PatientRecord,
  PatientRow,
  ProcedureRow,
} from './rows';

/**
 * Rows as lines of Postgres `COPY … FROM STDIN` text format: tab-separated, `\N` for null,
 * backslash escapes for backslash, tab, newline and carriage return. Every column is listed, so
 * nothing is left to a column default (`created_at DEFAULT now()` would break byte-identical reruns).
 */
const NULL = '\\N';
const NEEDS_ESCAPE = /[\\\t\n\r]/;

export function text(value: string | null): string {
  if (value === null) return NULL;
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

export function instant(ms: number | null): string {
  return ms === null ? NULL : new Date(ms).toISOString();
}

function num(value: number | null): string {
  return value === null ? NULL : String(value);
}

interface TableFormat<Row> {
  columns: readonly string[];
  line(row: Row): string;
}

const patients: TableFormat<PatientRow> = {
  columns: ['id', 'mrn', 'given_name', 'family_name', 'birth_date', 'sex', 'phone', 'email', 'address_line', 'city', 'state', 'postal_code', 'deceased_at', 'created_at', 'updated_at'],
  line: (r) =>
    `${r.id}\t${text(r.mrn)}\t${text(r.givenName)}\t${text(r.familyName)}\t${r.birthDate}\t${r.sex}\t${text(r.phone)}\t${text(r.email)}\t` +
    `${text(r.addressLine)}\t${text(r.city)}\t${text(r.state)}\t${text(r.postalCode)}\t${instant(r.deceasedAt)}\t${instant(r.createdAt)}\t${instant(r.updatedAt)}\n`,
};

const patientCareTeams: TableFormat<PatientCareTeamRow> = {
  columns: ['patient_id', 'care_team_id'],
  line: (r) => `${r.patientId}\t${r.careTeamId}\n`,
};

const encounters: TableFormat<EncounterRow> = {
  columns: ['id', 'patient_id', 'created_at', 'class', 'status', 'type_system', 'type_code', 'type_display', 'reason_system', 'reason_code', 'reason_display', 'start_at', 'end_at', 'disposition', 'discharge_disposition_system', 'discharge_disposition_code'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.class}\t${r.status}\t${text(r.typeSystem)}\t${text(r.typeCode)}\t${text(r.typeDisplay)}\t` +
    `${text(r.reasonSystem)}\t${text(r.reasonCode)}\t${text(r.reasonDisplay)}\t${instant(r.startAt)}\t${instant(r.endAt)}\t${text(r.disposition)}\t` +
    `${text(r.dischargeDispositionSystem)}\t${text(r.dischargeDispositionCode)}\n`,
};

const observations: TableFormat<ObservationRow> = {
  columns: ['id', 'patient_id', 'created_at', 'encounter_id', 'panel_id', 'category', 'status', 'code_system', 'code', 'display', 'value_numeric', 'value_text', 'unit', 'reference_low', 'reference_high', 'reference_text', 'interpretation', 'effective_at', 'effective_end_at', 'value_system', 'value_code', 'data_absent_reason'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.encounterId ?? NULL}\t${r.panelId ?? NULL}\t${r.category}\t${r.status}\t${r.codeSystem}\t` +
    `${text(r.code)}\t${text(r.display)}\t${num(r.valueNumeric)}\t${text(r.valueText)}\t${text(r.unit)}\t${num(r.referenceLow)}\t` +
    `${num(r.referenceHigh)}\t${text(r.referenceText)}\t${r.interpretation ?? NULL}\t${instant(r.effectiveAt)}\t${instant(r.effectiveEndAt)}\t` +
    `${text(r.valueSystem)}\t${text(r.valueCode)}\t${text(r.dataAbsentReason)}\n`,
};

const conditions: TableFormat<ConditionRow> = {
  columns: ['id', 'patient_id', 'created_at', 'code_system', 'code', 'display', 'clinical_status', 'onset_date', 'abatement_date', 'recorded_at', 'verification_status', 'category', 'body_site_system', 'body_site_code'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.codeSystem}\t${text(r.code)}\t${text(r.display)}\t${r.clinicalStatus ?? NULL}\t` +
    `${r.onsetDate ?? NULL}\t${r.abatementDate ?? NULL}\t${instant(r.recordedAt)}\t${r.verificationStatus ?? NULL}\t${r.category ?? NULL}\t` +
    `${text(r.bodySiteSystem)}\t${text(r.bodySiteCode)}\n`,
};

const medications: TableFormat<MedicationRow> = {
  columns: ['id', 'patient_id', 'created_at', 'code_system', 'code', 'display', 'status', 'start_date', 'end_date', 'dosage_text', 'intent', 'do_not_perform', 'authored_at', 'reason_system', 'reason_code', 'supply'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.codeSystem}\t${text(r.code)}\t${text(r.display)}\t${r.status}\t` +
    `${r.startDate}\t${r.endDate ?? NULL}\t${text(r.dosageText)}\t${r.intent ?? NULL}\t${r.doNotPerform ? 't' : 'f'}\t${instant(r.authoredAt)}\t` +
    `${text(r.reasonSystem)}\t${text(r.reasonCode)}\t${text(r.supply === null ? null : JSON.stringify(r.supply))}\n`,
};

const procedures: TableFormat<ProcedureRow> = {
  columns: ['id', 'patient_id', 'created_at', 'encounter_id', 'code_system', 'code', 'display', 'status', 'performed_at', 'performed_end_at', 'status_reason_system', 'status_reason_code', 'body_site_system', 'body_site_code'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.encounterId ?? NULL}\t${r.codeSystem}\t${text(r.code)}\t${text(r.display)}\t` +
    `${r.status}\t${instant(r.performedAt)}\t${instant(r.performedEndAt)}\t${text(r.statusReasonSystem)}\t${text(r.statusReasonCode)}\t` +
    `${text(r.bodySiteSystem)}\t${text(r.bodySiteCode)}\n`,
};

const clinicalNotes: TableFormat<ClinicalNoteRow> = {
  columns: ['id', 'patient_id', 'created_at', 'encounter_id', 'note_type', 'author_display', 'authored_at', 'text'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.encounterId ?? NULL}\t${r.noteType}\t${text(r.authorDisplay)}\t` +
    `${instant(r.authoredAt)}\t${text(r.text)}\n`,
};

const allergies: TableFormat<AllergyRow> = {
  columns: ['id', 'patient_id', 'created_at', 'code_system', 'code', 'display', 'clinical_status', 'recorded_at', 'onset_at', 'onset_end_at'],
  line: (r) =>
    `${r.id}\t${r.patientId}\t${instant(r.createdAt)}\t${r.codeSystem}\t${text(r.code)}\t${text(r.display)}\t${r.clinicalStatus}\t` +
    `${instant(r.recordedAt)}\t${instant(r.onsetAt)}\t${instant(r.onsetEndAt)}\n`,
};

/** One table's lines for one patient, and the column list its COPY names. */
export interface TableWriter {
  table: GeneratedTable;
  columns: readonly string[];
  lines(record: PatientRecord): { text: string; rows: number };
}

function many<Row>(table: GeneratedTable, format: TableFormat<Row>, rowsOf: (record: PatientRecord) => Row[]): TableWriter {
  return {
    table,
    columns: format.columns,
    lines(record) {
      const rows = rowsOf(record);
      let out = '';
      for (const row of rows) out += format.line(row);
      return { text: out, rows: rows.length };
    },
  };
}

export const TABLE_WRITERS: readonly TableWriter[] = [
  many('patients', patients, (record) => [record.patient]),
  many('patient_care_teams', patientCareTeams, (record) => record.patientCareTeams),
  many('encounters', encounters, (record) => record.encounters),
  many('observations', observations, (record) => record.observations),
  many('conditions', conditions, (record) => record.conditions),
  many('medications', medications, (record) => record.medications),
  many('procedures', procedures, (record) => record.procedures),
  many('clinical_notes', clinicalNotes, (record) => record.clinicalNotes),
  many('allergies', allergies, (record) => record.allergies),
];

export function copyStatement(writer: TableWriter): string {
  return `COPY "${writer.table}" (${writer.columns.map((column) => `"${column}"`).join(', ')}) FROM STDIN`;
}

import { Pool as PgPool } from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { AuditService } from '../src/audit';
import { AuditChannel, AuditOutcome } from '../src/audit/enum';
import { COHORT_STATEMENTS, CohortStatementName } from '../src/cohort/cohort.statements';
import { READER_SESSION_OPTIONS } from '../src/database/data-source.options';
import { CHART_ROW_CAP } from '../src/cohort/cohort.repository';
import { trailingYear } from '../src/clinical/shared/clinical-dates';
import { careGapEncounterFilter } from '../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../src/clinical/care-gaps/cql/observation-retrieves';
import { missingDataObservationCodes } from '../src/clinical/missing-data';
import { todayUtc } from '../src/tools/envelope';
import { PLANNED_PER_CALL, preparedName } from '../src/cohort/prepared-statement.repository';
import { ENCOUNTER_ROW_CAP } from '../src/tools/definitions/patient-encounters.tool';
import { LAB_ROW_CAP } from '../src/tools/definitions/patient-labs.tool';
import { ToolName, TOOL_NAMES } from '../src/tools/tool-names';
import { TOOL_PATHS } from '../test/setup/tool-routes';
import type { HttpRequestSpec } from './load';

/**
 * The same read three ways: Vigil's route, the floor (the cohort statements Vigil's request runs,
 * on the same kind of connection, through `pg`), and PostGraphile (one GraphQL query of the same shape).
 * Every tool is asked the same thing everywhere: encounters without a window (the newest 100, with
 * their notes), creatinine results (LOINC 2160-0, the newest 200), and the derived tools' whole chart.
 */

/** A patient and a clinician on one of its care teams. */
export interface Assignment {
  patientId: string;
  username: string;
}

/** Serum creatinine: a lab most generated patients have a few of (HbA1c only the diabetic ones). */
export const LAB_CODE = '2160-0';

export const TOOL_QUERIES: Record<ToolName, string> = {
  patient_encounters: '',
  patient_labs: `?code=${LAB_CODE}`,
  care_gap_lookup: '',
  missing_data_check: '',
  feature_attribution: '',
};

export const BENCH_TOOLS: readonly ToolName[] = TOOL_NAMES;

export function vigilPath(tool: ToolName, patientId: string): string {
  return `/patients/${patientId}/${TOOL_PATHS[tool]}${TOOL_QUERIES[tool]}`;
}

/** One of Vigil's tool requests for an assignment, as its clinician (`tokens`: a bearer token per username). */
export function vigilRequest(tool: ToolName, { patientId, username }: Assignment, tokens: ReadonlyMap<string, string>): HttpRequestSpec {
  return { method: 'GET', path: vigilPath(tool, patientId), headers: { authorization: `Bearer ${tokens.get(username)}` } };
}

type Run = (name: CohortStatementName, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * A cohort read as Vigil runs it on a Postgres server (`ReadSessions` on the reader pool): one
 * connection of a pool opened as `readerPool` opens it (`vigil_reader` and read-only from its start),
 * the statements (named prepared statements under the same names as Vigil's, `runCohortStatement`),
 * no BEGIN and no COMMIT. `pool` must be such a pool.
 */
async function read<T>(pool: Pool, work: (run: Run) => Promise<T>): Promise<T> {
  const client: PoolClient = await pool.connect();
  try {
    return await work(async (name, values) => {
      const text = COHORT_STATEMENTS[name];
      const query = PLANNED_PER_CALL.has(name) ? { text, values } : { name: preparedName(name), text, values };
      return (await client.query(query)).rows as Record<string, unknown>[];
    });
  } finally {
    client.release();
  }
}

/** A pool as Vigil's reader pool: `vigil_reader` and read-only from each connection's start (`READER_SESSION_OPTIONS`). */
export function readerPool(url: string, max: number): Pool {
  return new PgPool({ connectionString: url, max, application_name: 'vigil-bench-reader', options: READER_SESSION_OPTIONS });
}

/**
 * The floor of one tool request: every cohort statement Vigil runs for it, with the same
 * parameters, transaction and prepared statements — identity (the token's user and teams), then the
 * tool's one statement (the access probe, the patient header and the rows) — and nothing else: no JWT check, validation,
 * projection, clinical evaluation or audit write. Returns the rows, or null for "not found".
 */
export async function floorRead(pool: Pool, tool: ToolName, assignment: Assignment, audit?: AuditService): Promise<Record<string, unknown> | null> {
  // As a tool route (`IdentityInRead`): identity, the access probe and the tool's statements in one read transaction.
  const found = await read(pool, async (run) => {
    const [user] = await run('staffUserByUsername', [assignment.username]);
    if (!user) return null;
    // The tool's one statement, with the access probe folded in (no break glass: the clinician is on the patient's team).
    const { exists, onCareTeam, ...data } = await toolStatement(run, tool, assignment.patientId, user.careTeamIds as string[]);
    return exists && onCareTeam ? { user, body: toolBody(tool, data) } : null;
  });
  if (!found) return null;
  const { user, body } = found;
  // The diagnostic "floor + audit" target: Vigil's own audit write (AuditService, same pool), nothing else.
  if (audit) {
    const rows = Object.values(body).find(Array.isArray) as Record<string, unknown>[] | undefined;
    await audit.record({
      actorId: user.id as string,
      actorRole: user.role as string,
      patientId: assignment.patientId,
      action: tool,
      fields: Object.keys(rows?.[0] ?? {}),
      rowCount: rows?.length ?? 0,
      outcome: rows?.length ? AuditOutcome.Success : AuditOutcome.Empty,
      breakGlassReason: null,
      correlationId: null,
      channel: AuditChannel.Rest,
    });
  }
  return body;
}

/** The tool's gated statement (`COHORT_STATEMENTS.gated*`), with the parameters Vigil binds for `TOOL_QUERIES`. */
async function toolStatement(run: Run, tool: ToolName, id: string, careTeamIds: string[]): Promise<Record<string, unknown>> {
  const access = [id, careTeamIds, false];
  switch (tool) {
    case 'patient_encounters':
      return (await run('gatedEncounters', [...access, null, null, null, ENCOUNTER_ROW_CAP + 1]))[0];
    case 'patient_labs':
      return (await run('gatedLaboratoryResults', [...access, null, null, [LAB_CODE], LAB_ROW_CAP + 1]))[0];
    case 'care_gap_lookup': {
      // With the attestations for the period it evaluates by default (the trailing year), as Vigil reads them.
      const period = trailingYear(todayUtc());
      // Only the observations and encounters the built-in measures retrieve, as Vigil reads them (`gatedCareGapChart`).
      const observations = careGapObservationFilter(period);
      const encounters = careGapEncounterFilter(period);
      const filters = [observations.codes, observations.since.codes, observations.since.instant, encounters.endedSince, encounters.allTimeCodes];
      return (await run('gatedCareGapChart', [...access, CHART_ROW_CAP + 1, period.start, period.end, ...filters]))[0];
    }
    case 'missing_data_check':
      // Only the rows its elements look at, as Vigil reads them (`gatedMissingDataChart`).
      return (await run('gatedMissingDataChart', [...access, CHART_ROW_CAP + 1, missingDataObservationCodes()]))[0];
    default:
      return (await run('gatedChart', [...access, CHART_ROW_CAP + 1]))[0];
  }
}

/** The statement's data as the tool uses it: its rows cut at the tool's cap (labs, encounters), or the chart. */
function toolBody(tool: ToolName, data: Record<string, unknown>): Record<string, unknown> {
  const rows = data.rows as Record<string, unknown>[] | undefined;
  if (tool === 'patient_encounters') return { patient: data.patient, rows: rows!.slice(0, ENCOUNTER_ROW_CAP) };
  if (tool === 'patient_labs') return { patient: data.patient, rows: rows!.slice(0, LAB_ROW_CAP) };
  return data;
}

const PATIENT_FIELDS = 'id mrn givenName familyName birthDate sex phone email addressLine city state postalCode deceasedAt';
const ENCOUNTER_FIELDS = 'id class status typeSystem typeCode typeDisplay reasonSystem reasonCode reasonDisplay startAt endAt disposition';
const OBSERVATION_FIELDS =
  'id encounterId panelId category status codeSystem code display valueNumeric valueText unit referenceLow referenceHigh referenceText interpretation effectiveAt';
const CHART_LIMIT = CHART_ROW_CAP + 1;

const CHART_QUERY = `query Chart($id: UUID!) { patientById(id: $id) { ${PATIENT_FIELDS}
  encountersByPatientId(orderBy: [START_AT_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { ${ENCOUNTER_FIELDS} } }
  observationsByPatientId(orderBy: [EFFECTIVE_AT_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { ${OBSERVATION_FIELDS} } }
  conditionsByPatientId(orderBy: [RECORDED_AT_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { id codeSystem code display clinicalStatus onsetDate abatementDate recordedAt } }
  medicationsByPatientId(orderBy: [START_DATE_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { id codeSystem code display status startDate endDate dosageText } }
  proceduresByPatientId(orderBy: [PERFORMED_AT_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { id encounterId codeSystem code display status performedAt } }
  allergiesByPatientId(orderBy: [RECORDED_AT_DESC, ID_ASC], first: ${CHART_LIMIT}) { nodes { id codeSystem code display clinicalStatus recordedAt } }
} }`;

/** The same reads as one GraphQL query each: the patient with the tool's rows nested under it. */
export const GRAPHQL_QUERIES: Record<ToolName, string> = {
  patient_encounters: `query Encounters($id: UUID!) { patientById(id: $id) { ${PATIENT_FIELDS}
  encountersByPatientId(orderBy: [START_AT_DESC, ID_ASC], first: ${ENCOUNTER_ROW_CAP + 1}) { nodes { ${ENCOUNTER_FIELDS}
    clinicalNotesByEncounterId(orderBy: [AUTHORED_AT_ASC, ID_ASC]) { nodes { id encounterId noteType authorDisplay authoredAt text } } } }
} }`,
  patient_labs: `query Labs($id: UUID!) { patientById(id: $id) { ${PATIENT_FIELDS}
  observationsByPatientId(condition: { code: "${LAB_CODE}" }, orderBy: [EFFECTIVE_AT_DESC, ID_ASC], first: ${LAB_ROW_CAP + 1}) { nodes { ${OBSERVATION_FIELDS} } }
} }`,
  care_gap_lookup: CHART_QUERY,
  missing_data_check: CHART_QUERY,
  feature_attribution: CHART_QUERY,
};

export function graphqlBody(tool: ToolName, patientId: string): string {
  return JSON.stringify({ query: GRAPHQL_QUERIES[tool], variables: { id: patientId } });
}

import { DriverConnection, runNamedStatement, runUnnamedStatement } from '../schema/named-statement.repository';
import { BULK_CHART_STATEMENTS, COHORT_STATEMENTS, CohortStatementName } from './cohort.statements';

/**
 * Statements whose best plan depends on a parameter's value, which a generic plan cannot see. They
 * stay unnamed (parsed and planned on every call):
 * - the name search: its LIKE prefix can use the folded-name index only when the planner sees the pattern;
 * - the recompute's bulk reads (`BULK_CHART_STATEMENTS`), which take a chunk's patients (and the measures' codes) as arrays.
 *   A named statement switches to a generic plan after five executions, and a generic plan does not
 *   know how long the arrays are: on the 100k cohort it read a chunk's observations by the
 *   (patient, code) index, one probe per patient and code (250 × 299), 150 ms a chunk where the
 *   plan made for the arrays walks the patients' rows in 20. Planning each call costs far less.
 */
export const PLANNED_PER_CALL: ReadonlySet<CohortStatementName> = new Set<CohortStatementName>(['patientsByName', ...BULK_CHART_STATEMENTS]);

/** The name a cohort statement is prepared under on each connection (Vigil's and the bench floor's). */
export function preparedName(name: CohortStatementName): string {
  return `cohort.${name}`;
}

/**
 * Runs a cohort statement on the connection as a named prepared statement (`runNamedStatement`),
 * except those planned per call (`PLANNED_PER_CALL`), which go unnamed.
 */
export function runCohortStatement<R>(on: DriverConnection, name: CohortStatementName, values: unknown[]): Promise<R[]> {
  const text = COHORT_STATEMENTS[name];
  if (PLANNED_PER_CALL.has(name)) return runUnnamedStatement<R>(on, text, values);
  return runNamedStatement<R>(on, preparedName(name), text, values);
}

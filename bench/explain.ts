import { Client } from 'pg';
import { COHORT_STATEMENTS, CohortStatementName } from '../src/cohort/cohort.statements';
import { READ_SESSION_BEGIN } from '../src/cohort/read-session.statements';
import { Assignment } from './tool-reads';
import { EXPLAIN_PARAMETERS, ExplainContext } from './explain-parameters';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every cohort statement on the bench database, in the service's own
 * read transaction (READ ONLY, as vigil_reader), with a real patient's values. Each statement runs
 * three times and the last plan is kept (a warm cache, as in the load test). A sequential scan of a
 * table with more than LARGE_TABLE_ROWS rows is flagged.
 */

export const LARGE_TABLE_ROWS = 10_000;

export interface ExplainResult {
  name: CohortStatementName;
  executionMs: number;
  planningMs: number;
  sharedHit: number;
  sharedRead: number;
  /** "Index Scan using X on t", "Seq Scan on t", … in plan order, deduplicated. */
  accesses: string[];
  /** Large tables read by a sequential scan. */
  seqScansOfLargeTables: string[];
  plan: string;
}

export async function explainAll(url: string, assignment: Assignment): Promise<{ context: ExplainContext; results: ExplainResult[] }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const context = await contextFor(client, assignment);
    const sizes = new Map(
      (await client.query<{ relname: string; rows: string }>(`SELECT relname, reltuples::bigint AS rows FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`)).rows.map(
        (row) => [row.relname, Number(row.rows)],
      ),
    );
    const results: ExplainResult[] = [];
    for (const name of Object.keys(COHORT_STATEMENTS) as CohortStatementName[]) {
      let plan = '';
      for (let i = 0; i < 3; i += 1) plan = await explainOnce(client, COHORT_STATEMENTS[name], EXPLAIN_PARAMETERS[name](context));
      results.push(analyse(name, plan, sizes));
    }
    return { context, results };
  } finally {
    await client.end();
  }
}

async function explainOnce(client: Client, sql: string, params: unknown[]): Promise<string> {
  await client.query(READ_SESSION_BEGIN);
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('ROLLBACK');
  }
}

function analyse(name: CohortStatementName, plan: string, sizes: Map<string, number>): ExplainResult {
  const number = (pattern: RegExp) => Number(pattern.exec(plan)?.[1] ?? Number.NaN);
  // The first Buffers line belongs to the top node and sums the whole tree.
  const buffers = /Buffers: shared ([^\n]*)/.exec(plan)?.[1] ?? '';
  const accesses = [
    ...new Set(
      [...plan.matchAll(/((?:Parallel )?(?:Seq Scan|Index Only Scan|Index Scan Backward|Index Scan|Bitmap Heap Scan|Bitmap Index Scan)(?: Backward)?(?: using \S+)? on \S+)/g)].map(
        (match) => match[1],
      ),
    ),
  ];
  const seqScansOfLargeTables = [
    ...new Set([...plan.matchAll(/Seq Scan on (\w+)/g)].map((match) => match[1]).filter((table) => (sizes.get(table) ?? 0) > LARGE_TABLE_ROWS)),
  ];
  return {
    name,
    executionMs: number(/Execution Time: ([\d.]+) ms/),
    planningMs: number(/Planning Time: ([\d.]+) ms/),
    sharedHit: Number(/hit=(\d+)/.exec(buffers)?.[1] ?? 0),
    sharedRead: Number(/read=(\d+)/.exec(buffers)?.[1] ?? 0),
    accesses,
    seqScansOfLargeTables,
    plan,
  };
}

async function contextFor(client: Client, assignment: Assignment): Promise<ExplainContext> {
  const teams = await client.query<{ id: string }>(
    `SELECT m.care_team_id AS id FROM care_team_members m JOIN staff_users u ON u.id = m.staff_user_id WHERE u.username = $1`,
    [assignment.username],
  );
  const encounters = await client.query<{ id: string }>(`SELECT id FROM encounters WHERE patient_id = $1 ORDER BY start_at DESC, id LIMIT 100`, [assignment.patientId]);
  const observations = await client.query<{ id: string }>(`SELECT id FROM observations WHERE patient_id = $1 ORDER BY effective_at DESC, id LIMIT 5`, [
    assignment.patientId,
  ]);
  return {
    username: assignment.username,
    careTeamIds: teams.rows.map((row) => row.id),
    patientId: assignment.patientId,
    encounterIds: encounters.rows.map((row) => row.id),
    observationIds: observations.rows.map((row) => row.id),
    now: new Date(),
  };
}

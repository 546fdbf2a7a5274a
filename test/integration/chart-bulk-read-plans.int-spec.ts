import { CohortRepository } from '../../src/cohort/cohort.repository';
import { BULK_CHART_STATEMENTS, COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { BULK_SNAPSHOT_SESSION_BEGIN, SNAPSHOT_SESSION_BEGIN } from '../../src/cohort/read-session.statements';
import { careGapEncounterFilter } from '../../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../../src/clinical/care-gaps/cql/observation-retrieves';
import { useSeededDatabase } from '../setup/database';
import { statementsRunBy } from '../setup/statement-capture';

/**
 * The recompute's bulk chart statements run without JIT compilation or parallel workers. On the
 * 100,000-patient cohort a chunk's observations statement was JIT-compiled (about 120 ms of code
 * emission, more than the scan it sped up) and given two parallel workers, on cores already busy
 * with other chunks. The fixture cohort is too small for the planner to choose either by itself,
 * so each statement is planned here with both made free (zero thresholds and setup costs): in the
 * bulk session it must still use neither, while the plain snapshot session, as a control that the
 * costs do tempt the planner, uses both.
 */

interface PlanNode {
  'Node Type': string;
  Plans?: PlanNode[];
}

interface ExplainRoot {
  Plan: PlanNode;
  JIT?: { Functions: number };
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const TEMPTING_COSTS = [
  'SET LOCAL jit_above_cost = 0',
  'SET LOCAL parallel_setup_cost = 0',
  'SET LOCAL parallel_tuple_cost = 0',
  'SET LOCAL min_parallel_table_scan_size = 0',
  'SET LOCAL min_parallel_index_scan_size = 0',
];

const BULK_STATEMENTS = BULK_CHART_STATEMENTS;

const PERIOD = { start: '2025-07-01', end: '2026-06-30' };

/** Every bulk statement takes the patients ($1); the coded observations and windowed encounters also the measures' filter. */
const parametersOf = (name: keyof typeof COHORT_STATEMENTS, ids: string[]): unknown[] => {
  if (name === 'chartsObservationsCoded') {
    const filter = careGapObservationFilter(PERIOD);
    return [ids, [...filter.codes], [...filter.since.codes], filter.since.instant];
  }
  if (name === 'chartsEncountersWindowed') {
    const filter = careGapEncounterFilter(PERIOD);
    return [ids, filter.endedSince, [...filter.allTimeCodes]];
  }
  return [ids];
};

describe('bulk chart reads: no JIT, no parallel workers (real Postgres)', () => {
  const db = useSeededDatabase();
  let ids: string[];
  let jitAvailable: boolean;

  beforeAll(async () => {
    const { dataSource } = db();
    ids = (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id`)).map((row) => row.id);
    [{ jitAvailable }] = await dataSource.query<{ jitAvailable: boolean }[]>(`SELECT pg_jit_available() AS "jitAvailable"`);
  });

  const explainIn = async (begin: string, name: keyof typeof COHORT_STATEMENTS): Promise<ExplainRoot> => {
    const runner = db().dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(begin);
      for (const setting of TEMPTING_COSTS) await runner.query(setting);
      const [row] = await runner.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${COHORT_STATEMENTS[name]}`, parametersOf(name, ids));
      return (row['QUERY PLAN'] as ExplainRoot[])[0];
    } finally {
      await runner.query('ROLLBACK');
      await runner.release();
    }
  };

  const usesParallelWorkers = (root: ExplainRoot) => flatten(root.Plan).some((node) => node['Node Type'].startsWith('Gather'));

  it.each(BULK_STATEMENTS)('%s: neither JIT nor parallel workers in the bulk session, both in the control', async (name) => {
    const bulk = await explainIn(BULK_SNAPSHOT_SESSION_BEGIN, name);
    expect(bulk.JIT).toBeUndefined();
    expect(usesParallelWorkers(bulk)).toBe(false);
    const control = await explainIn(SNAPSHOT_SESSION_BEGIN, name);
    if (jitAvailable) expect(control.JIT?.Functions).toBeGreaterThan(0);
    expect(usesParallelWorkers(control)).toBe(true);
  });

  it('CohortRepository.charts opens its transaction with the bulk session', async () => {
    const { dataSource } = db();
    const sent = await statementsRunBy(dataSource, async () => {
      const charts = await new CohortRepository(dataSource).charts(ids.slice(0, 5));
      expect(charts.size).toBe(5);
    });
    expect(sent[0]).toBe(BULK_SNAPSHOT_SESSION_BEGIN);
  });
});

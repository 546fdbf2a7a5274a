import { randomUUID } from 'node:crypto';
import { generateCommand } from '../../src/cli/generate.command';
import { MEASURE_STATEMENTS } from '../../src/measure-results/measure-results.sql';
import { storePeriod } from '../../src/measure-results/store-period';
import { FilterCheck, WORKLIST_STATEMENTS, WorklistStatementName, worklistStatementName } from '../../src/measure-results/worklist.sql';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { useSeededDatabase } from '../setup/database';

/**
 * Statements of the measure-results store that must stay index walks at 100,000 patients, checked
 * on a generated cohort by their plans. The recompute's "which patients of this chunk are due" statement must stay an index walk: of the
 * chunk's id range of patients, and of each patient's stored rows of the period by the primary
 * key. A first run meets `measure_results` filling up with no statistics yet (autovacuum has not
 * analysed it); the planner then once preferred the worklist index (period first) and scanned a
 * whole period's entries per patient, ~350 ms a chunk of 250 on 10,000 patients. Checked in both
 * plan forms a driver can get: custom (parameters known) and generic (named prepared statements).
 */

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

/** Carries a plan out of a transaction that must not commit (it analysed a table for that plan alone). */
class RolledBack extends Error {
  constructor(readonly plan: PlanNode) {
    super('rolled back');
  }
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/** The subplan that reads a page row's results (`RESULTS_COLUMN`), keyed by the row's patient `p`. */
const isResultsColumn = (node: PlanNode): boolean => node['Parent Relationship'] === 'SubPlan' && JSON.stringify(node).includes('patient_id = p.id');

/** The page statements taking every filter NULL-able (planned per call); the fixed ones are checked below. */
const NULLABLE_PAGES = Object.keys(WORKLIST_STATEMENTS).filter((name) => name.startsWith('worklistBy') && !name.includes('Fixed')) as WorklistStatementName[];

/** `flatten` without the results column's subplan: the page's own walk and joins. */
const flattenPage = (node: PlanNode): PlanNode[] => (isResultsColumn(node) ? [] : [node, ...(node.Plans ?? []).flatMap(flattenPage)]);

describe('measure-results store statement plans (real Postgres, no statistics on measure_results)', () => {
  const db = useSeededDatabase();
  const period = storePeriod();
  let bounds: [string, string];

  beforeAll(async () => {
    const { dataSource } = db();
    // Never analysed during the test: the state of a table a first run is filling.
    await dataSource.query(`ALTER TABLE measure_results SET (autovacuum_enabled = false)`);
    const code = await generateCommand.run(dataSource, ['--patients', '3000', '--seed', '14'], () => undefined);
    expect(code).toBe(0);
    await dataSource.query(`ANALYZE patients`);
    await dataSource.query(
      `INSERT INTO measure_results (patient_id, measure_id, period_start, period_end, status, reason_code, reason, populations, evidence, to_close, data_quality, data_version, run_id, computed_at)
       SELECT p.id, m, $1, $2, 'open-gap', 'x', 'x', '[]', '[]', 'x', '[]', p.data_version, 1, now() FROM patients p CROSS JOIN unnest($3::text[]) AS m`,
      [period.start, period.end, [...MEASURE_IDS]],
    );
    const [{ stats }] = await dataSource.query<{ stats: number }[]>(`SELECT count(*)::int AS stats FROM pg_stats WHERE tablename = 'measure_results'`);
    expect(stats).toBe(0);
    const ids = (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id`)).map((row) => row.id);
    bounds = [ids[1000], ids[1250]];
  }, 120_000);

  /** The plan of `statement` with `args` (values we produced ourselves, written as literals: EXECUTE takes no bind parameters). */
  const planOf = (statement: string, types: string, args: unknown[], mode: 'force_custom_plan' | 'force_generic_plan', analysed = false): Promise<PlanNode> =>
    db().dataSource.transaction(async (manager) => {
      // Statistics for this plan only: ANALYZE is transactional, and the transaction is rolled back.
      if (analysed) await manager.query(`ANALYZE measure_results`);
      const literals = args.map((value) => (value === null ? 'NULL' : Array.isArray(value) ? `'{${value.join(',')}}'` : `'${String(value)}'`)).join(', ');
      await manager.query(`SET LOCAL plan_cache_mode = ${mode}`);
      await manager.query(`PREPARE store_plan (${types}) AS ${statement}`);
      const [row] = await manager.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (FORMAT JSON) EXECUTE store_plan (${literals})`);
      await manager.query(`DEALLOCATE store_plan`);
      if (analysed) throw new RolledBack(row['QUERY PLAN'][0].Plan);
      return row['QUERY PLAN'][0].Plan;
    }).catch((error: unknown) => {
      if (error instanceof RolledBack) return error.plan;
      throw error;
    });

  // Without statistics the planner may walk a day-ordered index of every measure and pass over the
  // other measures' rows: a walk all the same. What must never happen is a sort of the team.
  const DAY_ORDERED = ['IDX_measure_results_last_evidence', 'IDX_measure_results_measure_status_last_evidence', 'IDX_measure_results_any_last_evidence', 'IDX_measure_results_status_last_evidence'];

  it.each([
    ['any status', null],
    ['open gaps', 'open-gap'],
  ] as const)('a one-measure worklist by the last result (%s) walks a day-ordered index to the page limit, with no sort of the team', async (_case, status) => {
    const { dataSource } = db();
    const [{ team }] = await dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
    for (const name of ['worklistByLastResultOfMeasureAsc', 'worklistByLastResultOfMeasureDesc'] as const) {
      const plan = await planOf(WORKLIST_STATEMENTS[name], 'uuid[], date, date, text, text, text, date, text, uuid, int, text', [[team], period.start, period.end, 'CMS165', status, null, null, null, null, 26, null], 'force_custom_plan');
      const nodes = flattenPage(plan);
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      const walked = nodes.filter((node) => node['Relation Name'] === 'measure_results').map((node) => node['Index Name']);
      expect(walked).toHaveLength(1);
      expect(DAY_ORDERED).toContain(walked[0]);
    }
  });

  it.each([
    ['any status', null, 'IDX_measure_results_any_last_evidence'],
    ['open gaps', 'open-gap', 'IDX_measure_results_status_last_evidence'],
  ] as const)('a worklist of every measure by the last result (%s) walks its index to the page limit, with no sort of the team', async (_case, status, index) => {
    const { dataSource } = db();
    const [{ team }] = await dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
    for (const name of ['worklistByLastResultAsc', 'worklistByLastResultDesc'] as const) {
      const plan = await planOf(WORKLIST_STATEMENTS[name], 'uuid[], date, date, text, text, text, date, text, uuid, int, text', [[team], period.start, period.end, null, status, null, null, null, null, 26, null], 'force_custom_plan');
      const nodes = flattenPage(plan);
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      expect(nodes.filter((node) => node['Relation Name'] === 'measure_results').map((node) => node['Index Name'])[0]).toBe(index);
    }
  });

  /**
   * The plan under the page's limit of a walk in a patient order, for CMS122's open gaps on the
   * largest team (analysed). How the page's 26 rows are then read is the planner's call: at 3,000
   * patients it may hash the table.
   */
  const walkOfPage = async (name: WorklistStatementName): Promise<PlanNode[]> => {
    const [{ team }] = await db().dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
    const plan = await planOf(WORKLIST_STATEMENTS[name], 'uuid[], date, date, text, text, text, text, text, uuid, int, text', [[team], period.start, period.end, 'CMS122', 'open-gap', null, null, null, null, 26, null], 'force_custom_plan', true);
    const limit = flattenPage(plan).find((node) => node['Node Type'] === 'Limit');
    expect(limit).toBeDefined();
    return flattenPage(limit!);
  };

  // The walk is under the page's limit: the order's index, read index-only, and no sort.
  it.each([
    ['worklistByNameAsc', 'IDX_patients_name_order'],
    ['worklistByNameDesc', 'IDX_patients_name_order'],
    ['worklistByAgeAsc', 'IDX_patients_birth_order'],
    ['worklistByAgeDesc', 'IDX_patients_birth_order'],
  ] as const)('%s (analysed) walks %s without reading the walked patients\' rows, to the page limit', async (name, index) => {
    const walk = await walkOfPage(name);
    expect(walk.filter((node) => node['Relation Name'] === 'patients').map((node) => [node['Node Type'], node['Index Name']])).toEqual([['Index Only Scan', index]]);
    expect(walk.map((node) => node['Node Type'])).not.toContain('Sort');
  });

  it.each([
    ['worklistByNameAscHashed', 'IDX_patients_name_order'],
    ['worklistByNameDescHashed', 'IDX_patients_name_order'],
    ['worklistByAgeAscHashed', 'IDX_patients_birth_order'],
    ['worklistByAgeDescHashed', 'IDX_patients_birth_order'],
  ] as const)('%s (analysed) walks %s checking each patient against a hash of the matching results, then probes the team', async (name, index) => {
    const walk = await walkOfPage(name);
    const walked = walk.filter((node) => node['Relation Name'] === 'patients');
    expect(walked.map((node) => [node['Node Type'], node['Index Name'], /^\(hashed SubPlan \d+\)$/.test(node.Filter ?? '')])).toEqual([['Index Only Scan', index, true]]);
    expect(walk.map((node) => node['Node Type'])).not.toContain('Sort');
    // The hash is read from the results by the filters alone, never probed per walked patient.
    const hashed = walk.filter((node) => node['Relation Name'] === 'measure_results');
    expect(hashed.map((node) => node['Parent Relationship'])).toEqual(['SubPlan']);
  });

  it.each([
    ['name', 'asc'], ['name', 'desc'], ['age', 'asc'], ['age', 'desc'],
  ] as const)('by %s %s, the hashed check and the probe give the same pages, keyset by keyset', async (sort, order) => {
    const { dataSource } = db();
    const [{ team }] = await dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
    type Row = { id: string; key1: string; key2: string | null };
    const walkAll = async (check: FilterCheck, filters: unknown[]): Promise<string[]> => {
      const ids: string[] = [];
      let after: Row | undefined;
      for (;;) {
        const rows: Row[] = await dataSource.query(WORKLIST_STATEMENTS[worklistStatementName(sort, order, true, check)], [[team], period.start, period.end, ...filters, after?.key1 ?? null, after?.key2 ?? null, after?.id ?? null, 40, null]);
        ids.push(...rows.map((row) => row.id));
        if (rows.length < 40) return ids;
        after = rows[rows.length - 1];
      }
    };
    // Some results closed, in the transaction only: a filter that keeps about a third of the team.
    await dataSource.query(`UPDATE measure_results SET status = 'closed-gap' WHERE measure_id = 'CMS122' AND substr(patient_id::text, 1, 1) IN ('0', '1', '2', '3', '4')`);
    try {
      for (const filters of [['CMS122', 'closed-gap', null], ['CMS122', 'open-gap', null], [null, null, 'x%']]) {
        const probed = await walkAll('probe', filters);
        expect(probed.length).toBeGreaterThan(40);
        expect(await walkAll('hashed', filters)).toEqual(probed);
      }
    } finally {
      await dataSource.query(`UPDATE measure_results SET status = 'open-gap' WHERE measure_id = 'CMS122'`);
    }
  });

  it.each(NULLABLE_PAGES)(
    '%s with the attestation filter reads the attested pairs once into a hash, never probing the closures per result it passes',
    async (name) => {
      const [{ team }] = await db().dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
      const measure = name.includes('OfMeasure') ? 'CMS122' : null;
      const plan = await planOf(WORKLIST_STATEMENTS[name], 'uuid[], date, date, text, text, text, text, text, uuid, int, text', [[team], period.start, period.end, measure, null, null, null, null, null, 26, 'attested-open'], 'force_custom_plan', true);
      const page = flattenPage(plan);
      const closures = page.filter((node) => node['Relation Name'] === 'care_gap_closures');
      expect(closures.length).toBeGreaterThan(0);
      expect(closures.map((node) => [node['Parent Relationship'], node['Index Cond'] ?? null])).toEqual(closures.map(() => ['SubPlan', null]));
      expect(page.some((node) => /hashed SubPlan/.test(node.Filter ?? ''))).toBe(true);
    },
  );

  it.each(NULLABLE_PAGES)(
    "%s reads each page patient's results by the primary key, and their attestations by index, in a subplan per page row (never a scan)",
    async (name) => {
      const [{ team }] = await db().dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
      const plan = await planOf(WORKLIST_STATEMENTS[name], 'uuid[], date, date, text, text, text, text, text, uuid, int, text', [[team], period.start, period.end, name.includes('OfMeasure') ? 'CMS122' : null, null, null, null, null, null, 26, null], 'force_custom_plan', true);
      const nodes = flatten(plan);
      const column = nodes.filter(isResultsColumn);
      expect(column).toHaveLength(1);
      // Inside it, an index scan (or a bitmap of one) of the results' primary key, keyed by the page row's patient;
      // and each result's attestations by the closures' (patient, measure) index, who filed them by primary keys.
      // The closures' index twice: probed for whether the result has an attestation, then read with who filed them.
      const scans = flatten(column[0]).filter((node) => node['Index Name']);
      expect(scans.map((node) => [node['Index Name'], /\bpatient_id = p\.id\b/.test(node['Index Cond'] ?? '')])).toEqual([
        ['PK_4a2e93d5b75456c0a8a7f2f2193', true],
        ['IDX_care_gap_closures_patient', false],
        ['IDX_care_gap_closures_patient', false],
        ['PK_db524c8db8e126a38a2f16d8cac', false],
        ['PK_c6b167335377df69f7910c2c75e', false],
      ]);
      for (const probe of scans.slice(1, 3)) expect(probe['Index Cond']).toMatch(/patient_id = r\.patient_id.*measure_id = r\.measure_id/);
      expect(flatten(column[0]).map((node) => node['Node Type'])).not.toContain('Seq Scan');
    },
  );

  it('worklistByNameAsc, run: who filed an attestation is read only for a result that has one (none here: that join never runs)', async () => {
    const [{ team }] = await db().dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`);
    const plan = await db().dataSource.transaction(async (manager) => {
      await manager.query(`PREPARE page_run (uuid[], date, date, text, text, text, text, text, uuid, int, text) AS ${WORKLIST_STATEMENTS.worklistByNameAsc}`);
      const [row] = await manager.query<{ 'QUERY PLAN': [{ Plan: PlanNode & { 'Actual Loops': number } }] }[]>(
        `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) EXECUTE page_run ('{${team}}', '${period.start}', '${period.end}', NULL, NULL, NULL, NULL, NULL, NULL, 26, NULL)`,
      );
      await manager.query(`DEALLOCATE page_run`);
      return row['QUERY PLAN'][0].Plan;
    });
    const column = flatten(plan).filter(isResultsColumn);
    expect(column).toHaveLength(1);
    const loops = (node: PlanNode) => (node as PlanNode & { 'Actual Loops': number })['Actual Loops'];
    // The page's results were read (six measures per patient), and each probed for an attestation.
    const results = flatten(column[0]).filter((node) => node['Relation Name'] === 'measure_results');
    expect(results.map(loops)).toEqual([26]);
    const closures = flatten(column[0]).filter((node) => node['Relation Name'] === 'care_gap_closures');
    expect(closures.map(loops)).toEqual([26 * MEASURE_IDS.length, 0]);
    // The join with the proposals and the staff, never.
    const join = flatten(column[0]).filter((node) => ['proposals', 'staff_users'].includes(node['Relation Name'] ?? ''));
    expect(join.length).toBeGreaterThan(0);
    expect(join.map(loops)).toEqual(join.map(() => 0));
  });

  // The fixed page statements (worklist-shape.ts), run as named prepared statements: on a generic plan after five runs.
  const FIXED = Object.keys(WORKLIST_STATEMENTS).filter((name) => name.includes('Fixed')) as WorklistStatementName[];
  const PAGE_TYPES = 'uuid[], date, date, text, text, text, text, text, uuid, int, text';
  const largestTeam = async (): Promise<string> =>
    (await db().dataSource.query<{ team: string }[]>(`SELECT care_team_id::text AS team FROM patient_care_teams GROUP BY care_team_id ORDER BY count(*) DESC LIMIT 1`))[0].team;
  /** What a fixed statement takes, as its name says: CMS165 and open gaps, and a keyset after (its keys' types). */
  const fixedArgs = (name: WorklistStatementName, team: string): unknown[] => {
    // Keys inside the cohort's: names, a birth date, a day of the results' (as the test below dates them).
    const key = name.startsWith('worklistByName') ? ['M', 'A'] : name.startsWith('worklistByAge') ? ['1960-01-01', null] : ['2026-01-10', null];
    const keyset = name.endsWith('After') ? [...key, randomUUID()] : [null, null, null];
    return [[team], period.start, period.end, /Measure/.test(name) ? 'CMS165' : null, /Status/.test(name) ? 'open-gap' : null, null, ...keyset, 26, null];
  };

  it.each(FIXED)('%s, on its generic plan (analysed), walks its index to the page limit, with no sort', async (name) => {
    const plan = await planOf(WORKLIST_STATEMENTS[name], PAGE_TYPES, fixedArgs(name, await largestTeam()), 'force_generic_plan', true);
    // Under the page's limit (a patient order then sorts the page's own rows by their keys).
    const limit = flattenPage(plan).find((node) => node['Node Type'] === 'Limit');
    expect(limit).toBeDefined();
    const walk = flattenPage(limit!);
    expect(walk.map((node) => node['Node Type'])).not.toContain('Sort');
    if (/^worklistBy(Name|Age)/.test(name)) {
      const index = name.startsWith('worklistByName') ? 'IDX_patients_name_order' : 'IDX_patients_birth_order';
      expect(walk.filter((node) => node['Relation Name'] === 'patients').map((node) => [node['Node Type'], node['Index Name']])).toEqual([['Index Only Scan', index]]);
    } else {
      // Every result here is an open gap, so the status index is no narrower than the others: any day-ordered walk.
      expect(DAY_ORDERED).toContain(walk.filter((node) => node['Relation Name'] === 'measure_results').map((node) => node['Index Name'])[0]);
    }
  });

  it.each(FIXED.filter((name) => name.includes('HashedFixed')))(
    '%s, on its generic plan (analysed), reads the hash by the measure it fixes, never a whole period of results',
    async (name) => {
      const plan = await planOf(WORKLIST_STATEMENTS[name], PAGE_TYPES, fixedArgs(name, await largestTeam()), 'force_generic_plan', true);
      const walk = flattenPage(flattenPage(plan).find((node) => node['Node Type'] === 'Limit')!);
      expect(walk.filter((node) => node['Relation Name'] === 'patients').map((node) => /^\(hashed SubPlan \d+\)/.test(node.Filter ?? ''))).toEqual([true]);
      // Read once, for the hash (an InitPlan of its subplan), by the measure as an index condition.
      const reads = walk.filter((node) => node['Relation Name'] === 'measure_results' || /^IDX_measure_results/.test(node['Index Name'] ?? ''));
      expect(reads.map((node) => node['Node Type'])).not.toContain('Seq Scan');
      expect(reads.filter((node) => /\bmeasure_id = \$\d+\b/.test(node['Index Cond'] ?? ''))).toHaveLength(1);
    },
  );

  it('each fixed statement, prepared, runs on its generic plan from its sixth run on (planned once, not per call)', async () => {
    const team = await largestTeam();
    const generic = await db().dataSource.transaction(async (manager) => {
      // Results dated over a month (in this transaction only), so that a keyset's day is not past every result's.
      await manager.query(`UPDATE measure_results SET last_evidence_on = DATE '2026-01-01' + (ascii(substr(patient_id::text, 2, 1)) % 20)`);
      await manager.query(`ANALYZE measure_results`);
      const chosen: [string, number][] = [];
      for (const name of FIXED) {
        await manager.query(`PREPARE fixed_page (${PAGE_TYPES}) AS ${WORKLIST_STATEMENTS[name]}`);
        const literals = fixedArgs(name, team).map((value) => (value === null ? 'NULL' : Array.isArray(value) ? `'{${value.join(',')}}'` : `'${String(value)}'`)).join(', ');
        for (let run = 0; run < 6; run += 1) await manager.query(`EXECUTE fixed_page (${literals})`);
        const [{ plans }] = await manager.query<{ plans: number }[]>(`SELECT generic_plans::int AS plans FROM pg_prepared_statements WHERE name = 'fixed_page'`);
        chosen.push([name, plans]);
        await manager.query(`DEALLOCATE fixed_page`);
      }
      throw new RolledBack({ 'Node Type': JSON.stringify(chosen) });
    }).catch((error: unknown) => {
      if (error instanceof RolledBack) return JSON.parse(error.plan['Node Type']) as [string, number][];
      throw error;
    });
    expect(generic).toEqual(FIXED.map((name) => [name, 1]));
  });

  it('a fixed statement bound with a filter it lacks, or without one it has, answers no rows', async () => {
    const team = await largestTeam();
    const page = (name: WorklistStatementName, status: string | null) =>
      db().dataSource.query(WORKLIST_STATEMENTS[name], [[team], period.start, period.end, null, status, null, null, null, null, 26, null]);
    expect(await page('worklistByNameAscFixedStatus', 'open-gap')).toHaveLength(26);
    expect(await page('worklistByNameAscFixed', 'open-gap')).toEqual([]);
    expect(await page('worklistByNameAscFixedStatus', null)).toEqual([]);
  });

  it.each([
    ['name', 'asc'], ['name', 'desc'], ['age', 'asc'], ['age', 'desc'], ['lastResult', 'asc'], ['lastResult', 'desc'],
  ] as const)('by %s %s, each fixed statement (probed, and hashed in a patient order) gives the pages of the NULL-able one, keyset by keyset', async (sort, order) => {
    const { dataSource } = db();
    const team = await largestTeam();
    type Row = { id: string; key1: string; key2: string | null };
    const walkAll = async (fixed: boolean, [measure, status]: (string | null)[], check: FilterCheck = 'probe'): Promise<Row[]> => {
      const rows: Row[] = [];
      let after: Row | undefined;
      for (;;) {
        const shape = fixed ? { measure: measure !== null, status: status !== null, after: after !== undefined } : null;
        const name = worklistStatementName(sort, order, measure !== null, check, shape);
        const page: Row[] = await dataSource.query(WORKLIST_STATEMENTS[name], [[team], period.start, period.end, measure, status, null, after?.key1 ?? null, after?.key2 ?? null, after?.id ?? null, 101, null]);
        rows.push(...page);
        if (page.length < 101) return rows;
        after = page[page.length - 1];
      }
    };
    // Some results closed and undated, in the transaction only: filters that keep part of the team, and ties of days.
    await dataSource.query(`UPDATE measure_results SET status = 'closed-gap', last_evidence_on = CASE WHEN substr(patient_id::text, 2, 1) < '8' THEN DATE '2026-01-01' + (ascii(substr(patient_id::text, 3, 1)) % 20) END WHERE measure_id = 'CMS122' AND substr(patient_id::text, 1, 1) IN ('0', '1', '2', '3', '4')`);
    try {
      for (const filters of [[null, null], ['CMS122', null], [null, 'closed-gap'], ['CMS122', 'closed-gap']]) {
        const nullable = await walkAll(false, filters);
        expect(nullable.length).toBeGreaterThan(101);
        expect(await walkAll(true, filters)).toEqual(nullable);
        if (sort !== 'lastResult' && filters[0] !== null) expect(await walkAll(true, filters, 'hashed')).toEqual(nullable);
      }
    } finally {
      await dataSource.query(`UPDATE measure_results SET status = 'open-gap', last_evidence_on = NULL WHERE measure_id = 'CMS122'`);
    }
  });

  for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
    it(`rangeChunkPatients (${mode}): patients by an id range, stored rows and failures by their primary keys`, async () => {
      const { dataSource } = db();
      // Values we read ourselves (uuids and days), written as literals: EXECUTE takes no bind parameters.
      const args = [...bounds, period.start, period.end].map((value) => `'${value}'`).join(', ');
      const plan = await dataSource.transaction(async (manager) => {
        await manager.query(`SET LOCAL plan_cache_mode = ${mode}`);
        await manager.query(`PREPARE chunk_plan (uuid, uuid, date, date, boolean, bigint, uuid[]) AS ${MEASURE_STATEMENTS.rangeChunkPatients}`);
        const [row] = await manager.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (FORMAT JSON) EXECUTE chunk_plan (${args}, true, 1, '{${randomUUID()}}')`);
        await manager.query(`DEALLOCATE chunk_plan`);
        return row['QUERY PLAN'][0].Plan;
      });
      const nodes = flatten(plan);
      const scans = nodes.filter((node) => node['Relation Name']).map((node) => `${node['Node Type']} ${node['Relation Name']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`);
      expect(scans.filter((scan) => scan.startsWith('Seq Scan'))).toEqual([]);
      const results = nodes.filter((node) => node['Relation Name'] === 'measure_results');
      expect(results.length).toBeGreaterThan(0);
      expect(results.map((node) => node['Index Name'])).toEqual(results.map(() => 'PK_4a2e93d5b75456c0a8a7f2f2193'));
      const failures = nodes.filter((node) => node['Relation Name'] === 'measure_result_failures');
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.map((node) => node['Index Name'])).toEqual(failures.map(() => 'PK_measure_result_failures'));
    });
  }
});

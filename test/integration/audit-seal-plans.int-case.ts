import { CHAIN_START } from '../../src/audit/audit-seal.repository';
import { SELECT_OLDEST_UNSEALED, SELECT_SEALABLE_EVENTS } from '../../src/audit/audit.sql';
import { useSeededDatabase } from '../setup/database';

/**
 * The statements the audit sealer runs on every pass (every `AUDIT_SEAL_INTERVAL_MS`, beside the
 * requests) must walk the (xact_id, id) index from the chain's head and never read the whole trail,
 * whatever the statistics say. The trail is written fast from empty, so a pass often meets
 * `audit_events` with no statistics yet: the lag's statement as a plain `min(occurred_at)` over
 * the rows after the head was then planned as a sequential scan of every event, each pass
 * (~17 ms a pass on a large trail, 300 ms at a million events). Checked in both plan forms a driver can get.
 */

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
const EVENTS = 100_000;

describe('audit sealer statement plans (real Postgres, a large trail without statistics)', () => {
  const db = useSeededDatabase();
  let head: { xactId: string; id: string };

  beforeAll(async () => {
    const { dataSource } = db();
    await dataSource.query(`ALTER TABLE audit_events SET (autovacuum_enabled = false)`);
    await dataSource.query(
      `INSERT INTO audit_events (occurred_at, action, outcome, hash_version, channel)
       SELECT now() - make_interval(secs => $1 - g), 'patient_labs', 'success', 2, 'rest' FROM generate_series(1, $1::int) g`,
      [EVENTS],
    );
    const [{ stats }] = await dataSource.query<{ stats: number }[]>(`SELECT count(*)::int AS stats FROM pg_stats WHERE tablename = 'audit_events'`);
    expect(stats).toBe(0);
    // The head: all but the last 20 events sealed.
    [head] = await dataSource.query(`SELECT xact_id::text AS "xactId", id::text AS id FROM audit_events ORDER BY xact_id, id OFFSET $1 LIMIT 1`, [EVENTS - 20]);
  }, 60_000);

  /** Scans of `audit_events` in the plan of `statement` with `args` (values of our own, as literals: EXECUTE takes no bind parameters). */
  const scansOf = (statement: string, types: string, args: (string | number)[], mode: 'force_custom_plan' | 'force_generic_plan'): Promise<string[]> =>
    db().dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL plan_cache_mode = ${mode}`);
      await manager.query(`PREPARE seal_plan (${types}) AS ${statement}`);
      const [row] = await manager.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (FORMAT JSON) EXECUTE seal_plan (${args.map((value) => `'${value}'`).join(', ')})`);
      await manager.query(`DEALLOCATE seal_plan`);
      return flatten(row['QUERY PLAN'][0].Plan)
        .filter((node) => node['Relation Name'] === 'audit_events')
        .map((node) => `${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`);
    });

  const INDEX_WALK = ['Index Scan using IDX_audit_events_xact_id_id'];

  for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
    it(`the lag's oldest unsealed event (${mode}): an index walk from the head, from the chain's start too`, async () => {
      expect(await scansOf(SELECT_OLDEST_UNSEALED, 'bigint, bigint', [head.xactId, head.id], mode)).toEqual(INDEX_WALK);
      expect(await scansOf(SELECT_OLDEST_UNSEALED, 'bigint, bigint', [CHAIN_START.xactId, CHAIN_START.id], mode)).toEqual(INDEX_WALK);
    });

    it(`the next batch (${mode}): an index walk from the head`, async () => {
      expect(await scansOf(SELECT_SEALABLE_EVENTS, 'bigint, bigint, bigint, int', [head.xactId, head.id, '9223372036854775807', 500], mode)).toEqual(INDEX_WALK);
    });
  }

  it('the lag still reads the oldest unsealed event', async () => {
    const { dataSource } = db();
    const [{ oldestMs }] = await dataSource.query(SELECT_OLDEST_UNSEALED, [head.xactId, head.id]);
    const [{ expected }] = await dataSource.query(
      `SELECT (extract(epoch FROM min(occurred_at)) * 1000)::float8 AS expected FROM audit_events WHERE (xact_id, id) > ($1::bigint, $2::bigint)`,
      [head.xactId, head.id],
    );
    expect(oldestMs).toBe(expected);
  });
});

import { AuditChannel, AuditOutcome, AuditService, verifyAuditChain } from '../../src/audit';
import { auditEventHash } from '../../src/audit/audit-hash';
import { SELECT_CHAIN_PAGE, ChainPageRow, storedContent } from '../../src/audit/audit.sql';
import { sealEverything, tamper } from '../setup/audit-seal';
import { auditEvents, ChainLink, chainLinks, GENESIS_HASH, intact, runCli, verify } from '../setup/audit-trail';
import { useSeededDatabase } from '../setup/database';

/** Changes to a sealed trail, each found by the verifier and by `audit-verify`, at the first broken link. */
describe('audit trail', () => {
  const { cohort, event, loadCohortIds } = auditEvents();

  describe('tampering is detected and the first broken link named', () => {
    const database = useSeededDatabase();
    let links: ChainLink[];
    const brokenAt = (index: number, count: number, reason: string) => ({
      ok: false,
      count,
      broken: { seq: String(index + 1), eventId: links[index].id, reason },
    });

    beforeAll(() => loadCohortIds(database().dataSource));

    // Each case starts from a fresh, intact, sealed chain of five events.
    beforeEach(async () => {
      await tamper(database().dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`);
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 5; index += 1) await sut.record(event({ rowCount: index }));
      await sealEverything(database().dataSource);
      links = await chainLinks(database().dataSource);
      expect(await verify(database().dataSource)).toMatchObject(intact(5));
    });

    it('a changed field: broken at that event, its content no longer matching its hash', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET fields = '{code}' WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(2, 2, 'hash_mismatch'));
    });

    it.each([
      ['the channel', `channel = 'cli'`],
      ['the break-glass flag', `break_glass = true, break_glass_reason = 'Unconscious in ED, covering'`],
      ['the actor name', `actor_name = 'root'`],
      ['the hash version (passing a version-3 event off as version 1)', `hash_version = 1`],
      ['the hash version (passing a version-3 event off as version 2)', `hash_version = 2`],
      ['the target staff member', `target_staff_id = '6f1c2a3b-0000-4000-8000-000000000001'`],
      ['the target care team', `target_care_team_id = '6f1c2a3b-0000-4000-8000-000000000002'`],
    ])('a changed %s (hash version 3): broken at that event', async (_name, change) => {
      await tamper(database().dataSource, `UPDATE audit_events SET ${change} WHERE id = $1`, [links[3].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 3, 'hash_mismatch'));
    });

    it('verifies a chain whose prefix was chained inline before the sealer (hash versions 1 and 2, links copied by the migration)', async () => {
      // The trail as the code before the sealer left it: links in the events themselves, xact_id 0 (the migration's value).
      await tamper(database().dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`);
      let prevHash = GENESIS_HASH;
      for (let index = 0; index < 4; index += 1) {
        const v1 = { occurredAt: `2026-06-30T09:00:0${index}.000000Z`, actorId: cohort.actorId, actorRole: 'clinician', patientId: cohort.patientIds[0], action: 'patient_labs', fields: ['code'], rowCount: index, outcome: AuditOutcome.Success, breakGlassReason: null, correlationId: null, prevHash };
        // The last one as version 2 (written after the channel columns existed).
        const content = index < 3 ? v1 : { ...v1, hashVersion: 2 as const, channel: AuditChannel.Rest, breakGlass: false, actorName: null };
        const hash = auditEventHash(content);
        await database().dataSource.query(
          `INSERT INTO audit_events (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome, break_glass_reason, correlation_id, prev_hash, hash, hash_version, channel, xact_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0)`,
          [v1.occurredAt, v1.actorId, v1.actorRole, v1.patientId, v1.action, v1.fields, v1.rowCount, v1.outcome, null, null, prevHash, hash, index < 3 ? 1 : 2, index < 3 ? null : 'rest'],
        );
        prevHash = hash;
      }
      // What migration 1764550000000 does with them.
      await database().dataSource.query(
        `INSERT INTO audit_seals (seq, event_id, prev_hash, hash) SELECT row_number() OVER (ORDER BY id), id, prev_hash, hash FROM audit_events ORDER BY id`,
      );
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 2; index += 1) await sut.record(event({ rowCount: index }));
      await sealEverything(database().dataSource);
      const versions = await database().dataSource.query(`SELECT e.hash_version AS v FROM audit_seals s JOIN audit_events e ON e.id = s.event_id ORDER BY s.seq`);
      // Versions 1 and 2 inline, then today's version-3 events: one chain, every version verified by its own columns.
      expect(versions.map((row: { v: number }) => row.v)).toEqual([1, 1, 1, 2, 3, 3]);
      expect((await chainLinks(database().dataSource))[4].prevHash).toBe(prevHash);
      expect(await verify(database().dataSource)).toMatchObject(intact(6));

      // The inline copy of a link is checked too.
      links = await chainLinks(database().dataSource);
      await tamper(database().dataSource, `UPDATE audit_events SET hash = $2 WHERE id = $1`, [links[1].id, 'e'.repeat(64)]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(1, 1, 'hash_mismatch'));
    });

    it('a timestamp moved by one microsecond: broken at that event', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET occurred_at = occurred_at + interval '1 microsecond' WHERE id = $1`, [
        links[1].id,
      ]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(1, 1, 'hash_mismatch'));
    });

    it('a changed event given a correctly recomputed link hash: broken at the next link, which no longer links to it', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET outcome = 'denied' WHERE id = $1`, [links[2].id]);
      const [changed] = await database().dataSource.query<ChainPageRow[]>(SELECT_CHAIN_PAGE, ['2', 1]);
      await tamper(database().dataSource, `UPDATE audit_seals SET hash = $1 WHERE seq = 3`, [auditEventHash(storedContent(changed, changed.prevHash))]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 3, 'prev_hash_mismatch'));
    });

    it('a deleted event: broken at its link, whose event is gone', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(2, 2, 'event_missing'));
    });

    it('a deleted event and its link in the middle: broken at the next link', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_seals WHERE seq = 3`);
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 2, 'seal_missing'));
    });

    it('a deleted first event: broken at the first link', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[0].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(0, 0, 'event_missing'));
    });

    it('an event slipped in behind the sealer (before its head): never sealed, reported once older than the grace period', async () => {
      await database().dataSource.query(
        `INSERT INTO audit_events (occurred_at, action, outcome, hash_version, channel, xact_id) VALUES (now() - interval '1 hour', 'patient_labs', 'success', 2, 'rest', 1)`,
      );
      await sealEverything(database().dataSource, { waitMs: 0 });
      const [{ id }] = await database().dataSource.query(`SELECT max(id)::text AS id FROM audit_events`);
      expect(await verify(database().dataSource)).toMatchObject({ ok: false, count: 5, unsealed: { count: 1, firstId: id } });
      expect(await verifyAuditChain(database().dataSource, { graceSeconds: 7200 })).toMatchObject(intact(5));
    });

    it('audit-verify exits 1 and names the broken link by seq and event id, never by its content', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET action = 'patient_encounters' WHERE id = $1`, [links[3].id]);
      const result = await runCli(database().dataSource);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`Audit chain broken at seq 4 (event id ${links[3].id})`);
      expect(result.output).toContain('Audit trail verification FAILED.');
      expect(result.output).not.toContain(cohort.patientIds[0]);
      expect(result.output).not.toContain('patient_encounters');
    });
  });
});

import { DataSource, QueryRunner } from 'typeorm';
import { StaffRole } from '../common/roles';
import { DIRECTORY_STATEMENTS } from './directory.sql';
import { WriteOutcome } from './fhir-import.types';
import { writeBatch } from './resource-writer';
import { Link, MappedCareTeam } from './map-care-team';
import { MappedPractitioner, RoleDecision } from './map-staff';

export interface StaffWrite {
  practitioner: MappedPractitioner;
  decision: RoleDecision;
}

/**
 * What writing a Practitioner did: its row's outcome, and `roleOutcome` (whether its role or active
 * flag changed: what its PractitionerRoles are counted as); `absent` when there is no row and the
 * decision makes none (not staff, and no current role to make them staff); or the database's refusal.
 */
export type StaffWritten =
  | { item: StaffWrite; outcome: WriteOutcome; roleOutcome: WriteOutcome; reactivated: boolean }
  | { item: StaffWrite; absent: true }
  | { item: StaffWrite; refused: string };

/** What writing a CareTeam did, with the warnings only the database could tell (a reference to nothing). */
export type TeamWritten = { team: MappedCareTeam; outcome: WriteOutcome; warnings: string[] } | { team: MappedCareTeam; refused: string };

/**
 * Whose access to which patients a write just took away (all patients: `null`, a deactivation), told
 * inside the transaction that took it, so that whatever must end with it (sessions, drafts, approvals:
 * the CLI's cut-off) commits together with the change or not at all.
 */
export interface AccessLoss {
  staffUserIds: string[];
  patientIds: string[] | null;
  cause: 'deactivated' | 'left_care_team';
}
export type AccessLossHook = (session: Pick<QueryRunner, 'query'>, loss: AccessLoss) => Promise<void>;

interface StaffRow {
  id: string;
  displayName: string;
  email: string | null;
  npi: string | null;
  fhirId: string | null;
  role: StaffRole;
  active: boolean;
}

/**
 * The import's writes of staff and care teams, a batch per transaction (`writeBatch`: a refused item
 * is retried and reported alone). Each row is read under lock first, so whether anything changed is known exactly:
 * an unchanged person or team is not written at all.
 */
export class DirectoryRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly onAccessLoss: AccessLossHook = async () => undefined,
  ) {}

  writeStaff(items: StaffWrite[]): Promise<StaffWritten[]> {
    return writeBatch(this.dataSource, items, (runner, batch) => this.staff(runner, batch), (item, refused): StaffWritten => ({ item, refused }));
  }

  writeTeams(teams: MappedCareTeam[]): Promise<TeamWritten[]> {
    return writeBatch(this.dataSource, teams, (runner, batch) => this.teams(runner, batch), (team, refused): TeamWritten => ({ team, refused }));
  }

  private async staff(runner: QueryRunner, items: StaffWrite[]): Promise<StaffWritten[]> {
    const rows: StaffRow[] = await runner.query(DIRECTORY_STATEMENTS.staffForUpdate, [items.map((item) => item.practitioner.rowId)]);
    const existing = new Map(rows.map((row) => [row.id, row]));
    const results: StaffWritten[] = [];
    const deactivated: string[] = [];
    for (const item of items) {
      const { practitioner: p, decision } = item;
      const old = existing.get(p.rowId);
      if (!old) {
        if (!('role' in decision)) {
          results.push({ item, absent: true });
          continue;
        }
        await runner.query(DIRECTORY_STATEMENTS.insertStaff, [p.rowId, p.username, p.displayName, p.email, p.npi, p.source.sourceId, decision.role, p.active]);
        results.push({ item, outcome: 'loaded', roleOutcome: 'loaded', reactivated: false });
        continue;
      }
      // Without a PractitionerRole in this import the role stays, and the person can be deactivated
      // but never reactivated: only a current role in the same import proves they should be active.
      const role = 'role' in decision ? decision.role : old.role;
      const active = 'role' in decision ? p.active : 'none' in decision ? false : old.active && p.active;
      const next: StaffRow = { id: old.id, displayName: p.displayName, email: p.email, npi: p.npi, fhirId: p.source.sourceId, role, active };
      const changed = (Object.keys(next) as (keyof StaffRow)[]).some((column) => next[column] !== old[column]);
      if (changed) await runner.query(DIRECTORY_STATEMENTS.updateStaff, [old.id, next.displayName, next.email, next.npi, next.fhirId, role, active]);
      if (old.active && !active) deactivated.push(old.id);
      results.push({
        item,
        outcome: changed ? 'updated' : 'unchanged',
        roleOutcome: role !== old.role || active !== old.active ? 'updated' : 'unchanged',
        reactivated: active && !old.active,
      });
    }
    if (deactivated.length) await this.onAccessLoss(runner, { staffUserIds: deactivated, patientIds: null, cause: 'deactivated' });
    return results;
  }

  private async teams(runner: QueryRunner, teams: MappedCareTeam[]): Promise<TeamWritten[]> {
    const results: TeamWritten[] = [];
    for (const team of teams) {
      const [old]: { name: string; fhirId: string | null }[] = await runner.query(DIRECTORY_STATEMENTS.teamForUpdate, [team.rowId]);
      let changed = false;
      if (!old) await runner.query(DIRECTORY_STATEMENTS.insertTeam, [team.rowId, team.code, team.name, team.source.sourceId]);
      else if (old.name !== team.name || old.fhirId !== team.source.sourceId) {
        await runner.query(DIRECTORY_STATEMENTS.updateTeam, [team.rowId, team.name, team.source.sourceId]);
        changed = true;
      }
      const warnings: string[] = [];
      const members = await this.resolve(runner, team.members, DIRECTORY_STATEMENTS.existingStaff, warnings);
      const patients = await this.resolve(runner, team.patients, DIRECTORY_STATEMENTS.existingPatients, warnings);
      const removed: string[][] = [];
      for (const [remove, add, ids] of [
        [DIRECTORY_STATEMENTS.removeMembers, DIRECTORY_STATEMENTS.addMembers, members],
        [DIRECTORY_STATEMENTS.removePatients, DIRECTORY_STATEMENTS.addPatients, patients],
      ] as const) {
        const [{ ids: gone }]: { ids: string[] }[] = await runner.query(remove, [team.rowId, ids]);
        const [added]: { n: number }[] = await runner.query(add, [team.rowId, ids]);
        removed.push(gone);
        changed ||= gone.length > 0 || added.n > 0;
      }
      // Everyone who was on the team, for every patient it had: the cut-off ends only what someone
      // can no longer reach (it checks access after the change), so those who keep access lose nothing.
      const [goneMembers, gonePatients] = removed;
      if (goneMembers.length || gonePatients.length) {
        await this.onAccessLoss(runner, { staffUserIds: [...goneMembers, ...members], patientIds: [...gonePatients, ...patients], cause: 'left_care_team' });
      }
      results.push({ team, outcome: !old ? 'loaded' : changed ? 'updated' : 'unchanged', warnings: [...new Set(warnings)] });
    }
    return results;
  }

  /** The row ids links lead to: this run's rows, and an earlier run's where the row exists (else its warning). */
  private async resolve(runner: QueryRunner, links: Link[], existing: string, warnings: string[]): Promise<string[]> {
    const ids = new Set<string>();
    const candidates = links.filter((link): link is Extract<Link, { candidate: string }> => 'candidate' in link);
    const found = candidates.length
      ? new Set((await runner.query(existing, [candidates.map((link) => link.candidate)]) as { id: string }[]).map((row) => row.id))
      : new Set<string>();
    for (const link of links) {
      if ('rowId' in link) ids.add(link.rowId);
      else if ('notLinked' in link) warnings.push(link.notLinked);
      else if (found.has(link.candidate)) ids.add(link.candidate);
      else warnings.push(link.missing);
    }
    return [...ids];
  }
}

import { DirectoryRepository, StaffWrite } from './directory.repository';
import { SkipResource } from './fhir-import.types';
import { ImportSummary } from './import-summary';
import { CareTeamResolver, Link, mapCareTeam, MappedCareTeam } from './map-care-team';
import { decideRole, DirectorySource, mapPractitioner, mapPractitionerRole, RoleGrant } from './map-staff';
import { keysOf, PatientTarget, rowIdIn, TargetIndex } from './references';

export interface DirectoryOptions {
  namespace: string;
  /** The `--source` name (team codes of a named source carry it). */
  source: string;
  nowMillis: number;
  batchSize: number;
  /** The Patients of this run, for the CareTeams' subjects. */
  patients: TargetIndex<PatientTarget>;
}

/** Why a member reference links nobody (warnings on the CareTeam; fixed phrases). */
const NOT_STAFF = 'member Practitioner is not a staff member (no PractitionerRole gives it a Vigil role; not linked)';
const MEMBER_SKIPPED = 'member Practitioner or PractitionerRole was itself skipped (not linked)';
const ROLE_NOT_CURRENT = 'member PractitionerRole is inactive or ended (not linked)';
const ROLE_NOT_IN_RUN = 'member PractitionerRole is not in this import (not linked; PractitionerRoles resolve within one run)';
const NO_STAFF_ROW = 'member resolves to no staff member of this import or an earlier one (not linked)';
const NO_PATIENT_ROW = 'subject resolves to no Patient of this import or an earlier one (no patient linked)';
const CONFLICT = 'conflicts with another current PractitionerRole of its Practitioner (one person holds one Vigil role)';

/**
 * People and teams from FHIR: PractitionerRoles are read in the first pass and kept (they decide
 * the role of the Practitioners written in the second), CareTeams are written in the third, when
 * every Patient, Practitioner and PractitionerRole of the run is known. Every resource is counted
 * or reported in the summary, as the clinical ones are.
 */
export class DirectoryImport {
  private readonly grants: RoleGrant[] = [];
  private readonly grantsByPractitioner = new Map<string, RoleGrant[]>();
  /** Grants already counted or reported. */
  private readonly settled = new Set<RoleGrant>();
  /** Practitioner and PractitionerRole keys → the staff row a CareTeam member links, or why none. */
  private readonly members = new Map<string, Link>();
  private practitioners: StaffWrite[] = [];
  private teams: MappedCareTeam[] = [];
  written = 0;

  constructor(
    private readonly writer: DirectoryRepository,
    private readonly summary: ImportSummary,
    private readonly options: DirectoryOptions,
  ) {}

  /** Maps (and for PractitionerRoles, keeps) one resource; true when a batch was written. */
  async add(source: DirectorySource): Promise<boolean> {
    try {
      if (source.type === 'PractitionerRole') return this.collectRole(source);
      if (source.type === 'Practitioner') {
        const practitioner = mapPractitioner(source, this.options.namespace);
        this.practitioners.push({ practitioner, decision: decideRole(this.grantsOf(practitioner.keys)) });
        if (this.practitioners.length < this.options.batchSize) return false;
        await this.flushPractitioners();
        return true;
      }
      this.teams.push(mapCareTeam(source, this.options, this.resolver));
      if (this.teams.length < this.options.batchSize) return false;
      await this.flushTeams();
      return true;
    } catch (error) {
      // Only the error's kind is reported: a message could quote the record.
      const reason = error instanceof SkipResource ? error.reason : `could not be read (${error instanceof Error ? error.name : 'error'})`;
      this.summary.skip(source.position, reason, source.type);
      if (source.type === 'CareTeam') return false;
      const keys = keysOf(source.type, source.sourceId, source.fullUrl);
      this.link(keys, { notLinked: MEMBER_SKIPPED });
      if (source.type === 'Practitioner') this.notWritten(this.grantsOf(keys), 'its Practitioner was itself skipped');
      return false;
    }
  }

  /** At the end of a pass: writes the Practitioners or CareTeams still pending. */
  async endPass(): Promise<void> {
    await this.flushPractitioners();
    await this.flushTeams();
  }

  /** After the Practitioners' pass: a PractitionerRole naming no Practitioner of the run is reported. */
  settleUnclaimedRoles(): void {
    for (const grant of this.grants) {
      if (this.settled.has(grant)) continue;
      this.reportGrant(grant, 'practitioner reference does not resolve to a Practitioner in this import');
      this.link(grant.keys, { notLinked: ROLE_NOT_IN_RUN });
    }
  }

  private collectRole(source: DirectorySource): false {
    const grant = mapPractitionerRole(source, this.options.nowMillis);
    this.grants.push(grant);
    this.grantsByPractitioner.set(grant.practitioner, [...(this.grantsByPractitioner.get(grant.practitioner) ?? []), grant]);
    // Reported at once, and still weighed in its Practitioner's decision (`decideRole`): a current role
    // Vigil cannot map leaves that person with no role unless another PractitionerRole gives one.
    if (grant.problem) this.reportGrant(grant, grant.problem);
    return false;
  }

  private grantsOf(keys: string[]): RoleGrant[] {
    return [...new Set(keys.flatMap((key) => this.grantsByPractitioner.get(key) ?? []))];
  }

  private reportGrant(grant: RoleGrant, reason: string): void {
    this.settled.add(grant);
    this.summary.skip(grant.source.position, reason, 'PractitionerRole');
  }

  /** The grants of a Practitioner that has no staff row: reported (unless they were), and linking nobody. */
  private notWritten(grants: RoleGrant[], reason: string, conflicting: RoleGrant[] = []): void {
    for (const grant of grants) {
      if (!this.settled.has(grant)) this.reportGrant(grant, conflicting.includes(grant) ? CONFLICT : reason);
      this.link(grant.keys, { notLinked: MEMBER_SKIPPED });
    }
  }

  private link(keys: string[], link: Link): void {
    keys.forEach((key) => {
      if (!this.members.has(key) || 'rowId' in link) this.members.set(key, link);
    });
  }

  private async flushPractitioners(): Promise<void> {
    const batch = this.practitioners;
    this.practitioners = [];
    for (const result of await this.writer.writeStaff(batch)) {
      const { practitioner, decision } = result.item;
      const grants = this.grantsOf(practitioner.keys);
      const { position } = practitioner.source;
      if ('refused' in result || 'absent' in result) {
        const noRole = 'none' in decision;
        if ('refused' in result) this.summary.skip(position, result.refused, 'Practitioner');
        else if (noRole) this.summary.skip(position, `${decision.none} (not imported)`, 'Practitioner');
        // Not named by any PractitionerRole and not staff: a practitioner of the clinical record, not a Vigil user.
        else this.summary.accept('Practitioner');
        this.link(practitioner.keys, { notLinked: 'absent' in result && !noRole ? NOT_STAFF : MEMBER_SKIPPED });
        const reason = 'refused' in result ? 'its Practitioner was refused by the database' : 'its Practitioner has no Vigil role (not imported)';
        this.notWritten(grants, reason, noRole ? decision.conflicting : []);
        continue;
      }
      this.written += 1;
      this.summary.counted('Practitioner', result.outcome);
      const warnings = [...practitioner.warnings];
      if ('none' in decision) warnings.push(`${decision.none} (staff member inactive)`);
      if (result.reactivated) warnings.push('reactivated: active in the source, with a current Vigil role');
      warnings.forEach((warning) => this.summary.warn(position, 'Practitioner', warning));
      this.link(practitioner.keys, { rowId: practitioner.rowId });
      const conflicting = 'none' in decision ? decision.conflicting : [];
      for (const grant of grants) {
        this.link(grant.keys, grant.current ? { rowId: practitioner.rowId } : { notLinked: ROLE_NOT_CURRENT });
        if (this.settled.has(grant)) continue;
        if (conflicting.includes(grant)) {
          this.reportGrant(grant, CONFLICT);
          continue;
        }
        this.settled.add(grant);
        this.written += 1;
        this.summary.counted('PractitionerRole', result.roleOutcome);
        grant.warnings.forEach((warning) => this.summary.warn(grant.source.position, 'PractitionerRole', warning));
      }
    }
  }

  private async flushTeams(): Promise<void> {
    const batch = this.teams;
    this.teams = [];
    for (const result of await this.writer.writeTeams(batch)) {
      const { position } = result.team.source;
      if ('refused' in result) {
        this.summary.skip(position, result.refused, 'CareTeam');
        continue;
      }
      this.written += 1;
      this.summary.counted('CareTeam', result.outcome);
      new Set([...result.team.warnings, ...result.warnings]).forEach((warning) => this.summary.warn(position, 'CareTeam', warning));
    }
  }

  private readonly resolver: CareTeamResolver = {
    member: (reference) => {
      const known = this.members.get(reference);
      if (known) return known;
      if (reference.startsWith('PractitionerRole/')) return { notLinked: ROLE_NOT_IN_RUN };
      const id = reference.replace(/^(urn:uuid:|Practitioner\/)/, '');
      return { candidate: rowIdIn(this.options.namespace, `Practitioner/${id}`), missing: NO_STAFF_ROW };
    },
    patient: (reference) => {
      const resolved = this.options.patients.resolve(reference);
      if ('found' in resolved) return { rowId: resolved.found.rowId };
      if ('skipped' in resolved) return { notLinked: 'subject patient was itself skipped (no patient linked)' };
      const id = reference.replace(/^(urn:uuid:|Patient\/)/, '');
      return { candidate: rowIdIn(this.options.namespace, `Patient/${id}`), missing: NO_PATIENT_ROW };
    },
  };
}

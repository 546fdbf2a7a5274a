import { HttpStatus, Injectable } from '@nestjs/common';
import { forbidden, patientNotFound } from '../auth/auth.problems';
import { ProblemException } from '../common/http/problem';
import { Caller } from '../auth/caller';
import type { AccessGate, CohortRead, PatientProbe } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';
import { AccessContext, mayBreakGlass } from './access-context';
import { AccessRepository } from './access.repository';
import { BREAK_GLASS_HEADER, BREAK_GLASS_REASON_MAX, BREAK_GLASS_REASON_MIN, isBreakGlassReason } from './break-glass';

/** Who may read the review queue: its list, one proposal, and its live event stream. */
export const QUEUE_READERS: readonly StaffRole[] = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
/** Who may find patients by MRN or name (among their care teams): the roles that treat and coordinate care. */
export const PATIENT_FINDERS: readonly StaffRole[] = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
/**
 * Who may read the de-identified population counts (`GET /population/measures`): analysts. Not the
 * privacy officer: overseeing access needs the audit trail, not the counts (minimum necessary), and
 * not the treating roles, who read their own patients' records instead.
 */
export const POPULATION_READERS: readonly StaffRole[] = [StaffRole.Analyst];
/** Who may read a care team's worklist (of a team they are on): the roles that close gaps and reach out. */
export const WORKLIST_READERS: readonly StaffRole[] = [StaffRole.Clinician, StaffRole.CareCoordinator];
/** Who may decide proposals (approve, reject, edit); never the proposer, whatever the role. */
export const DECIDERS: readonly StaffRole[] = [StaffRole.Reviewer];

/** Why a caller may read a patient: their care team, or an audited emergency ("break glass"). */
export interface PatientGrant {
  patientId: string;
  breakGlass: boolean;
}

/**
 * Every access rule of Vigil, one named check each (in the spirit of immich's `utils/access.ts`):
 * `patient.read`, `proposal.read`, `proposal.author`, `proposal.decide`, `queue.list`, `events.subscribe`, `worklist.read`, `population.read`. Batched
 * checks take ids and return the ids allowed; a caller turns "not allowed" into "not found", so an
 * id out of scope and an id that does not exist look the same. Nothing else decides access.
 */
@Injectable()
export class AccessService {
  constructor(private readonly repository: AccessRepository) {}

  /**
   * `patient.read`: on one of the caller's care teams, or, for a treating clinician reading as
   * themself (never through an agent turn; see `mayBreakGlass`), break glass with a reason. A patient outside
   * the teams and a missing patient get the same 404 from the same single query: in `read`, when the
   * check is part of one open cohort read (a tool's), else in a read of its own.
   */
  async patientRead(context: AccessContext, patientId: string, read?: CohortRead): Promise<PatientGrant> {
    const gate = this.patientReadGate(context, patientId);
    gate.admit(await this.repository.patient(patientId, gate.careTeamIds, read));
    return gate.granted();
  }

  /**
   * `patient.read` for a read that runs the access probe inside its own statement (a tool's, see
   * `AccessGate`): break glass is checked now, before any read; the statement reads the data only
   * on the caller's teams or with break glass allowed, and the gate decides on its probe's answer
   * by the same rule as `patientRead` (`decidePatientRead`).
   */
  patientReadGate(context: AccessContext, patientId: string): PatientReadGate {
    const caller = requireCaller(context);
    const reason = mayBreakGlass(context) ? context.breakGlassReason?.trim() || null : null;
    if (reason !== null) assertBreakGlassAllowed(caller, reason);
    return new PatientReadGate(patientId, caller.careTeamIds, reason !== null);
  }

  /**
   * `proposal.read`: the proposals among `ids` whose patient is on one of the caller's teams, and
   * that entered review or are the caller's own draft (someone else's draft is "not found").
   */
  async proposalRead(caller: Caller, ids: string[]): Promise<Set<string>> {
    if (!QUEUE_READERS.includes(caller.role) || ids.length === 0) return new Set();
    const rows = await this.repository.proposalsOnTeams(ids, caller.careTeamIds, caller.userId);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * `proposal.author`: the proposals among `ids` the caller may read and wrote (submit or discard a
   * draft, cancel a proposal). `readable` says which refused ones the caller may at least see (403, not 404).
   */
  async proposalAuthor(caller: Caller, ids: string[]): Promise<{ allowed: Set<string>; readable: Set<string> }> {
    const rows = QUEUE_READERS.includes(caller.role) && ids.length ? await this.repository.proposalsOnTeams(ids, caller.careTeamIds, caller.userId) : [];
    return { allowed: new Set(rows.filter((row) => row.proposerId === caller.userId).map((row) => row.id)), readable: new Set(rows.map((row) => row.id)) };
  }

  /**
   * `proposal.decide`: readable by the caller, the caller a decider, and not the proposer (four
   * eyes). `readable` says which of the refused ones the caller may at least see (403, not 404).
   */
  async proposalDecide(caller: Caller, ids: string[]): Promise<{ allowed: Set<string>; readable: Set<string> }> {
    const rows = QUEUE_READERS.includes(caller.role) && ids.length ? await this.repository.proposalsOnTeams(ids, caller.careTeamIds, caller.userId) : [];
    const decider = DECIDERS.includes(caller.role);
    return {
      allowed: new Set(rows.filter((row) => decider && row.proposerId !== caller.userId).map((row) => row.id)),
      readable: new Set(rows.map((row) => row.id)),
    };
  }

  /**
   * `patient.search`: the care teams the caller may search in, and the projection role their
   * results are cut to. Never for the agent's projection (a model finds no patients) or break glass.
   */
  patientSearch(context: AccessContext): { careTeamIds: string[]; role: StaffRole } {
    const caller = requireCaller(context);
    if (!PATIENT_FINDERS.includes(caller.role) || context.projectionRole === 'agent') throw forbidden();
    return { careTeamIds: caller.careTeamIds, role: caller.role };
  }

  /** `population.read`: the de-identified counts of every care team (never records); analysts only, never through an agent. */
  populationRead(context: AccessContext): void {
    const caller = requireCaller(context);
    if (!POPULATION_READERS.includes(caller.role) || context.projectionRole === 'agent') throw forbidden();
  }

  /**
   * `worklist.read`: the team with this code, for a clinician or care coordinator on it; any other
   * team (or none by that code) is the same 404, so a worklist says nothing about teams one is not on.
   */
  worklistRead(context: AccessContext, code: string): { careTeamId: string; role: StaffRole } {
    const caller = requireCaller(context);
    if (!WORKLIST_READERS.includes(caller.role) || context.projectionRole === 'agent') throw forbidden();
    // The caller's teams were read with their identity, in this request: no other read is needed.
    const index = caller.careTeamCodes.indexOf(code);
    if (index < 0) throw careTeamNotFound();
    return { careTeamId: caller.careTeamIds[index], role: caller.role };
  }

  /** `queue.list`: the care teams whose queue the caller may list (the queue's SQL filters by them). */
  queueList(caller: Caller): { careTeamIds: string[] } {
    if (!QUEUE_READERS.includes(caller.role)) throw forbidden();
    return { careTeamIds: caller.careTeamIds };
  }

  /**
   * `events.subscribe`: who may open the live queue; then, for each change, which of its patients the
   * subscriber may see now (membership, role and activity re-read on every check, so a stream
   * stops showing a team the moment its member leaves it).
   */
  eventsSubscribe(caller: Caller): { visiblePatients: (patientIds: string[]) => Promise<Set<string>> } {
    if (!QUEUE_READERS.includes(caller.role)) throw forbidden();
    return { visiblePatients: (patientIds) => this.repository.patientsOfActiveUser(caller.userId, QUEUE_READERS, patientIds) };
  }
}

/**
 * The rule of `patient.read` on the probe's answer: a missing patient and one off the caller's teams
 * are the same 404, unless break glass is allowed for this call (`breakGlass`).
 */
function decidePatientRead(patientId: string, breakGlass: boolean, probe: PatientProbe): PatientGrant {
  if (!probe.exists) throw patientNotFound();
  if (probe.onCareTeam) return { patientId, breakGlass: false };
  if (breakGlass) return { patientId, breakGlass: true };
  throw patientNotFound();
}

/** An `AccessGate` for `patient.read` (`AccessService.patientReadGate`), holding its grant once it admitted the caller. */
export class PatientReadGate implements AccessGate {
  private grant: PatientGrant | null = null;

  constructor(
    readonly patientId: string,
    readonly careTeamIds: string[],
    readonly breakGlass: boolean,
  ) {}

  admit(probe: PatientProbe): void {
    this.grant = decidePatientRead(this.patientId, this.breakGlass, probe);
  }

  /** The grant `admit` gave; fails closed when no probe was decided on (a read that never asked). */
  granted(): PatientGrant {
    if (!this.grant) throw new Error('patient.read: no access probe was decided on before the read was used');
    return this.grant;
  }
}

const careTeamNotFound = () => new ProblemException(HttpStatus.NOT_FOUND, 'care_team_not_found', 'Not Found', 'No such care team among yours.');

function requireCaller(context: AccessContext): Caller {
  if (!context.caller) throw new Error('patient.read needs a staff user: the service reads as itself only where it says so');
  return context.caller;
}

function assertBreakGlassAllowed(caller: Caller, reason: string): void {
  if (caller.role !== StaffRole.Clinician) throw forbidden('Emergency access is only available to treating clinicians.');
  // The REST edge refuses a malformed header with 400 first; this holds for every other way a context gets a reason.
  if (!isBreakGlassReason(reason)) {
    throw forbidden(`The ${BREAK_GLASS_HEADER} header must give a reason of ${BREAK_GLASS_REASON_MIN} to ${BREAK_GLASS_REASON_MAX} printable characters.`);
  }
}

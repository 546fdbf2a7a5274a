import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AuditOutcome, AuditRecordError, AuditService } from '../audit';
import { AuditEventInput } from '../audit/audit-event.input';
import { auditUnavailable } from '../audit/audit.problems';
import { PatientChart } from '../cohort/chart.types';
import { CohortRepository } from '../cohort/cohort.repository';
import { SqlSession } from '../schema/sql-session';
import { AccessContext, mayBreakGlass } from './access-context';
import { AuditBatch } from './audit-batch';

/** What an audited piece of work returns: its value, and what its audit row says about it. */
export interface AuditedResult<T> {
  value: T;
  /** Names of the fields that left (never values), or the ids the action touched (`proposal:<id>`). */
  fields: string[];
  rowCount: number;
  /** True when the access was allowed because of break glass. */
  breakGlass?: boolean;
  /** Default: `success` with rows, `empty` without. */
  outcome?: AuditOutcome;
}

/**
 * The handle an audited piece of work gets: its way to the whole chart (for the service's own
 * decisions), and to writing its success row inside its own transaction.
 */
export interface AuditScope {
  /** The patient the access turned out to concern, once the work knows it (a proposal's patient, say). */
  patientId: string | null;
  /** The whole record, uncut: for the service's own decisions (the executor), never for a response. */
  chart(patientId: string): Promise<PatientChart | null>;
  /**
   * Writes the success row inside `manager`'s transaction, so a state change and its record commit
   * or roll back together; the scope then writes no success row of its own.
   */
  recordIn(manager: SqlSession, fields: string[], rowCount: number): Promise<void>;
  /**
   * Writes the success row in the same statement as the work's own change: `statement` ends with
   * the audit insert (`insertAuditEventsAfter`), `parameters` are the change's. One round trip and
   * one commit for both; the scope then writes no success row of its own. When the statement fails
   * nothing of it was written, and the work goes on as if it had not been called.
   */
  recordWith(session: SqlSession, statement: string, parameters: readonly unknown[], fields: string[], rowCount: number): Promise<void>;
}

/** Errors whose access is on the trail already: the REST fallback must not record them twice. */
const AUDITED = new WeakSet<object>();

/** Whether an access that ended in `error` has been audited (by `AuditedAccess`). */
export function wasAudited(error: unknown): boolean {
  return typeof error === 'object' && error !== null && AUDITED.has(error);
}

function markAudited<E>(error: E): E {
  if (typeof error === 'object' && error !== null) AUDITED.add(error);
  return error;
}

/** The outcome an exception stands for in the audit trail. */
export function auditOutcomeOf(error: unknown): AuditOutcome {
  const status = error instanceof HttpException ? error.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
  if (status === HttpStatus.UNAUTHORIZED) return AuditOutcome.Unauthenticated;
  if (status === HttpStatus.FORBIDDEN || status === HttpStatus.TOO_MANY_REQUESTS) return AuditOutcome.Denied;
  if (status === HttpStatus.CONFLICT) return AuditOutcome.Conflict;
  if (status === HttpStatus.NOT_FOUND) return AuditOutcome.NotFound;
  if (status >= 400 && status < 500 && status !== HttpStatus.REQUEST_TIMEOUT) return AuditOutcome.Invalid;
  return AuditOutcome.Error;
}

/**
 * The one PHI path's audit half: every access — a tool read (REST, the agent, MCP), proposal
 * evidence, the executor, the event stream, a search or worklist page, the break-glass report, and
 * any surface to come — runs its work through here and leaves exactly one audit row per access with
 * the context's correlation id, channel and break-glass flag, on success and on every failure. When
 * the row cannot be written the caller gets a 503 problem and no data: nothing leaves unrecorded.
 * The access decision itself is `AccessService`'s; the work calls it first.
 */
@Injectable()
export class AuditedAccess {
  constructor(
    private readonly cohort: CohortRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Runs `work` as one audited access: exactly one row, whatever happens. `patientId` is the patient
   * asked about (null when not known yet; the work may set `scope.patientId`).
   */
  async audited<T>(context: AccessContext, patientId: string | null, work: (scope: AuditScope) => Promise<AuditedResult<T>>): Promise<T> {
    let recordedInTransaction = false;
    const scope: AuditScope = {
      patientId,
      chart: async (id) => (await this.cohort.chart(id)).chart,
      recordIn: async (manager, fields, rowCount) => {
        await this.audit.record(this.row(context, scope.patientId, { fields, rowCount, outcome: AuditOutcome.Success }), manager);
        recordedInTransaction = true;
      },
      recordWith: async (session, statement, parameters, fields, rowCount) => {
        await this.audit.recordWith(this.row(context, scope.patientId, { fields, rowCount, outcome: AuditOutcome.Success }), session, statement, parameters);
        recordedInTransaction = true;
      },
    };
    let result: AuditedResult<T>;
    try {
      result = await work(scope);
    } catch (error) {
      if (wasAudited(error)) throw error;
      // Its own record could not be written inside its transaction: nothing happened, nothing leaves.
      if (error instanceof AuditRecordError) throw markAudited(auditUnavailable());
      // An audit row written inside the work's transaction rolled back with it: the failure is recorded now.
      await this.recordOrFail(context, this.row(context, scope.patientId, { fields: [], rowCount: 0, outcome: auditOutcomeOf(error) }));
      throw markAudited(error);
    }
    if (!recordedInTransaction) {
      const outcome = result.outcome ?? (result.rowCount > 0 ? AuditOutcome.Success : AuditOutcome.Empty);
      await this.recordOrFail(context, this.row(context, scope.patientId, { fields: result.fields, rowCount: result.rowCount, outcome, breakGlass: result.breakGlass }));
    }
    return result.value;
  }

  /**
   * A read that shows several patients (a search, a worklist page): one row per patient shown (its
   * fields, row count 1), or one `empty` row naming no patient when none was; a failure is one row
   * naming no patient. `fields` describe the request's shape and what left, never its terms. The
   * rows are written together (the audit's group commit takes them in one round trip) and before
   * anything is returned: if one cannot be written, nothing leaves.
   */
  async auditedList<T>(context: AccessContext, work: () => Promise<{ value: T; patientIds: string[]; fields: string[] }>): Promise<T> {
    let result: { value: T; patientIds: string[]; fields: string[] };
    try {
      result = await work();
    } catch (error) {
      if (wasAudited(error)) throw error;
      await this.recordOrFail(context, this.row(context, null, { fields: [], rowCount: 0, outcome: auditOutcomeOf(error) }));
      throw markAudited(error);
    }
    const { patientIds, fields } = result;
    if (patientIds.length === 0) {
      await this.recordOrFail(context, this.row(context, null, { fields, rowCount: 0, outcome: AuditOutcome.Empty }));
    } else {
      await this.recordAllOrFail(context, patientIds.map((id) => this.row(context, id, { fields, rowCount: 1, outcome: AuditOutcome.Success })));
    }
    return result.value;
  }

  /**
   * A shared write for accesses started together (`AuditBatch`): their contexts carry a member of it
   * (`auditBatch`), and their rows commit together once every member has recorded or left.
   */
  batch(): AuditBatch {
    return new AuditBatch((events) => this.write(events));
  }

  /** One access's rows (or a batch's), committed on the audit trail's own connection before anything is returned. */
  private write(events: AuditEventInput[]): Promise<void> {
    return events.length === 1 ? this.audit.record(events[0]) : this.audit.recordAll(events);
  }

  /** A refusal that happened before any service ran (validation of the route's input): one row. */
  async refused(context: AccessContext, patientId: string | null, error: unknown): Promise<void> {
    if (wasAudited(error)) return;
    await this.recordOrFail(context, this.row(context, patientId, { fields: [], rowCount: 0, outcome: auditOutcomeOf(error) }));
    markAudited(error);
  }

  private row(
    context: AccessContext,
    patientId: string | null,
    what: { fields: string[]; rowCount: number; outcome: AuditOutcome; breakGlass?: boolean },
  ): AuditEventInput {
    const breakGlass = what.breakGlass === true;
    const succeeded = what.outcome === AuditOutcome.Success || what.outcome === AuditOutcome.Empty;
    // An agent turn never breaks glass, so a reason is never its to give (see `mayBreakGlass`).
    const reason = mayBreakGlass(context) ? context.breakGlassReason : null;
    return {
      actorId: context.caller?.userId ?? null,
      actorRole: context.caller?.role ?? context.channel,
      actorName: context.caller ? null : context.actorName,
      patientId,
      action: context.purpose,
      // An id acted on, like `proposal:<id>`: which session the access was part of.
      fields: context.sessionId ? [...what.fields, `session:${context.sessionId}`] : what.fields,
      rowCount: what.rowCount,
      outcome: what.outcome,
      // A refused attempt keeps the reason it gave; a success only when the reason was what let it in.
      breakGlassReason: succeeded && !breakGlass ? null : reason,
      breakGlass,
      channel: context.channel,
      correlationId: context.correlationId,
    };
  }

  /** Fail closed: an access whose row cannot be written answers 503 and returns nothing. */
  private async recordOrFail(context: AccessContext, event: AuditEventInput): Promise<void> {
    await this.recordAllOrFail(context, [event]);
  }

  /** As `recordOrFail` for the rows of one access, submitted together so they share one write. */
  private async recordAllOrFail(context: AccessContext, events: AuditEventInput[]): Promise<void> {
    // A read the guard's identity lookup left open (the request never reached its read) ends first:
    // the record needs a connection of its own.
    await context.requestRead?.end();
    try {
      if (context.auditBatch) await context.auditBatch.record(events);
      else await this.write(events);
    } catch (error) {
      if (error instanceof AuditRecordError) throw markAudited(auditUnavailable());
      throw error;
    }
  }
}


import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { CohortRepository } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';
import { ProblemException } from '../common/http/problem';
import { MeasureResultsRepository, WorklistPage } from '../measure-results/measure-results.repository';
import { InvalidResultCursorError } from '../measure-results/result-cursor';
import { computedAtOf, WORKLIST_RESULT_FIELD_NAMES, WorklistKeyset } from '../measure-results/worklist-page';
import { project, tupleProjector } from '../phi/projector';
import { CursorBinding, CursorSealer, invalidCursor } from '../phi/sealed-cursor';
import { isBuiltInMeasureName, resolveMeasureId } from '../clinical/care-gaps';
import { PublishedCareGapsService } from '../measure-packages';
import { todayUtc } from '../tools/envelope';
import { patientHeader } from '../tools/patient-header';
import { AuditedAccess } from '../access/audited-access.service';
import { WORKLIST_LIMIT_DEFAULT, WorklistPageDto, WorklistQueryDto } from './worklist.dto';

const resultsNotReady = () =>
  new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, 'measure_results_not_ready', 'Service Unavailable', 'Measure results are still being computed for the first time; try again shortly.', undefined, { 'retry-after': '30' });


/** The key a `measure` filter names: a built-in name resolved (KHE is CMS951), a loaded measure's key as given. */
const measureKey = (name: string): string => (isBuiltInMeasureName(name) ? resolveMeasureId(name) : name);

/** A worklist cursor opens only for the caller it was issued to and the same team, filters, sort and order. */
function cursorBinding(context: AccessContext, code: string, query: WorklistQueryDto, sort: string, order: string): CursorBinding {
  const measure = query.measure ? measureKey(query.measure) : null;
  return {
    list: 'worklist',
    userId: context.caller?.userId ?? '',
    query: { careTeam: code, measure, status: query.status, reason: query.reason, attestation: query.attestation, sort, order },
  };
}

/**
 * A care team's worklist: its patients with stored measure results matching the filters, a page at a
 * time, for a clinician or care coordinator on the team. Built on the stored results (each says when it
 * was computed and whether the data moved on since), projected for the caller's role, and audited as
 * one row per patient shown, with the team and the filters' shape (never a patient's name or MRN).
 */
@Injectable()
export class WorklistService {
  constructor(
    private readonly access: AccessService,
    private readonly results: MeasureResultsRepository,
    private readonly phi: AuditedAccess,
    private readonly cohort: CohortRepository,
    private readonly cursors: CursorSealer,
    private readonly published: PublishedCareGapsService,
  ) {}

  page(context: AccessContext, code: string, query: WorklistQueryDto): Promise<WorklistPageDto> {
    return this.phi.auditedList(context, async () => {
      const sort = query.sort ?? 'name';
      const order = query.order ?? 'asc';
      const binding = cursorBinding(context, code, query, sort, order);
      let page: WorklistPage | null;
      let role: StaffRole;
      try {
        // The period and the page: one read, continuing the guard's identity lookup (which read the caller's teams).
        ({ page, role } = await this.cohort.inOneRead(async (read) => {
          const access = this.access.worklistRead(context, code);
          // After the team check (another team's list is a 404 whatever the cursor), before any statement.
          const after = query.cursor === undefined ? undefined : this.openCursor(binding, query.cursor);
          const loaded = query.measure !== undefined && !isBuiltInMeasureName(query.measure) ? query.measure : undefined;
          const found = await this.results.worklistPage(
            {
              careTeamId: access.careTeamId, sort, order, after, limit: query.limit ?? WORKLIST_LIMIT_DEFAULT,
              measureId: query.measure ? measureKey(query.measure) : undefined, status: query.status, reason: query.reason, attestation: query.attestation,
            },
            // A loaded measure is one the stored period has a care gap for, or refused by name as care_gap_lookup refuses it.
            loaded === undefined ? undefined : (period) => this.published.requireCareGap(loaded, period),
            read,
          );
          return { page: found, role: access.role };
        }, context.requestRead));
      } catch (error) {
        if (error instanceof InvalidResultCursorError) throw invalidCursor('this list, filters, sort and order');
        throw error;
      }
      if (!page) throw resultsNotReady();
      // Ages as of the end of the period the results were computed for, like the measures' own.
      const ageOn = page.period.end < todayUtc() ? page.period.end : todayUtc();
      const headers = project('patient', role, page.patients.map((row) => patientHeader(row, ageOn)));
      // The results projected as the statement sent them (tuples), with no object built per result only to be cut.
      const projectResult = tupleProjector('worklist_result', role, WORKLIST_RESULT_FIELD_NAMES);
      let computedAt: string | null = null;
      const items = page.patients.map((row, i) => ({
        patient: headers.rows[i],
        results: row.results.map((result) => {
          const at = computedAtOf(result);
          if (computedAt === null || at < computedAt) computedAt = at;
          return projectResult(result);
        }),
      }));
      const fields = [`careTeam:${code}`, `sort:${sort}:${order}`, ...['measure', 'status', 'reason', 'attestation'].filter((key) => query[key as keyof WorklistQueryDto] !== undefined).map((key) => `filter:${key}`), ...Object.keys(headers.rows[0] ?? {}).sort()];
      return {
        value: { careTeam: code, period: page.period, items, nextCursor: page.last ? this.cursors.seal(binding, page.last) : null, computedAt },
        patientIds: page.patients.map((row) => row.id),
        fields,
      };
    });
  }

  /** The position a cursor holds, if this service sealed it for this binding; else `InvalidResultCursorError`. */
  private openCursor(binding: CursorBinding, cursor: string): WorklistKeyset {
    const position = this.cursors.open(binding, cursor);
    if (position === null) throw new InvalidResultCursorError();
    // Its shape is checked by the repository, before the keys reach SQL.
    return position as WorklistKeyset;
  }
}

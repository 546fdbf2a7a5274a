import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { MEASURE_IDS, MeasureId } from '../clinical/care-gaps';
import { CohortRepository } from '../cohort/cohort.repository';
import { FieldProblem, ProblemException } from '../common/http/problem';
import { measurementPeriod } from '../tools/definitions/care-gap-lookup.tool';
import { CareGapReport, ShownReport, ToolReadService } from '../tools/tool-read.service';
import { CareGapsQueryDto } from '../tools/dto/care-gaps-query.dto';
import { CareGapsOperationQueryDto } from './care-gaps-operation.dto';
import { FhirResource } from './fhir-profiles';
import { GapStatus, gapsDocument } from './gaps-document';
import { measureById, measureByIdentifier, measureByUrl } from './measure-canon';

/**
 * The most patients one care-team request evaluates: each is a live evaluation of six measures
 * over the whole record, so a larger team is asked per patient (or per measure) instead.
 */
export const MAX_TEAM_PATIENTS = 200;

/** A FHIR `Parameters` answer: one `return` Bundle per patient with a gap of a status asked for. */
export interface CareGapsParameters {
  resourceType: 'Parameters';
  parameter?: { name: 'return'; resource: FhirResource }[];
}

const invalid = (problems: FieldProblem[]) =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'One or more parameters are invalid; see `errors`.', problems);

/**
 * The Da Vinci DEQM `$care-gaps` operation over `care_gap_lookup`: the same evaluation, access and
 * projection as the tool (through `ToolReadService`), answered as gaps-in-care documents. One
 * patient is one audited access (`patient.read`, break glass included); a care team is one
 * audited list read (`worklist.read`, then `patient.read` for each of its patients), one audit row
 * per patient whose document left.
 */
@Injectable()
export class CareGapsOperationService {
  constructor(
    private readonly tools: ToolReadService,
    private readonly access: AccessService,
    private readonly cohort: CohortRepository,
  ) {}

  async careGaps(context: AccessContext, query: CareGapsOperationQueryDto): Promise<CareGapsParameters> {
    const { toolQuery, statuses } = operationQuery(query);
    const now = new Date().toISOString();
    const present = (report: CareGapReport): ShownReport<FhirResource | null> => {
      const document = gapsDocument(report, { statuses, now });
      if (!document) return { value: null, fields: [], rowCount: 0 };
      return { value: document.bundle, fields: documentFields(document.bundle), rowCount: document.measures.length };
    };
    const [kind, target] = query.subject.split('/', 2);
    const bundles =
      kind === 'Patient'
        ? [await this.tools.careGapReport(context, target, toolQuery, present)]
        : await this.tools.careGapReports(context, () => this.teamPatients(context, target), toolQuery, present);
    const parameter = bundles.filter((bundle): bundle is FhirResource => bundle !== null).map((resource) => ({ name: 'return' as const, resource }));
    return { resourceType: 'Parameters', ...(parameter.length ? { parameter } : {}) };
  }

  /** `worklist.read` on the team (another team, or none by that code, is the same 404), then its patients. */
  private async teamPatients(context: AccessContext, code: string): Promise<string[]> {
    const { careTeamId } = this.access.worklistRead(context, code);
    const { rows, truncated } = await this.cohort.teamPatients([careTeamId], MAX_TEAM_PATIENTS);
    if (truncated) {
      throw invalid([{ field: 'subject', reason: 'too_many_patients', message: `a care team is answered for at most ${MAX_TEAM_PATIENTS} patients; ask per patient (subject=Patient/<id>)` }]);
    }
    return rows.map((row) => row.id);
  }
}

/** The tool's query (period checked as the tool checks it, measures resolved) and the statuses asked for; a bad value is a 400 naming its parameter. */
export function operationQuery(query: CareGapsOperationQueryDto): { toolQuery: CareGapsQueryDto; statuses: GapStatus[] } {
  measurementPeriod({ periodStart: query.periodStart, periodEnd: query.periodEnd });
  const problems: FieldProblem[] = [];
  const measures = new Set<MeasureId>();
  const resolve = (field: 'measureId' | 'measureIdentifier' | 'measureUrl', by: (value: string) => MeasureId | undefined) => {
    for (const value of query[field] ?? []) {
      const id = by(value);
      if (id) measures.add(id);
      else problems.push({ field, reason: 'unknown_measure', message: `${field} names no measure Vigil evaluates (${MEASURE_IDS.join(', ')})` });
    }
  };
  resolve('measureId', measureById);
  resolve('measureIdentifier', measureByIdentifier);
  resolve('measureUrl', measureByUrl);
  if (problems.length > 0) throw invalid(problems);
  const measure = measures.size > 0 ? MEASURE_IDS.filter((id) => measures.has(id)) : undefined;
  return {
    toolQuery: Object.assign(new CareGapsQueryDto(), { periodStart: query.periodStart, periodEnd: query.periodEnd, ...(measure ? { measure } : {}) }),
    statuses: [...new Set(query.status)] as GapStatus[],
  };
}

/** What left, by name (never values): the resource types of the document and the element names of each, for the audit row. */
function documentFields(bundle: FhirResource): string[] {
  const fields = new Set<string>();
  for (const { resource } of bundle.entry as { resource: FhirResource }[]) {
    for (const key of Object.keys(resource)) if (key !== 'resourceType') fields.add(`${resource.resourceType}.${key}`);
  }
  return [...fields].sort();
}

import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { MEASURE_IDS, MeasureId } from '../clinical/care-gaps';
import { CohortRepository } from '../cohort/cohort.repository';
import { FieldProblem, ProblemException } from '../common/http/problem';
import { isUuid } from '../common/validation/uuid';
import { CursorBinding, CursorSealer } from '../phi/sealed-cursor';
import { measurementPeriod } from '../tools/definitions/care-gap-lookup.tool';
import { CareGapReport, ShownReport, ToolReadService } from '../tools/tool-read.service';
import { CareGapsQueryDto } from '../tools/dto/care-gaps-query.dto';
import { CareGapsOperationQueryDto, MAX_PAGE_PATIENTS } from './care-gaps-operation.dto';
import { FhirResource } from './fhir-profiles';
import { GapStatus, gapsDocument } from './gaps-document';
import { loadedCanon, measureById, measureByIdentifier, measureByUrl } from './measure-canon';
import { chooseEdition, IdentifiedMeasure, LoadedMeasureDto, MeasureCatalogueService } from '../measure-packages';

/** A FHIR `Parameters` answer: one `return` Bundle per patient with a gap of a status asked for. */
export interface CareGapsParameters {
  resourceType: 'Parameters';
  parameter?: { name: 'return'; resource: FhirResource }[];
}

/** The answer, and for a care team's page that is not its last, the query of the next page (for the `Link` header). */
export interface CareGapsAnswer {
  parameters: CareGapsParameters;
  next?: string;
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
    private readonly cursors: CursorSealer,
    private readonly catalogue: MeasureCatalogueService,
  ) {}

  async careGaps(context: AccessContext, query: CareGapsOperationQueryDto): Promise<CareGapsAnswer> {
    const loaded = await this.catalogue.loadedWithShortNames();
    const { toolQuery, statuses } = operationQuery(query, loaded);
    const now = new Date().toISOString();
    const loadedMeasure = (row: { measureId: string; periodStart: string; periodEnd: string }) => {
      const choice = chooseEdition(loaded.filter((edition) => edition.key === row.measureId).map(asEdition), { start: row.periodStart, end: row.periodEnd });
      if (!('chosen' in choice)) throw new Error('a loaded measure answered for a period no edition covers');
      return loadedCanon(choice.chosen.entry);
    };
    const present = (report: CareGapReport): ShownReport<FhirResource | null> => {
      const document = gapsDocument(report, { statuses, now, loadedMeasure });
      if (!document) return { value: null, fields: [], rowCount: 0 };
      return { value: document.bundle, fields: documentFields(document.bundle), rowCount: document.measures.length };
    };
    const [kind, target] = query.subject.split('/', 2);
    let next: string | undefined;
    const bundles =
      kind === 'Patient'
        ? [await this.tools.careGapReport(context, target, toolQuery, present)]
        : await this.tools.careGapReports(
            context,
            async () => {
              const page = await this.teamPage(context, target, query, toolQuery, statuses);
              next = page.next;
              return page.ids;
            },
            toolQuery,
            present,
          );
    const parameter = bundles.filter((bundle): bundle is FhirResource => bundle !== null).map((resource) => ({ name: 'return' as const, resource }));
    return { parameters: { resourceType: 'Parameters', ...(parameter.length ? { parameter } : {}) }, ...(next ? { next } : {}) };
  }

  /**
   * `worklist.read` on the team (another team, or none by that code, is the same 404, whatever the
   * cursor), then one page of its patients in id order. A team larger than one answer is paged only
   * when the caller asks for pages (`_count`), never cut: without it the request is refused.
   */
  private async teamPage(context: AccessContext, code: string, query: CareGapsOperationQueryDto, toolQuery: CareGapsQueryDto, statuses: GapStatus[]): Promise<{ ids: string[]; next?: string }> {
    const { careTeamId } = this.access.worklistRead(context, code);
    const binding = cursorBinding(context, code, toolQuery, statuses);
    let after: string | null = null;
    if (query._cursor !== undefined) {
      // A cursor that does not open (forged, expired, another user's or query's) is refused, never read as the first page.
      const opened = this.cursors.open(binding, query._cursor);
      if (!isUuid(opened)) throw invalid([{ field: '_cursor', reason: 'invalid_cursor', message: '_cursor was not issued to you for these parameters, or it has expired: start from the first page' }]);
      after = opened;
    }
    const paged = query._count !== undefined || query._cursor !== undefined;
    const { rows, truncated } = await this.cohort.teamPatientIdPage(careTeamId, after, query._count ?? MAX_PAGE_PATIENTS);
    if (truncated && !paged) {
      throw invalid([
        { field: 'subject', reason: 'too_many_patients', message: `a care team of more than ${MAX_PAGE_PATIENTS} patients is answered in pages: ask with _count (1–${MAX_PAGE_PATIENTS}) and follow the Link header (rel="next")` },
      ]);
    }
    const ids = rows.map((row) => row.id);
    return { ids, ...(truncated ? { next: nextPageQuery(query, this.cursors.seal(binding, ids[ids.length - 1])) } : {}) };
  }
}

/**
 * A page cursor opens only for the caller it was issued to and the same team, period, statuses and
 * measures (as resolved: `measureId=CMS122` and its canonical URL are the same query); the page size
 * may change between pages.
 */
function cursorBinding(context: AccessContext, code: string, toolQuery: CareGapsQueryDto, statuses: GapStatus[]): CursorBinding {
  return {
    list: 'deqm-care-gaps',
    userId: context.caller?.userId ?? '',
    query: { careTeam: code, periodStart: toolQuery.periodStart, periodEnd: toolQuery.periodEnd, status: [...statuses].sort().join(','), measure: toolQuery.measure?.join(',') ?? null },
  };
}

/** The next page's query string, as the GET form takes it: the same parameters, and the cursor. */
function nextPageQuery(query: CareGapsOperationQueryDto, cursor: string): string {
  const params = new URLSearchParams({ subject: query.subject, periodStart: query.periodStart, periodEnd: query.periodEnd });
  for (const status of query.status) params.append('status', status);
  for (const field of ['measureId', 'measureIdentifier', 'measureUrl'] as const) for (const value of query[field] ?? []) params.append(field, value);
  if (query._count !== undefined) params.set('_count', String(query._count));
  params.set('_cursor', cursor);
  return params.toString();
}

/** A catalogue entry as edition choice reads it (the entry kept beside). */
const asEdition = (entry: LoadedMeasureDto) => ({
  key: entry.key, version: entry.version, periodStart: entry.measurementPeriod?.start ?? null, periodEnd: entry.measurementPeriod?.end ?? null, loadedAt: entry.loadedAt, entry,
});

/**
 * The tool's query (period checked as the tool checks it, measures resolved) and the statuses asked
 * for; a bad value is a 400 naming its parameter. A measure is a built-in one (by Vigil's id, the
 * stewards' resource id, short name or canonical) or one loaded as data that care_gap_lookup reads
 * as a care gap (by its key, or its canonical URL with or without `|version`).
 */
export function operationQuery(query: CareGapsOperationQueryDto, loaded: readonly IdentifiedMeasure[] = []): { toolQuery: CareGapsQueryDto; statuses: GapStatus[] } {
  measurementPeriod({ periodStart: query.periodStart, periodEnd: query.periodEnd });
  const problems: FieldProblem[] = [];
  const builtIn = new Set<MeasureId>();
  const others: string[] = [];
  const evaluable = loaded.filter((entry) => entry.evaluable);
  const loadedKey = (field: 'measureId' | 'measureIdentifier' | 'measureUrl', value: string): string | undefined => {
    if (field === 'measureId') return evaluable.find((entry) => entry.key === value)?.key;
    if (field === 'measureUrl') {
      const [url, version] = value.split('|', 2);
      return evaluable.find((entry) => entry.url === url && (version === undefined || entry.version === version))?.key;
    }
    return byIdentifier(evaluable, value, { start: query.periodStart, end: query.periodEnd });
  };
  const resolve = (field: 'measureId' | 'measureIdentifier' | 'measureUrl', by: (value: string) => MeasureId | undefined) => {
    for (const value of query[field] ?? []) {
      const id = by(value);
      const key = id ? undefined : loadedKey(field, value);
      if (id) builtIn.add(id);
      else if (key) others.push(key);
      else problems.push({ field, reason: 'unknown_measure', message: `${field} names no measure Vigil evaluates (${MEASURE_IDS.join(', ')}, or a loaded measure GET /measures lists as evaluable)` });
    }
  };
  resolve('measureId', measureById);
  resolve('measureIdentifier', measureByIdentifier);
  resolve('measureUrl', measureByUrl);
  if (problems.length > 0) throw invalid(problems);
  const measure = builtIn.size + others.length > 0 ? [...MEASURE_IDS.filter((id) => builtIn.has(id)), ...new Set(others)] : undefined;
  return {
    toolQuery: Object.assign(new CareGapsQueryDto(), { periodStart: query.periodStart, periodEnd: query.periodEnd, ...(measure ? { measure } : {}) }),
    statuses: [...new Set(query.status)] as GapStatus[],
  };
}

/**
 * A loaded measure by `measureIdentifier`: its short name alone (`CMS139FHIR`, or its key) or
 * `system|value`. Editions sharing the identifier (each year's) are told apart as `measureId` tells
 * them: the one in force on the period's last day; when none is, the key they share, for the tool
 * to refuse by the same rule.
 */
function byIdentifier(evaluable: readonly IdentifiedMeasure[], value: string, period: { start: string; end: string }): string | undefined {
  const [system, code] = value.includes('|') ? value.split('|', 2) : [undefined, value];
  const named = evaluable.filter(
    (entry) => entry.shortNames.some((name) => name.value === code && (system === undefined || name.system === system)) || (system === undefined && entry.key === code),
  );
  if (named.length === 0) return undefined;
  const choice = chooseEdition(named.map(asEdition), period);
  return 'chosen' in choice ? choice.chosen.key : named[0].key;
}

/** What left, by name (never values): the resource types of the document and the element names of each, for the audit row. */
function documentFields(bundle: FhirResource): string[] {
  const fields = new Set<string>();
  for (const { resource } of bundle.entry as { resource: FhirResource }[]) {
    for (const key of Object.keys(resource)) if (key !== 'resourceType') fields.add(`${resource.resourceType}.${key}`);
  }
  return [...fields].sort();
}

import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { PatientGrant, PatientReadGate } from '../access/access.service';
import { patientNotFound } from '../auth/auth.problems';
import { citationId } from '../cohort/chart.types';
import { CohortRead, CohortRepository, RequestRead } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';
import { assertPolicyComplete, project } from '../phi/projector';
import { ProjectionRole } from '../phi/projection-role';
import { encounterRow } from './definitions/patient-encounters.tool';
import { observationRow } from './definitions/patient-labs.tool';
import { Tool } from './definitions/tool';
import { ToolEnvelope } from './envelope';
import { IdentifierFinderMemo, IdentifierKind, knownIdentifierScrubber, mapStrings, scrubQuestion } from '../phi/identifier-scrub';
import { PseudonymService } from '../phi/pseudonyms';
import { patientHeader } from './patient-header';
import { TOOL_NAMES, ToolName } from './tool-names';
import { citedItems, CitedItem, conditionRow, FoundRow } from './cited-evidence';
import { citationFormOf } from '../clinical/citation-grammar';
import { DerivedRowsService } from './derived-rows.service';

export const TOOLS = Symbol('TOOLS');

/** The access check of a tool read (`AccessService.patientRead`), run in the read it is handed, which the tool's reads then share. */
export type Authorize = (read: CohortRead) => Promise<PatientGrant>;

export interface CitedEvidence {
  observations: Record<string, unknown>[];
  encounters: Record<string, unknown>[];
  /** Every citation in the order cited: said in words as the role may see it, or withheld and why. */
  items: CitedItem[];
  redactedFields: string[];
}

/** Cited rows as whole records, each cut by the role's projection of its shape (`ToolsService.evidenceRows`). */
export interface EvidenceRows {
  observations: Record<string, unknown>[];
  encounters: Record<string, unknown>[];
  conditions: Record<string, unknown>[];
  redactedFields: string[];
}

/** Roles whose view keeps patient ids out: they get an opaque handle instead. */
const PSEUDONYMOUS: ReadonlySet<ProjectionRole> = new Set<ProjectionRole>([StaffRole.Analyst, 'agent']);

/**
 * Runs a tool: access first (the grant, decided by the caller's `authorize`), then the tool, then
 * the role's projection of every part of the result (the patient header, the rows, the summary).
 * Not exported by ToolsModule: every caller reaches it through `ToolReadService`, which audits (`AuditedAccess`).
 */
@Injectable()
export class ToolsService implements OnModuleInit {
  private readonly registry: Map<ToolName, Tool>;

  constructor(
    @Inject(TOOLS) tools: Tool[],
    private readonly cohort: CohortRepository,
    private readonly pseudonyms: PseudonymService,
    private readonly derivedRows: DerivedRowsService,
  ) {
    this.registry = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** Fail closed at start-up: every tool registered, every tool with a policy for every role. */
  onModuleInit(): void {
    const unregistered = TOOL_NAMES.filter((name) => !this.registry.has(name));
    if (unregistered.length) throw new Error(`Tools without an implementation: ${unregistered.join(', ')}`);
    assertPolicyComplete(['patient', ...TOOL_NAMES, 'feature_attribution_summary', 'cited_condition']);
  }

  /**
   * A proposal's cited rows, cut to the role exactly as the tools would cut them: observations as
   * `patient_labs` rows, encounters (with notes) as `patient_encounters` rows, and every citation as
   * an item in words (a condition by its `cited_condition` projection, a derived row recomputed and
   * cut by its tool's). Only for a patient the caller was granted.
   */
  async evidence(grant: PatientGrant, role: ProjectionRole, citations: string[]): Promise<CitedEvidence> {
    const { patientId } = grant;
    const idsOf = (kind: string) => citations.filter((citation) => citation.startsWith(`${kind}:`)).map((citation) => citation.slice(kind.length + 1));
    const found = await this.cohort.citedRows(patientId, { observations: idsOf('obs'), encounters: idsOf('enc'), conditions: idsOf('cond') });
    const derived = citations.filter((citation) => citationFormOf(citation)?.source === 'derived');
    const chart = derived.length > 0 ? (await this.cohort.chart(patientId)).chart : null;
    const labRows = found.observations.map(observationRow);
    const encounterRows = found.encounters.map(encounterRow);
    const rows = new Map<string, FoundRow>([
      ...labRows.map((row): [string, FoundRow] => [String(row.citation), { shape: 'patient_labs', row }]),
      ...encounterRows.map((row): [string, FoundRow] => [String(row.citation), { shape: 'patient_encounters', row }]),
      ...found.conditions.map(conditionRow).map((row): [string, FoundRow] => [String(row.citation), { shape: 'cited_condition', row }]),
      ...(chart ? await this.derivedRows.rows(chart, derived) : new Map<string, FoundRow>()),
    ]);
    const labs = project('patient_labs', role, labRows);
    const encounters = project('patient_encounters', role, encounterRows);
    const cited = citedItems(citations, rows, role);
    return {
      observations: labs.rows,
      encounters: encounters.rows,
      items: cited.items,
      redactedFields: [...new Set([...labs.redactedFields, ...encounters.redactedFields, ...cited.redactedFields])].sort(),
    };
  }

  /**
   * Cited rows as whole records, for a surface that hands them on as resources (a DEQM gaps-in-care
   * document): observations as `patient_labs` rows, encounters as `patient_encounters` rows without
   * their notes (a report cites the visit, not what was written in it) and conditions as
   * `cited_condition` rows, each cut by the role's projection. Other kinds are not read here. Only
   * for a patient the caller was granted.
   */
  async evidenceRows(grant: PatientGrant, role: ProjectionRole, citations: string[]): Promise<EvidenceRows> {
    const idsOf = (kind: string) => citations.filter((citation) => citation.startsWith(`${kind}:`)).map((citation) => citation.slice(kind.length + 1));
    const found = await this.cohort.citedRows(grant.patientId, { observations: idsOf('obs'), encounters: idsOf('enc'), conditions: idsOf('cond') });
    const withoutNotes = found.encounters.map((encounter) => {
      const { notes: _notes, ...row } = encounterRow({ ...encounter, notes: [] });
      return row;
    });
    const labs = project('patient_labs', role, found.observations.map(observationRow));
    const encounters = project('patient_encounters', role, withoutNotes);
    const conditions = project('cited_condition', role, found.conditions.map(conditionRow));
    return {
      observations: labs.rows,
      encounters: encounters.rows,
      conditions: conditions.rows,
      redactedFields: [...new Set([...labs.redactedFields, ...encounters.redactedFields, ...conditions.redactedFields])].sort(),
    };
  }

  tool(name: ToolName): Tool {
    const tool = this.registry.get(name);
    if (!tool) throw new Error(`Unknown tool ${name}`);
    return tool;
  }

  /**
   * The tools with data for a granted patient (`Tool.availableFor`), in catalogue order; nothing of
   * the record leaves. The access check and the chart share one read (continuing `request`'s, if it left one open).
   */
  async available(authorize: Authorize, request?: RequestRead): Promise<{ grant: PatientGrant; tools: ToolName[] }> {
    return this.cohort.inOneRead(async (read) => {
      const grant = await authorize(read);
      const needsChart = TOOL_NAMES.some((name) => this.tool(name).availableFor);
      const { chart } = needsChart ? await read.chart(grant.patientId) : { chart: null };
      if (needsChart && !chart) throw patientNotFound();
      const tools = TOOL_NAMES.filter((name) => {
        const tool = this.tool(name);
        return !tool.availableFor || (chart !== null && tool.availableFor(chart));
      });
      return { grant, tools };
    }, request);
  }

  /**
   * A question about a granted patient as a model may read it: the patient's own identifiers
   * replaced (`scrubQuestion`). The access probe and the patient's row are one statement, as a
   * tool's (`gatedPatient`), in the request's read; only the scrubbed text and the kinds replaced
   * leave. `finders`: the caller's memo of the patient's identifier finder (`IdentifierFinderMemo`).
   */
  async questionForModel(gate: PatientReadGate, question: string, finders?: IdentifierFinderMemo, request?: RequestRead): Promise<{ text: string; replaced: IdentifierKind[] }> {
    const patient = await this.cohort.inOneRead((read) => read.gatedPatient(gate), request);
    // Fails closed if the probe was not decided on.
    gate.granted();
    if (!patient) throw patientNotFound();
    return scrubQuestion(question, patient, finders);
  }

  /**
   * Runs tool `name` for the patient of `gate` (`AccessService.patientReadGate`), cut to `role`'s
   * projection. `finders`: the caller's memo of the patient's identifier finder, for the scrubbing
   * of a pseudonymous role's rows.
   */
  async invoke(gate: PatientReadGate, name: ToolName, role: ProjectionRole, query: object, finders?: IdentifierFinderMemo, request?: RequestRead): Promise<ToolEnvelope> {
    // The access probe, the tool's rows and the header: one statement, in one read transaction (continuing `request`'s, if it left one open).
    const output = await this.cohort.inOneRead((read) => this.tool(name).execute(read, gate, query), request);
    // Fails closed if the tool read nothing through the gate.
    const grant = gate.granted();
    const { patient } = output;

    const header = patientHeader(patient, output.ageOn);
    let rows = output.rows;
    if (PSEUDONYMOUS.has(role)) {
      header.handle = this.pseudonyms.patientHandle(patient.id);
      // One copy of the rows for both: a citation of the patient record itself (`pat:<id>`) becomes
      // `pat:<handle>`, then the patient's own identifiers are masked in free text.
      const ownCitation = citationId('pat', patient.id);
      const handleCitation = citationId('pat', header.handle as string);
      const scrub = knownIdentifierScrubber(patient, finders);
      rows = mapStrings(rows, (text, field) => scrub(text === ownCitation ? handleCitation : text, field));
    }
    const projectedHeader = project('patient', role, [header]);
    const projectedRows = project(name, role, rows);
    const projectedSummary = output.summary ? project('feature_attribution_summary', role, [output.summary]) : undefined;
    const redactedFields = [
      ...projectedHeader.redactedFields.map((field) => `patient.${field}`),
      ...projectedRows.redactedFields,
      ...(projectedSummary?.redactedFields.map((field) => `summary.${field}`) ?? []),
    ];

    return {
      tool: name,
      status: output.partial || output.truncated ? 'partial' : output.rows.length === 0 ? 'empty' : 'ok',
      patient: projectedHeader.rows[0],
      window: output.window,
      rows: projectedRows.rows,
      rowCount: projectedRows.rows.length,
      truncated: output.truncated,
      ...(output.truncation ? { truncation: output.truncation } : {}),
      redactedFields,
      assumptions: output.assumptions,
      breakGlass: grant.breakGlass,
      ...(projectedSummary ? { summary: projectedSummary.rows[0] } : {}),
    };
  }
}

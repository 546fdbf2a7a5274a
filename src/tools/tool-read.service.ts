import { Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService, PatientGrant } from '../access/access.service';
import { AuditedAccess } from '../access/audited-access.service';
import { AuditOutcome } from '../audit';
import { IdentifierFinderMemo, IdentifierKind } from '../phi/identifier-scrub';
import { ToolEnvelope } from './envelope';
import { returnedFields } from './tool-audit';
import { ToolName } from './tool-names';
import { CareGapsQueryDto } from './dto/care-gaps-query.dto';
import { CitedEvidence, EvidenceRows, ToolsService } from './tools.service';

/**
 * The five tools as every surface reads them (REST, the agent's tool calls, MCP): the access check
 * (`AccessService.patientRead`), the tool, the caller's projection, and one audit row for the
 * whole access (`AuditedAccess`). The registry that runs a tool unaudited is not exported.
 */
@Injectable()
export class ToolReadService {
  constructor(
    private readonly access: AccessService,
    private readonly tools: ToolsService,
    private readonly audited: AuditedAccess,
  ) {}

  /**
   * One of the five read tools for one patient, cut to the context's projection role. `finders`: a
   * memo of the patient's identifier finder kept by a caller that reads the patient again (an agent turn).
   */
  readTool(context: AccessContext, name: ToolName, patientId: string, query: object, finders?: IdentifierFinderMemo): Promise<ToolEnvelope> {
    return this.audited.audited(context, patientId, async () => {
      const envelope = await this.tools.invoke(this.access.patientReadGate(context, patientId), name, context.projectionRole, query, finders, context.requestRead);
      return { value: envelope, fields: returnedFields(envelope), rowCount: envelope.rowCount, breakGlass: envelope.breakGlass };
    });
  }

  /**
   * `care_gap_lookup` for one patient with the cited rows behind it (`ToolsService.evidenceRows`),
   * as one audited access: the same `patient.read` check, tool and projection as `readTool`. What
   * the surface makes of it (`present`) decides what the audit row says left, and whether anything
   * was shown (`empty` when not).
   */
  careGapReport<T>(context: AccessContext, patientId: string, query: CareGapsQueryDto, present: (report: CareGapReport) => ShownReport<T>): Promise<T> {
    return this.audited.audited(context, patientId, async () => {
      const report = await this.report(context, patientId, query);
      const shown = present(report);
      return { value: shown.value, fields: shown.fields, rowCount: shown.rowCount, breakGlass: report.envelope.breakGlass };
    });
  }

  /**
   * The same for the patients a list rule gives (a care team's, decided by `list` inside the
   * access), as one audited list read: one audit row per patient whose report was shown, or one
   * `empty` row; a refusal of the list is one row naming no patient. Each patient is still checked
   * with `patient.read`.
   */
  careGapReports<T>(context: AccessContext, list: () => Promise<string[]>, query: CareGapsQueryDto, present: (report: CareGapReport) => ShownReport<T>): Promise<T[]> {
    return this.audited.auditedList(context, async () => {
      const values: T[] = [];
      const patientIds: string[] = [];
      const fields = new Set<string>();
      for (const patientId of await list()) {
        const shown = present(await this.report(context, patientId, query));
        if (shown.rowCount === 0) continue;
        values.push(shown.value);
        patientIds.push(patientId);
        shown.fields.forEach((field) => fields.add(field));
      }
      return { value: values, patientIds, fields: [...fields].sort() };
    });
  }

  private async report(context: AccessContext, patientId: string, query: CareGapsQueryDto): Promise<CareGapReport> {
    const gate = this.access.patientReadGate(context, patientId);
    const envelope = await this.tools.invoke(gate, 'care_gap_lookup', context.projectionRole, query, undefined, context.requestRead);
    const citations = new Set<string>();
    for (const row of envelope.rows) {
      for (const group of (row.groups ?? []) as { evidence?: Record<string, string[]> }[]) Object.values(group.evidence ?? {}).flat().forEach((id) => citations.add(id));
      ((row.evidence ?? []) as string[]).forEach((id) => citations.add(id));
    }
    const evidence = await this.tools.evidenceRows(gate.granted(), context.projectionRole, [...citations]);
    return { patientId, envelope, evidence };
  }

  /**
   * Which of the five tools have data for this patient (a session that lists tools per patient, such
   * as MCP's), as one audited access: the same `patient.read` check as a tool read, nothing of the
   * record returned but tool names.
   */
  availableTools(context: AccessContext, patientId: string): Promise<{ tools: ToolName[]; breakGlass: boolean }> {
    return this.audited.audited(context, patientId, async () => {
      const { grant, tools } = await this.tools.available((read) => this.access.patientRead(context, patientId, read), context.requestRead);
      const value = { tools, breakGlass: grant.breakGlass };
      return { value, fields: tools.map((name) => `tool:${name}`), rowCount: 0, outcome: AuditOutcome.Success, breakGlass: grant.breakGlass };
    });
  }

  /**
   * A question about this patient as a model may read it, with the patient's identifiers replaced
   * (names, MRN, birth date, phone, e-mail, address) and the kinds replaced named: the same
   * `patient.read` check as a tool read, folded into its one statement as a tool's (continuing the
   * request's identity lookup read, and ending it). Only for work already inside an audited access (an agent turn's own).
   */
  questionForModel(context: AccessContext, patientId: string, question: string, finders?: IdentifierFinderMemo): Promise<{ text: string; replaced: IdentifierKind[] }> {
    return this.tools.questionForModel(this.access.patientReadGate(context, patientId), question, finders, context.requestRead);
  }

  /** A tool's public description (name, summary, argument DTO), for catalogues such as the agent's. */
  describeTool(name: ToolName): { name: ToolName; summary: string; queryDto: ToolsDescription['queryDto'] } {
    const tool = this.tools.tool(name);
    return { name: tool.name, summary: tool.summary, queryDto: tool.queryDto };
  }

  /**
   * A proposal's cited rows, cut to the context's projection role. Only for work already inside an
   * audited access (`AuditedAccess.audited`), with a grant `AccessService` gave for that patient.
   */
  evidence(context: AccessContext, grant: PatientGrant, citations: string[]): Promise<CitedEvidence> {
    return this.tools.evidence(grant, context.projectionRole, citations);
  }
}

type ToolsDescription = ReturnType<ToolsService['tool']>;

/** `care_gap_lookup` for one patient and the rows its evidence cites, both cut to the caller's projection. */
export interface CareGapReport {
  patientId: string;
  envelope: ToolEnvelope;
  evidence: EvidenceRows;
}

/** What a surface showed of a report: its value, the names of the fields that left, and how many rows (0: nothing shown). */
export interface ShownReport<T> {
  value: T;
  fields: string[];
  rowCount: number;
}

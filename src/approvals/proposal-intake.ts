import { Injectable } from '@nestjs/common';
import { citationFormOf } from '../clinical/citation-grammar';
import { PatientChart } from '../cohort/chart.types';
import { DerivedRowsService } from '../tools/derived-rows.service';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { Caller } from '../auth/caller';
import { CohortRepository } from '../cohort/cohort.repository';
import { validateDto } from '../common/validation/validate-dto';
import { AuditScope } from '../access/audited-access.service';
import { proposalContentHash } from './content-hash';
import { ProposalKind } from './enum';
import { ProposalExecutor } from './proposal-executor';
import { violatesConstraint } from './proposals.repository';
import { KIND_POLICY, KindPolicy } from './proposal-policy';
import { careGapNotOpen, duplicateProposal, invalidProposal, notAllowed } from './proposal.problems';
import { ProposalsRepository } from './proposals.repository';

/** What a proposal says, as filed (a request body) or as stored (a draft's version). */
export interface ProposalInput {
  kind: ProposalKind;
  content: Record<string, unknown>;
  rationale: string;
  citations: string[];
}

/** A proposal that passed every check, in the form it is stored and hashed in. */
export interface CheckedProposal extends ProposalInput {
  policy: KindPolicy;
  contentHash: string;
  /** Its content identity (`KindPolicy.identity`): what makes a second live proposal a duplicate. */
  identity: string;
}

/** The unique index behind the duplicate check (see the `Proposal` entity). */
const IDENTITY_INDEX = 'UQ_proposals_active_identity';

/**
 * What a proposal must pass to enter the workflow, in one place: when it is filed over REST, when
 * the agent drafts it, and again when its author submits a draft (the world may have changed in
 * between). The caller may propose the kind, the patient is on their care teams (no emergency
 * access), the content passes its kind's DTO, the citations name rows of that patient (stored or derived), a care gap
 * to close is open today, and nothing live already proposes the same thing.
 */
@Injectable()
export class ProposalIntake {
  constructor(
    private readonly repository: ProposalsRepository,
    private readonly access: AccessService,
    private readonly cohort: CohortRepository,
    private readonly executor: ProposalExecutor,
    private readonly derivedRows: DerivedRowsService,
  ) {}

  /** Checks `input` for `patientId` now; `scope` is the audited access the check belongs to (it reads the chart for a care gap). */
  async check(context: AccessContext, caller: Caller, scope: AuditScope, patientId: string, input: ProposalInput): Promise<CheckedProposal> {
    const policy = KIND_POLICY[input.kind];
    if (!policy.proposers.includes(caller.role)) throw notAllowed(`A ${caller.role} may not propose ${input.kind}.`);
    await this.access.patientRead({ ...context, breakGlassReason: null }, patientId);
    const content = storedForm(await validateDto(policy.content, input.content, 'content'));
    if (input.kind === ProposalKind.CloseCareGap) await this.executor.requireMeasure(String(content.measureId));
    const citations = [...new Set(input.citations)].sort();
    if (input.kind === ProposalKind.CloseCareGap && citations.length === 0) {
      throw invalidProposal('citations', 'arrayMinSize', 'A care gap is closed on evidence: cite at least one row (a remark code alone is not enough).');
    }
    const unknown = await this.unknownCitations(patientId, citations, () => scope.chart(patientId));
    if (unknown.length > 0) throw invalidProposal('citations', 'unknownCitation', `${unknown.length} citation(s) do not name a row of this patient.`);
    // Live, as the executor's precondition evaluates it: a closure of a gap that is not open is refused at the door.
    if (input.kind === ProposalKind.CloseCareGap && !(await this.executor.isOpenGap(await scope.chart(patientId), String(content.measureId)))) throw careGapNotOpen();
    const contentHash = proposalContentHash({ kind: input.kind, content, rationale: input.rationale, citations });
    return { kind: input.kind, content, rationale: input.rationale, citations, policy, contentHash, identity: policy.identity(content) };
  }

  /**
   * The citations that name no row of this patient: a stored row's id must be in the record, a
   * derived row's (`gap:`, `missing:`, `risk:`, `prediction:`) must be what its tool computes from the
   * chart today for the day or period the id carries. The chart is read only when one is derived.
   */
  async unknownCitations(patientId: string, citations: readonly string[], chart: () => Promise<PatientChart | null>): Promise<string[]> {
    const derived = citations.filter((citation) => citationFormOf(citation)?.source === 'derived');
    const existing = await this.cohort.existingCitations(patientId, citations.filter((citation) => !derived.includes(citation)));
    if (derived.length > 0) {
      const loaded = await chart();
      const rows = loaded ? await this.derivedRows.rows(loaded, derived) : new Map();
      for (const citation of rows.keys()) existing.add(citation);
    }
    return citations.filter((citation) => !existing.has(citation));
  }

  /** Refuses when a live proposal other than `self` has the same patient, kind and identity. */
  async refuseDuplicate(caller: Caller, patientId: string, kind: ProposalKind, identity: string, self: string | null = null): Promise<void> {
    const [duplicate] = await this.repository.run<{ id: string }>('liveDuplicate', [patientId, kind, identity, self]);
    if (!duplicate) return;
    const visible = await this.access.proposalRead(caller, [duplicate.id]);
    throw duplicateProposal(visible.has(duplicate.id) ? duplicate.id : null);
  }

  /**
   * Runs `work`, turning the unique index's refusal into the same problem: two filings that both
   * passed `refuseDuplicate` concurrently (the later one cannot be told which proposal won).
   */
  async unlessDuplicate<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (violatesConstraint(error, IDENTITY_INDEX)) throw duplicateProposal(null);
      throw error;
    }
  }
}

/** The content exactly as jsonb will store and return it (no undefined fields), so the hash matches later. */
export function storedForm(content: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(content)) as Record<string, unknown>;
}

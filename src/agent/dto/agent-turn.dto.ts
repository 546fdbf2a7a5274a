import { ApiProperty } from '@nestjs/swagger';
import { FreeTextField } from '../../common/validation/text';
import { ProposalKind, ProposalStatus } from '../../approvals/enum';
import { FACT_KINDS } from '../answer/fact-rendering';
import { TURN_REASON_CODES } from '../answer/turn-reasons';
import { IDENTIFIER_KINDS } from '../../phi/identifier-scrub';

export class AgentTurnRequestDto {
  @FreeTextField({ min: 3, max: 2000, description: 'A question about this patient. Requests to diagnose, prescribe or decide treatment are refused.' })
  question: string;
}

class AgentStatementDto {
  @ApiProperty({ enum: FACT_KINDS, description: 'The kind of fact, from a closed vocabulary; it decides which tool\'s rows it cites and how the sentence is written.' })
  kind: string;

  @ApiProperty({ description: 'Written by the server from the cited rows\' values (never the model\'s words). Record text it will not repeat reads "(text not repeated here: read the cited row)".' })
  text: string;

  @ApiProperty({ type: [String], description: 'The own citation ids of the rows a tool returned in this turn that the text was written from.' })
  citations: string[];

  @ApiProperty({ type: [String], description: 'The cited rows\' fields the text was written from.' })
  fields: string[];
}

/** Why a turn gave no statements: a code of a fixed vocabulary and its fixed text, all written by the server. */
class AgentTurnReasonDto {
  @ApiProperty({
    enum: TURN_REASON_CODES,
    description:
      'treatment_advice_not_given: the question asks to diagnose, prescribe or decide treatment; outside_this_patient: it is about another patient or a group; ' +
      'not_a_question_about_the_record: it is not about this patient\'s record; question_declined: declined without a reason Vigil recognises; ' +
      'nothing_in_record_answers: nothing the agent read answers it; not_in_what_the_agent_reads: the model looked for something no tool reads; ' +
      'answer_not_grounded: the facts chosen cited no row this turn read; budget_exhausted: a per-turn budget ran out first; ' +
      'model_unavailable: the model did not answer (unreachable, an error, too slow); model_reply_malformed: its reply was not in the accepted form; turn_failed: anything else went wrong. ' +
      'The model may at most choose a code about the question (the first three with its `refused`, nothing_in_record_answers or not_in_what_the_agent_reads with its `insufficient_data`); the server decides every other case and writes every word.',
  })
  code: string;

  @ApiProperty({ description: 'A fixed sentence for the code, written by the server (never the model\'s words).' })
  message: string;

  @ApiProperty({ type: [String], description: 'What may be asked instead: fixed text for the code, written by the server.' })
  suggestions: string[];
}

class AgentToolCallDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'The arguments as the model sent them (null when they were not JSON).', nullable: true })
  arguments: unknown;

  @ApiProperty({ description: 'Envelope status (ok, empty, partial), `filed` for a proposal, or the refusal kind.' })
  status: string;
}

class AgentUsageDto {
  @ApiProperty() modelCalls: number;
  @ApiProperty() toolCalls: number;
  @ApiProperty() promptTokens: number;
  @ApiProperty() completionTokens: number;
  @ApiProperty({ type: [String], description: 'Why each fact the model asked for was not stated (malformed, unknown_kind, no_citation, citation_count, unknown_citation, wrong_tool, wrong_row, trend_mismatch, duplicate, too_many).' })
  droppedStatements: string[];
  @ApiProperty({ description: 'The model\'s final reply carried words of its own (prose, summaries, statement text): they are discarded, never shown.' })
  modelTextDiscarded: boolean;
  @ApiProperty({ enum: ['model_calls', 'tokens', 'wall_time'], nullable: true, type: String, description: 'The per-turn budget that ended the turn before a final answer; null when the model answered.' })
  budgetExhausted: string | null;
  @ApiProperty({
    type: [String],
    enum: IDENTIFIER_KINDS,
    description: 'The kinds of this patient\'s identifiers that were replaced in the question (names by "the patient", the rest by placeholders such as "[MRN]") before it went to the model; empty when there were none or the question never went to the model. Kinds only, never the values.',
  })
  identifiersReplaced: string[];
}

/** A draft the agent filed in this turn: the clinician's to submit (`POST /proposals/{id}/submit`) or discard. */
class AgentDraftDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: ProposalKind })
  kind: ProposalKind;

  @ApiProperty({ enum: [ProposalStatus.Draft], description: 'Always `draft` when the turn answers: nothing the model does submits it.' })
  status: ProposalStatus;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the draft expires unexecuted unless submitted (PROPOSAL_DRAFT_TTL_MINUTES).' })
  expiresAt: string;
}

export class AgentTurnDto {
  @ApiProperty({ format: 'uuid' })
  turnId: string;

  @ApiProperty({ enum: ['answered', 'insufficient_data', 'refused', 'access_denied', 'conflict', 'failure'], description: 'Anything but `answered` carries no statements.' })
  status: string;

  @ApiProperty({ type: [AgentStatementDto] })
  statements: AgentStatementDto[];

  @ApiProperty({ type: AgentTurnReasonDto, nullable: true, description: 'Why the turn has no statements, for every status but `answered` (then null).' })
  reason: AgentTurnReasonDto | null;

  @ApiProperty({ type: [String], description: 'Ids of the drafts filed in this turn (as `drafts`): in nobody’s review until you submit them, never executed by the turn.' })
  proposals: string[];

  @ApiProperty({ type: [AgentDraftDto], description: 'The drafts filed in this turn, for you to submit or discard; each is seen by you alone.' })
  drafts: AgentDraftDto[];

  @ApiProperty({ type: [AgentToolCallDto] })
  toolCalls: AgentToolCallDto[];

  @ApiProperty({ type: AgentUsageDto })
  usage: AgentUsageDto;
}

class StoredToolCallDto {
  @ApiProperty({ description: 'Position of the call in the turn, from 0.' })
  seq: number;

  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'The arguments as the model sent them (null when they were not JSON).', nullable: true })
  arguments: unknown;

  @ApiProperty()
  status: string;

  @ApiProperty({ type: Number, nullable: true, description: 'Rows the tool returned; null for a refusal or a proposal.' })
  rowCount: number | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The result exactly as the model read it (agent projection, constant columns hoisted).' })
  envelope: unknown;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class StoredAgentTurnDto {
  @ApiProperty({ format: 'uuid' })
  turnId: string;

  @ApiProperty({ format: 'uuid' })
  patientId: string;

  @ApiProperty({ format: 'uuid', description: 'The clinician who asked.' })
  clinicianId: string;

  @ApiProperty({ enum: ['running', 'answered', 'insufficient_data', 'refused', 'access_denied', 'conflict', 'failure'] })
  status: string;

  @ApiProperty({ description: 'SHA-256 (hex) of the question: the text itself is not stored.' })
  questionHash: string;

  @ApiProperty({ type: [AgentStatementDto] })
  statements: unknown[];

  @ApiProperty({ type: AgentTurnReasonDto, nullable: true, description: 'Why the turn has no statements, as its answer gave it; null while running, when answered, and for turns stored before reasons were kept.' })
  reason: AgentTurnReasonDto | null;

  @ApiProperty({ type: [String] })
  proposals: string[];

  @ApiProperty({ type: AgentUsageDto, nullable: true, description: 'Null while the turn is running.' })
  usage: unknown;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt: string | null;

  @ApiProperty({ type: [StoredToolCallDto] })
  toolCalls: StoredToolCallDto[];
}

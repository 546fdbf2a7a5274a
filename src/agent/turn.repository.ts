import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import { AGENT_STATEMENTS as SQL } from './agent.sql';
import { isTurnReasonCode, TurnReason, turnReason, TurnReasonCode } from './answer/turn-reasons';

export interface StoredToolCall {
  seq: number;
  name: string;
  arguments: unknown;
  status: string;
  rowCount: number | null;
  envelope: unknown;
  createdAt: string;
}

export interface StoredTurn {
  turnId: string;
  patientId: string;
  clinicianId: string;
  status: string;
  questionHash: string;
  statements: unknown[];
  /** Why the turn has no statements, rebuilt from the stored code; null when answered or running, and for turns stored before reasons were. */
  reason: TurnReason | null;
  proposals: string[];
  usage: Record<string, unknown> | null;
  createdAt: string;
  finishedAt: string | null;
  toolCalls: StoredToolCall[];
}

/** One tool call of a turn as stored: `envelopeJson` is the JSON text of the result as the model read it. */
export interface ToolCallToStore {
  seq: number;
  name: string;
  arguments: unknown;
  status: string;
  rowCount: number | null;
  envelopeJson: string;
}

/** How a turn ended, as its row stores it. */
export interface EndedTurn {
  status: string;
  /** Null when answered. */
  reasonCode: TurnReasonCode | null;
  statements: unknown[];
  proposals: string[];
  usage: object;
}

/** Runs `statement` (the end, ending with the turn's audit row) on `session` with the end's `parameters` after the audit row's: `AuditScope.recordWith`. */
export type AuditedEnd = (session: SqlSession, statement: string, parameters: readonly unknown[]) => Promise<void>;

/** Only the hash of a question is kept (see AgentTurnRecord for why). */
export const questionHash = (question: string) => createHash('sha256').update(question, 'utf8').digest('hex');

/** Writes and reads the turn record (agent_turns, agent_tool_calls) with the fixed statements of agent.sql.ts. */
@Injectable()
export class TurnRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Records a new `running` turn unless the clinician has started `perHour` turns in the last
   * hour; then nothing is written and the answer says in how many seconds a turn frees up. One
   * round trip: the limit, its per-clinician lock and the insert are one statement (`startTurn`).
   */
  async start(turnId: string, patientId: string, clinicianId: string, question: string, perHour: number): Promise<{ started: true } | { started: false; retryAfterSeconds: number }> {
    const [{ retryAfterSeconds }] = await this.dataSource.query<{ retryAfterSeconds: number | null }[]>(SQL.startTurn, [turnId, patientId, clinicianId, questionHash(question), perHour]);
    return retryAfterSeconds === null ? { started: true } : { started: false, retryAfterSeconds };
  }

  /**
   * Stores the calls of one model reply in one statement. Each envelope is given as the JSON text
   * the model read (`envelopeJson`), spliced into the parameter as it is rather than parsed and
   * written again: the largest part of the turn record, and already JSON.
   */
  async toolCalls(turnId: string, calls: readonly ToolCallToStore[]): Promise<void> {
    if (calls.length === 0) return;
    const items = calls.map(
      (call) =>
        `{"seq":${JSON.stringify(call.seq)},"tool":${JSON.stringify(call.name)},"arguments":${JSON.stringify(call.arguments ?? null)},` +
        `"status":${JSON.stringify(call.status)},"row_count":${JSON.stringify(call.rowCount)},"envelope":${call.envelopeJson}}`,
    );
    // jsonb parameters go as JSON text: node-postgres would send a JS array as a Postgres array.
    await this.dataSource.query(SQL.insertToolCalls, [turnId, `[${items.join(',')}]`]);
  }

  /**
   * Ends a running turn once `stored` has resolved (the turn's tool calls are on record; if it
   * rejects, nothing is ended and its error is thrown). With `audited`, the end and the turn's
   * audit row are one statement (`finishTurnAudited`, run by `audited` with the end's parameters):
   * one round trip and one commit, never one without the other.
   */
  async finish(turnId: string, end: EndedTurn, stored: () => Promise<void>, audited?: AuditedEnd): Promise<void> {
    const parameters = [turnId, end.status, JSON.stringify(end.statements), end.proposals, JSON.stringify(end.usage), end.reasonCode];
    await stored();
    if (audited) await audited(this.dataSource, SQL.finishTurnAudited, parameters);
    else await this.dataSource.query(SQL.finishTurn, parameters);
  }

  async find(turnId: string, patientId: string): Promise<StoredTurn | undefined> {
    const [row] = await this.dataSource.query<(Omit<StoredTurn, 'toolCalls' | 'reason'> & { reasonCode: string | null })[]>(SQL.turnById, [turnId, patientId]);
    if (!row) return undefined;
    // Only the code is stored: the sentence and suggestions are the vocabulary's, as the turn's answer gave them.
    const { reasonCode, ...turn } = row;
    const reason = isTurnReasonCode(reasonCode) ? turnReason(reasonCode) : null;
    const toolCalls = await this.dataSource.query<StoredToolCall[]>(SQL.toolCallsOf, [turnId]);
    // Turns stored before questions were scrubbed sent theirs as typed: nothing was replaced in them.
    const usage = turn.usage && !('identifiersReplaced' in turn.usage) ? { ...turn.usage, identifiersReplaced: [] } : turn.usage;
    return { ...turn, reason, usage, toolCalls };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ToolName } from '../tools/tool-names';
import { MCP_SESSION_STATEMENTS as SQL } from './mcp-sessions.sql';
import { GovernanceChanges, StoredGovernance } from './session-governance';

/** A session as every process reads it: who opened it, for which patient, what was settled at `initialize`. */
export interface McpSession {
  id: string;
  userId: string;
  patientId: string;
  /** The reason given in the header when the session was opened; every read of the session carries it. */
  breakGlassReason: string | null;
  protocolVersion: string;
  /** The read tools the patient had data for when the session opened. */
  tools: ToolName[];
  /** ISO-8601 UTC: when the token that opened the session expires. */
  expiresAt: string;
}

/** Writes and reads `mcp_sessions` with the fixed statements of mcp-sessions.sql.ts. */
@Injectable()
export class McpSessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a new session, then ends expired sessions and the user's oldest beyond `maxPerUser`. */
  async create(session: McpSession, maxPerUser: number): Promise<void> {
    const { id, userId, patientId, breakGlassReason, protocolVersion, tools, expiresAt } = session;
    await this.dataSource.query(SQL.insertSession, [id, userId, patientId, breakGlassReason, protocolVersion, tools, expiresAt]);
    await this.dataSource.query(SQL.trimSessions, [userId, maxPerUser]);
  }

  /** The user's live session for this patient, marked used; undefined for anything else. */
  async touch(id: string, userId: string, patientId: string): Promise<McpSession | undefined> {
    const [rows] = await this.dataSource.query<[McpSession[], number]>(SQL.touchSession, [id, userId, patientId]);
    return rows[0];
  }

  /** Counts one more call and returns the governance to run it under; undefined when the session has ended. */
  async claimCall(id: string): Promise<StoredGovernance | undefined> {
    const [rows] = await this.dataSource.query<[StoredGovernance[], number]>(SQL.claimCall, [id]);
    return rows[0];
  }

  async recordCall(id: string, changes: GovernanceChanges): Promise<void> {
    await this.dataSource.query(SQL.recordCall, [id, changes.raisedTool, changes.failedCalls, changes.citable]);
  }

  /** Ends the user's live session; false when there was none to end. */
  async delete(id: string, userId: string, patientId: string): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(SQL.deleteSession, [id, userId, patientId]);
    return rows.length > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { onCareTeamsOfActiveUser } from '../access/access.sql';
import { StaffRole } from '../common/roles';
import { ToolName } from '../tools/tool-names';
import { MCP_SESSION_STATEMENTS as SQL } from './mcp-sessions.sql';
import { GovernanceChanges, StoredGovernance } from './session-governance';

/** A session as every process reads it: who opened it, for which patient, what was settled at `initialize`. */
export interface McpSession {
  id: string;
  userId: string;
  /** Null only while a picker session waits for its person to choose. */
  patientId: string | null;
  /** Opened on `/mcp`: the patient is chosen by the person in the session (and then bound for good). */
  picker: boolean;
  /** The reason given in the header when the session was opened; every read of the session carries it. */
  breakGlassReason: string | null;
  protocolVersion: string;
  /** The read tools the patient had data for when the session opened (or its patient was chosen). */
  tools: ToolName[];
  /** ISO-8601 UTC: when the session ends unless it is used again. */
  expiresAt: string;
}

/** A session whose patient is known. */
export type BoundSession = McpSession & { patientId: string };

/** How long sessions live, in seconds: without a request, and at most after the opening. */
export interface SessionLifetime {
  idleSeconds: number;
  maxSeconds: number;
  /** A break-glass session's most seconds after its opening (the shorter of this and `maxSeconds` applies). */
  breakGlassMaxSeconds: number;
}

/** A patient form's state, as the request waiting on it and the process receiving its answer read it. */
export interface PatientOffer {
  /** The session's patient, once bound (by this form's answer or another's). */
  patientId: string | null;
  tools: ToolName[];
  /** This form: the patients it offered, in order, and how it ended without one; null when the session has no such form. */
  offer: { patientIds: string[]; answer?: string } | null;
}

/** Writes and reads `mcp_sessions` with the fixed statements of mcp-sessions.sql.ts. */
@Injectable()
export class McpSessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a new session, then ends expired sessions and the user's oldest beyond `maxPerUser`. */
  async create(session: Omit<McpSession, 'expiresAt'>, maxPerUser: number, lifetime: SessionLifetime): Promise<void> {
    const { id, userId, patientId, picker, breakGlassReason, protocolVersion, tools } = session;
    await this.dataSource.query(SQL.insertSession, [id, userId, patientId, picker, breakGlassReason, protocolVersion, tools, lifetime.idleSeconds, lifetime.breakGlassMaxSeconds]);
    await this.dataSource.query(SQL.trimSessions, [userId, maxPerUser]);
  }

  /** The person's live session on this URL (`patientId` null: `/mcp`), marked used and kept alive; undefined for anything else. */
  async touch(id: string, userId: string, patientId: string | null, lifetime: SessionLifetime): Promise<McpSession | undefined> {
    const [rows] = await this.dataSource.query<[McpSession[], number]>(SQL.touchSession, [id, userId, patientId, lifetime.idleSeconds, lifetime.maxSeconds, lifetime.breakGlassMaxSeconds]);
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

  /** Ends the person's live session on this URL; false when there was none to end. */
  async delete(id: string, userId: string, patientId: string | null): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(SQL.deleteSession, [id, userId, patientId]);
    return rows.length > 0;
  }

  /** Records a patient form sent under `requestId`; false when the session has ended or has its patient already. */
  async offerPatients(id: string, requestId: string, patientIds: string[]): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(SQL.offerPatients, [id, requestId, JSON.stringify(patientIds)]);
    return rows.length > 0;
  }

  /** The session's patient and the form `requestId`; undefined when the session has ended. */
  async patientOffer(id: string, requestId: string): Promise<PatientOffer | undefined> {
    const rows = await this.dataSource.query<PatientOffer[]>(SQL.patientOffer, [id, requestId]);
    return rows[0];
  }

  /** Marks the form `requestId` ended without a patient (`decline`, `cancel`, …). */
  async answerOffer(id: string, requestId: string, answer: string): Promise<void> {
    await this.dataSource.query(SQL.answerOffer, [id, requestId, answer]);
  }

  /** Binds the session's patient from the form `requestId`; false when a patient was bound already (or the session ended). */
  async bindPatient(id: string, requestId: string, patientId: string, tools: ToolName[]): Promise<boolean> {
    const [rows] = await this.dataSource.query<[unknown[], number]>(SQL.bindPatient, [id, requestId, patientId, tools]);
    return rows.length > 0;
  }
}

/**
 * $1 users, $2 patients (all when null), $3 every role: the sessions of those users on those patients
 * that they no longer see (deactivated, or off the patient's every care team). A picker session still
 * waiting for its patient has none, and ends only with a deactivation. The admin command's statement
 * (not the request path's), kept beside the one function that runs it.
 */
const END_SESSIONS_WITHOUT_ACCESS = `DELETE FROM mcp_sessions s WHERE s.user_id = ANY($1::uuid[]) AND ($2::uuid[] IS NULL OR s.patient_id = ANY($2::uuid[]))
  AND NOT ${onCareTeamsOfActiveUser('s.patient_id', 's.user_id', '$3')}
RETURNING s.id, s.user_id AS "userId", s.patient_id AS "patientId"`;

/**
 * Ends, inside the caller's transaction (the admin change that took the access away), the sessions
 * of `staffUserIds` on `patientIds` (every patient when null) that they can no longer read. A session
 * is its row: each request builds its transport from it and none outlives its answer, so once the
 * row is gone every process answers the session's next request as an unknown session (404).
 */
export async function endSessionsWithoutAccess(
  session: Pick<EntityManager, 'query'>,
  staffUserIds: string[],
  patientIds: string[] | null,
): Promise<{ id: string; userId: string; patientId: string | null }[]> {
  const [ended] = await session.query<[{ id: string; userId: string; patientId: string | null }[], number]>(END_SESSIONS_WITHOUT_ACCESS, [
    staffUserIds,
    patientIds,
    Object.values(StaffRole),
  ]);
  return ended;
}

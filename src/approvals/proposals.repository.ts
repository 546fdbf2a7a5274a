import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import { WRITER_SESSION } from '../cohort/read-session.statements';
import { APPROVAL_STATEMENTS } from './approvals.sql';

/** Every statement of the approval workflow, by name: the fixed SQL of `approvals.sql.ts`. */
const STATEMENTS = { ...APPROVAL_STATEMENTS, becomeWriter: WRITER_SESSION.become, leaveWriter: WRITER_SESSION.leave } as const;
export type ApprovalStatementName = keyof typeof STATEMENTS;

/**
 * A transaction of the approval workflow: named statements only, and the session itself for the
 * one thing that must share it (an audit row committed with the change it records).
 */
export interface ApprovalTransaction extends SqlSession {
  run<R>(name: ApprovalStatementName, params?: unknown[]): Promise<R[]>;
}

/**
 * The only code that runs the approval workflow's SQL (proposals, versions, decisions, outbox,
 * effects): as the cohort repository does for patient data, every call runs one named, fixed,
 * parameterised statement, alone or inside a transaction the service opens.
 */
@Injectable()
export class ProposalsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<R>(name: ApprovalStatementName, params: unknown[] = []): Promise<R[]> {
    return this.dataSource.query<R[]>(STATEMENTS[name], params);
  }

  transaction<T>(work: (tx: ApprovalTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(approvalTransaction(manager)));
  }
}

/** The approval workflow's named statements inside a transaction someone else opened (the admin command's). */
export function approvalTransaction(session: SqlSession): ApprovalTransaction {
  return {
    run: <R>(name: ApprovalStatementName, params: unknown[] = []) => session.query<R[]>(STATEMENTS[name], params),
    query: (query, parameters) => session.query(query, parameters),
  };
}

/** Whether `error` is the database refusing a write because of the named unique index or constraint. */
export function violatesConstraint(error: unknown, constraint: string): boolean {
  return error instanceof QueryFailedError && (error.driverError as { constraint?: string } | undefined)?.constraint === constraint;
}

import { HttpException, HttpStatus } from '@nestjs/common';
import { AuditOutcome } from '../audit';
import { ToolEnvelope } from './envelope';

/** The outcome an exception stands for in the audit trail. */
export function auditOutcomeOf(error: unknown): AuditOutcome {
  const status = error instanceof HttpException ? error.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
  if (status === HttpStatus.UNAUTHORIZED) return AuditOutcome.Unauthenticated;
  if (status === HttpStatus.FORBIDDEN || status === HttpStatus.TOO_MANY_REQUESTS) return AuditOutcome.Denied;
  if (status === HttpStatus.CONFLICT) return AuditOutcome.Conflict;
  if (status === HttpStatus.NOT_FOUND) return AuditOutcome.NotFound;
  if (status >= 400 && status < 500 && status !== HttpStatus.REQUEST_TIMEOUT) return AuditOutcome.Invalid;
  return AuditOutcome.Error;
}

/** Names of the fields that left in an envelope (never values): `patient.age`, `value`, `notes.text`. */
export function returnedFields(envelope: ToolEnvelope): string[] {
  const fields = new Set<string>();
  const collect = (value: unknown, prefix: string) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, item] of Object.entries(value)) {
      fields.add(`${prefix}${key}`);
      if (Array.isArray(item)) item.forEach((element) => collect(element, `${prefix}${key}.`));
    }
  };
  collect(envelope.patient, 'patient.');
  envelope.rows.forEach((row) => collect(row, ''));
  collect(envelope.summary, 'summary.');
  return [...fields].sort();
}

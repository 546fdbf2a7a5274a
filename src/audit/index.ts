/** The audit module's public surface: what other modules may import. */
export { AuditModule } from './audit.module';
export { AUDIT_WRITE_LIMITS, AuditService, AuditUnavailableError } from './audit.service';
export { AuditRecordError } from './audit-event.input';
export type { AuditEventInput } from './audit-event.input';
export { AuditChannel, AuditOutcome } from './enum';
export { describeAuditChain, verifyAuditChain } from './audit-chain';
export type { AuditChainVerification } from './audit-chain';
export { AUDIT_APPEND_ONLY_SQLSTATE } from './audit.sql';
export { AUDIT_SEAL_STATUS } from './audit-seal-status';
export type { AuditSealStatus, AuditSealStatusSource } from './audit-seal-status';

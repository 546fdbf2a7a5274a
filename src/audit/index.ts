/** The audit module's public surface: what other modules may import. */
export { AuditModule } from './audit.module';
export { AUDIT_WRITE_LIMITS, AuditService, AuditUnavailableError } from './audit.service';
export { AuditRecordError } from './audit-event.input';
export type { AuditEventInput } from './audit-event.input';
export { AuditChannel, AuditOutcome } from './enum';
export { describeAuditChain, verifyAuditChain } from './audit-chain';
export type { AuditChainVerification, CheckpointProblem } from './audit-chain';
export { AuditSealer } from './audit-sealer';
export type { AuditSealLag } from './audit-sealer';
export { AuditSealerModule, loadCheckpointKey } from './audit-sealer.module';
export { DirectoryCheckpointStore } from './audit-checkpoint';
export type { CheckpointStore } from './audit-checkpoint';
export { AUDIT_APPEND_ONLY_SQLSTATE, AUDIT_INSERT_PARAMETERS, insertAuditEventsAfter } from './audit.sql';
export { AUDIT_SEAL_STATUS } from './audit-seal-status';
export type { AuditSealStatus, AuditSealStatusSource } from './audit-seal-status';

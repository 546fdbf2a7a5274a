import { Module } from '@nestjs/common';
import { AuditService } from './audit.service';

/**
 * The audit trail of every access to PHI. Imported by the modules that read PHI; it depends on
 * nothing but the global TypeORM connection, so the arrows only ever point into it.
 */
@Module({ providers: [AuditService], exports: [AuditService] })
export class AuditModule {}

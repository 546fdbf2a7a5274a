import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { loadSecretKey } from '../config/secret-key';
import { DirectoryCheckpointStore } from './audit-checkpoint';
import { dedicatedSealerSession, sharedSealerSession } from './audit-seal.repository';
import { AuditSealer } from './audit-sealer';
import { AUDIT_SEAL_STATUS } from './audit-seal-status';
import { AUDIT_DATABASE, AuditDatabase } from './audit.service';

/** The checkpoint signing key, as configured (AUDIT_CHECKPOINT_KEY or its key file). */
export function loadCheckpointKey(config: Pick<AppConfig, 'env' | 'audit'>, options: { create: boolean } = { create: true }): Buffer {
  return loadSecretKey({
    env: config.env,
    key: config.audit.checkpointKey,
    keyFile: config.audit.checkpointKeyFile,
    name: 'AUDIT_CHECKPOINT_KEY',
    whyRequired: 'checkpoints signed with a key made up at start-up could not be verified later',
    create: options.create,
  });
}

/**
 * Where this process's checkpoints go: `AUDIT_CHECKPOINT_DIR`, in the subdirectory of the trail
 * (see `DirectoryCheckpointStore`). An embedded database kept in memory is a new trail at every
 * start and gone at its end: its checkpoints go to a fresh temporary directory instead of piling up.
 */
function checkpointDir(config: AppConfig, database: AuditDatabase): string {
  if (database.embedded && config.database.embeddedDir.startsWith('memory://')) return mkdtempSync(join(tmpdir(), 'vigil-audit-checkpoints-'));
  return config.audit.checkpointDir;
}

/** Starts and stops the sealer with the process (the API and the worker; AUDIT_SEALER_ENABLED=false turns it off). */
@Injectable()
class AuditSealerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AuditSealer');

  constructor(
    private readonly sealer: AuditSealer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.audit.sealerEnabled) {
      this.logger.log('The audit sealer is off in this process (AUDIT_SEALER_ENABLED=false)');
      return;
    }
    this.sealer.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.sealer.stop();
  }
}

/**
 * The audit chain's sealer (see `audit-sealer.ts`), for the processes that run it, and where the
 * trail's own connections go (`AUDIT_DATABASE`). Global, so that the metrics module finds the
 * sealer under `AUDIT_SEAL_STATUS` without importing this module (and, where no sealer runs, does
 * not find it and leaves the seal gauges out), and `AuditService` finds the database.
 */
@Module({})
export class AuditSealerModule {
  static forRoot(database: AuditDatabase): DynamicModule {
    return {
      module: AuditSealerModule,
      global: true,
      providers: [
        {
          provide: AuditSealer,
          inject: [APP_CONFIG, getDataSourceToken()],
          useFactory: (config: AppConfig, dataSource: DataSource) => {
            const { audit } = config;
            const connect = database.embedded ? async () => sharedSealerSession(dataSource) : () => dedicatedSealerSession(database.url);
            return new AuditSealer(connect, new DirectoryCheckpointStore(checkpointDir(config, database)), loadCheckpointKey(config), {
              intervalMs: audit.sealIntervalMs,
              batchSize: audit.sealBatchSize,
              checkpointEveryEvents: audit.checkpointEveryEvents,
              checkpointIntervalMs: audit.checkpointIntervalSeconds * 1000,
            });
          },
        },
        AuditSealerLifecycle,
        { provide: AUDIT_SEAL_STATUS, useExisting: AuditSealer },
        // For `AuditService`'s standalone writes: a connection of the trail's own there too.
        { provide: AUDIT_DATABASE, useValue: { url: database.url, embedded: database.embedded } satisfies AuditDatabase },
      ],
      exports: [AuditSealer, AUDIT_SEAL_STATUS, AUDIT_DATABASE],
    };
  }
}

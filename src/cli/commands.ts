import * as fixtures from '../../fixtures';
import { DataSource } from 'typeorm';
import { describeAuditChain, verifyAuditChain } from '../audit/audit-chain';
import { DirectoryCheckpointStore } from '../audit/audit-checkpoint';
import { sharedSealerSession } from '../audit/audit-seal.repository';
import { AuditSealer } from '../audit/audit-sealer';
import { loadCheckpointKey } from '../audit/audit-sealer.module';
import { readTrailIdentity, TrailIdentityMissingError } from '../audit/audit-trail-identity';
import { loadConfig } from '../config/load-config';
import { loadFixtureCohort } from '../cohort/fixtures/fixture-loader';
import { pendingSchemaChanges, revertAllMigrations, runMigrations } from '../database/schema';
import { adminCommand } from './admin.command';
import { auditedCommand } from './cli-audit';
import { deliveriesBackfillCommand } from './deliveries-backfill.command';
import { deliveriesRetryCommand } from './deliveries-retry.command';
import { generateCommand } from './generate.command';
import { importFhirCommand } from './import-fhir.command';
import { measuresLoadCommand } from './measures-load.command';
import { measuresRecomputeCommand } from './measures-recompute.command';

/** A CLI command: runs against an initialised data source, prints for a human, returns an exit code. */
export interface Command {
  summary: string;
  usage: string;
  /**
   * Without DATABASE_URL, runs on the embedded database `npm start` keeps in
   * `EMBEDDED_DATABASE_DIR` (while no server has it open) instead of refusing.
   */
  embedded?: boolean;
  run(dataSource: DataSource, args: string[], out: (line: string) => void): Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  migrate: {
    summary: 'apply pending migrations',
    usage: 'migrate',
    async run(dataSource, _args, out) {
      const applied = await runMigrations(dataSource);
      out(applied.length ? `Applied: ${applied.join(', ')}` : 'Schema is up to date.');
      return 0;
    },
  },
  // Audited before it runs: it drops the audit trail with the rest (keep the latest hash elsewhere).
  revert: auditedCommand('cli.revert', {
    summary: 'revert every migration (drops the schema; refuses unless --all is given)',
    usage: 'revert --all',
    async run(dataSource, args, out) {
      if (!args.includes('--all')) {
        out('Refusing to drop the schema without --all.');
        return 2;
      }
      out(`Reverted ${await revertAllMigrations(dataSource)} migration(s).`);
      return 0;
    },
  }, (args) => args.includes('--all')),
  seed: auditedCommand('cli.seed', {
    summary: 'load the fixture cohort (safe to repeat; --anchor YYYY-MM-DD fixes the relative dates)',
    usage: 'seed [--anchor YYYY-MM-DD]',
    async run(dataSource, args, out) {
      const anchorIndex = args.indexOf('--anchor');
      const anchor = anchorIndex >= 0 ? args[anchorIndex + 1] : process.env.FIXTURES_ANCHOR_DATE || undefined;
      if (anchorIndex >= 0 && !anchor) {
        out('--anchor needs a date as YYYY-MM-DD.');
        return 2;
      }
      const result = await loadFixtureCohort(dataSource, fixtures, anchor);
      const counts = Object.entries(result.counts).map(([table, count]) => `${table}=${count}`);
      out(`Loaded the fixture cohort (anchor ${result.anchorDate}): ${counts.join(' ')}`);
      return 0;
    },
  }),
  'schema-check': {
    summary: 'fail when the entities and the migrated schema disagree (a missing migration)',
    usage: 'schema-check',
    async run(dataSource, _args, out) {
      const pending = await pendingSchemaChanges(dataSource);
      if (pending.length === 0) {
        out('Entities and migrations agree.');
        return 0;
      }
      out('The entities differ from the migrated schema; a migration would need:');
      pending.forEach((query) => out(`  ${query}`));
      return 1;
    },
  },
  'audit-verify': {
    summary: 'check the audit chain, that old events are sealed, and the signed checkpoints; fails naming what is wrong',
    usage: 'audit-verify',
    embedded: true,
    async run(dataSource, _args, out) {
      const config = loadConfig();
      const store = new DirectoryCheckpointStore(config.audit.checkpointDir);
      out(`Checkpoints: ${store.description} (each trail's in the subdirectory named by its id)`);
      const result = await withTrailIdentity(out, () =>
        verifyAuditChain(dataSource, {
          checkpoints: { store, key: loadCheckpointKey(config, { create: false }) },
          graceSeconds: config.audit.sealGraceSeconds,
        }),
      );
      if (!result) return 1;
      describeAuditChain(result).forEach(out);
      return result.ok ? 0 : 1;
    },
  },
  'audit-seal': {
    summary: 'seal every committed audit event now and write a checkpoint (when no sealer runs)',
    usage: 'audit-seal',
    embedded: true,
    async run(dataSource, _args, out) {
      const config = loadConfig();
      const sealer = new AuditSealer(async () => sharedSealerSession(dataSource), new DirectoryCheckpointStore(config.audit.checkpointDir), loadCheckpointKey(config), {
        intervalMs: config.audit.sealIntervalMs,
        batchSize: config.audit.sealBatchSize,
        checkpointEveryEvents: 1,
        checkpointIntervalMs: 0,
      });
      // The sealer reads its trail as it takes the lead: read it first, to say what is missing rather than fail a pass.
      if (!(await withTrailIdentity(out, () => readTrailIdentity(dataSource)))) return 1;
      const sealed = await sealer.pass();
      const lag = sealer.lag();
      out(`Sealed ${sealed} event(s); the chain has ${lag.sealedSeq ?? 0} link(s), the latest checkpoint is at seq ${lag.lastCheckpointSeq}.`);
      return 0;
    },
  },
  'import-fhir': auditedCommand('cli.import_fhir', importFhirCommand),
  generate: auditedCommand('cli.generate', generateCommand),
  'measures-recompute': measuresRecomputeCommand,
  // Audits each measure itself, in the measure's own transaction (one event per measure).
  'measures-load': measuresLoadCommand,
  // Audited as one run (its arguments are ids, but a command's arguments are never recorded).
  'deliveries-retry': deliveriesRetryCommand,
  // Audited as one run, like the retry; it prints counts only.
  'deliveries-backfill': deliveriesBackfillCommand,
  // Audits each change itself, in the change's own transaction (one event per change, none for a read).
  admin: adminCommand,
};

/** Runs `work`; a database whose schema predates trail identities is said so (undefined), not a crash. */
async function withTrailIdentity<T>(out: (line: string) => void, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof TrailIdentityMissingError)) throw error;
    out('This database has no installation id yet (its audit trail has no identity): run the migrations (`npm run db:migrate`; `npm start` migrates the embedded database).');
    return undefined;
  }
}

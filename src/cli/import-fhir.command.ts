import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import { DEFAULT_SOURCE, FhirImporter, ImportNeeds, ImportOptions, normaliseSystem, progressReporter, SOURCE_NAME, UnknownCareTeamError } from '../fhir-import';
import { loadConfig } from '../config/load-config';
import { loadedMeasureNeeds, MeasurePackagesRepository } from '../measure-packages';
import { MeasureRunReason } from '../measure-results/enum';
import { MeasureRunsRepository } from '../measure-results/measure-runs.repository';
import { storePeriod } from '../measure-results/store-period';
import { cutOffAccess } from './access-cutoff';
import { operatingSystemUser } from './cli-audit';
import type { Command } from './commands';

const USAGE = 'import-fhir <file|folder> [--care-team <code>] [--source <name>] [--patient-bundles] [--batch-size N] [--all-needs]';

function parseArgs(args: string[]): { path: string; careTeam?: string; batchSize: number; source: string; patientBundles: boolean; allNeeds: boolean } | string {
  let path: string | undefined;
  let careTeam: string | undefined;
  let batchSize = 500;
  let source = DEFAULT_SOURCE;
  let patientBundles = false;
  let allNeeds = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--care-team') careTeam = args[++index] ?? '';
    else if (arg === '--batch-size') batchSize = Number(args[++index]);
    else if (arg === '--source') source = args[++index] ?? '';
    else if (arg === '--patient-bundles') patientBundles = true;
    else if (arg === '--all-needs') allNeeds = true;
    else if (arg.startsWith('--')) return `Unknown option ${arg.replace(/[^-\w]/g, '')}. Usage: ${USAGE}`;
    else if (path === undefined) path = arg;
    else return `One file or folder only. Usage: ${USAGE}`;
  }
  if (!path) return `Name a file or folder. Usage: ${USAGE}`;
  if (careTeam === '') return `--care-team needs a team code. Usage: ${USAGE}`;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 5000) return '--batch-size must be an integer from 1 to 5000.';
  if (!SOURCE_NAME.test(source)) return '--source must be 1-64 lower-case letters, digits, dots, dashes or underscores (e.g. epic-north).';
  return { path, careTeam, batchSize, source, patientBundles, allNeeds };
}

/**
 * `import-fhir`: loads FHIR R4 Bundles and NDJSON into the cohort (docs/fhir-import.md). Ctrl-C
 * stops after the batch in flight; the summary says so and a re-run finishes the job.
 */
export const importFhirCommand: Command = {
  summary: 'load FHIR R4 Bundles / NDJSON into the cohort (idempotent; see docs/fhir-import.md)',
  usage: USAGE,
  async run(dataSource, args, out) {
    const parsed = parseArgs(args);
    if (typeof parsed === 'string') {
      out(parsed);
      return 2;
    }
    if (!existsSync(parsed.path)) {
      out('The file or folder to import does not exist.');
      return 2;
    }
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const progress = progressReporter(out);
    const importer = new FhirImporter(dataSource, {
      careTeamCode: parsed.careTeam,
      source: parsed.source,
      patientBundles: parsed.patientBundles,
      batchSize: parsed.batchSize,
      signal: abort.signal,
      onProgress: (p) => progress.update(p),
      onAccessLoss: accessCutOff(dataSource),
      measureNeeds: await measureNeedsOf(dataSource),
    });
    importer.summary.allNeeds = parsed.allNeeds;
    const started = Date.now();
    try {
      await importer.run(parsed.path);
    } catch (error) {
      if (error instanceof UnknownCareTeamError) {
        out(`Unknown care team. Known care team codes: ${error.knownCodes.join(', ') || '(none)'}. --care-team names an existing team: create one with \`npm run admin -- team create --code <code> --name <name>\`, or leave --care-team out and import CareTeam resources, which make the teams.`);
        return 2;
      }
      importer.summary.aborted = true;
      importer.summary.render().forEach(out);
      throw error;
    } finally {
      progress.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    importer.summary.render().forEach(out);
    await requestImportRecompute(dataSource, [...importer.changedPatientIds], out);
    const seconds = (Date.now() - started) / 1000;
    const totals = importer.summary.totals;
    const handled = totals.loaded + totals.updated + totals.unchanged + totals.skipped;
    const handledAll = handled + importer.summary.acceptedTotal;
    out(`${handledAll} resources in ${seconds.toFixed(1)} s (${Math.round(handledAll / Math.max(seconds, 0.001))} resources/s).`);
    return importer.summary.aborted ? 130 : 0;
  },
};

/**
 * The data requirements of the measures loaded as data, each in the edition in force on the stored
 * period's last day (what the recompute this import requests evaluates), for the summary to hold
 * against what the import carried. None loaded: no such section.
 */
async function measureNeedsOf(dataSource: DataSource): Promise<ImportNeeds | undefined> {
  const needs = await loadedMeasureNeeds(new MeasurePackagesRepository(dataSource), storePeriod(), { normaliseSystem });
  return needs ? { ...needs, select: (resource) => needs.select(resource as Parameters<typeof needs.select>[0]) } : undefined;
}

/**
 * What the import's loss of access ends, as the admin commands' does (`cutOffAccess`: MCP sessions,
 * drafts, approvals that no longer count, open event streams), in the import's own transaction; each
 * step one audit event as the operating-system user, under one correlation id for the whole run.
 */
function accessCutOff(dataSource: DataSource): ImportOptions['onAccessLoss'] {
  const audit = new AuditService(dataSource);
  const who = { actorId: null, actorRole: 'cli', actorName: operatingSystemUser(), channel: AuditChannel.Cli, correlationId: randomUUID() };
  return async (session, loss) => {
    await cutOffAccess(session, loss, (step) => audit.record({ ...who, ...step, outcome: AuditOutcome.Success }, session));
  };
}

/**
 * Records a measure-results recompute of exactly the patients the import changed: a run row in
 * Postgres that the workers (API or `npm run worker`) relay to the queue, so nothing is lost while
 * Redis or every worker is down. (Their `data_version` moved in the import's own transactions, so
 * the workers' stale sweep would find them anyway, later.)
 */
export async function requestImportRecompute(dataSource: DataSource, patientIds: string[], out: (line: string) => void): Promise<void> {
  if (patientIds.length === 0) return;
  const runs = new MeasureRunsRepository(dataSource);
  await runs.request({ reason: MeasureRunReason.Import, period: storePeriod(), patientIds, chunkSize: loadConfig().queues.measures.chunkSize });
  out(`Measure results: recompute requested for the ${patientIds.length} patient(s) this import changed.`);
}

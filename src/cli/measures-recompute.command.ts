import { isUuid } from '../common/validation/uuid';
import { loadConfig } from '../config/load-config';
import { MeasurePackagesRepository, PublishedCareGapsService } from '../measure-packages';
import type { EvaluableMeasures } from '../measure-packages';
import { MeasureRunReason } from '../measure-results/enum';
import { MeasureRunsRepository } from '../measure-results/measure-runs.repository';
import { storePeriod } from '../measure-results/store-period';
import type { Command } from './commands';

const USAGE = 'measures-recompute [--force] [--patients <id,id,…>] [--wait [--timeout <seconds>]]';
const POLL_MS = 1000;
/**
 * How long `--wait` waits for the run to move (planned, a chunk finished) before it gives up: a worker
 * plans a run within a second (MEASURES_RELAY_INTERVAL_MS) and finishes a chunk of 250 patients in
 * seconds, so two minutes of nothing means no worker is working on it.
 */
const DEFAULT_TIMEOUT_SECONDS = 120;

interface Options {
  force: boolean;
  wait: boolean;
  timeoutSeconds: number;
  patientIds?: string[];
}

function parseArgs(args: string[]): Options | string {
  const options: Options = { force: false, wait: false, timeoutSeconds: DEFAULT_TIMEOUT_SECONDS };
  let timeoutGiven = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--force') options.force = true;
    else if (arg === '--wait') options.wait = true;
    else if (arg === '--patients') options.patientIds = (args[++index] ?? '').split(',').filter(Boolean);
    else if (arg === '--timeout') {
      timeoutGiven = true;
      options.timeoutSeconds = Number(args[++index]);
    } else return `Unknown argument. Usage: ${USAGE}`;
  }
  const { patientIds, timeoutSeconds } = options;
  if (patientIds && (patientIds.length === 0 || !patientIds.every(isUuid))) return '--patients takes patient ids (UUIDs), comma-separated.';
  if (timeoutGiven && !options.wait) return '--timeout applies to --wait only.';
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 86_400) return '--timeout takes whole seconds, 1 to 86400.';
  return options;
}

/** Which loaded measures the period's stored results include (the edition the period picks, as care_gap_lookup), and which not, and why. */
export function loadedMeasuresLine(measures: EvaluableMeasures): string {
  const stored = measures.editions.map((edition) => `${edition.key} (${edition.edition} ${edition.version})`);
  const left = (reason: EvaluableMeasures['left'][number]['reason']) => measures.left.filter((entry) => entry.reason === reason).map((entry) => entry.key);
  const parts = [
    `Built-in measures and ${stored.length > 0 ? `the loaded ${stored.join(', ')}` : 'no loaded measure'}.`,
    ...(left('no_edition_for_period').length > 0 ? [`Loaded with no edition in force on the period's last day, not stored: ${left('no_edition_for_period').join(', ')}.`] : []),
    ...(left('not_a_care_gap_measure').length > 0 ? [`Loaded with no care gap to read, not stored: ${left('not_a_care_gap_measure').join(', ')}.`] : []),
  ];
  return parts.join(' ');
}

/**
 * `measures-recompute` (`npm run measures:recompute`): records a recompute run of the store's
 * current period (the trailing year ending today) for every patient or the named ones; the workers
 * of the API and of `npm run worker` share it. Without `--force`, patients whose stored results are
 * current are skipped; with it, each is recomputed once by this run. `--wait` follows the run to its
 * end, and gives up (exit 1, the run stays recorded) when it does not move for `--timeout` seconds.
 */
export const measuresRecomputeCommand: Command = {
  summary: 'recompute stored measure results (all patients or --patients; --force, --wait [--timeout s])',
  usage: USAGE,
  async run(dataSource, args, out) {
    const parsed = parseArgs(args);
    if (typeof parsed === 'string') {
      out(parsed);
      return 2;
    }
    const runs = new MeasureRunsRepository(dataSource);
    const period = storePeriod();
    const runId = await runs.request({ reason: MeasureRunReason.OnDemand, period, patientIds: parsed.patientIds, force: parsed.force, chunkSize: loadConfig().queues.measures.chunkSize });
    out(`Recompute run ${runId} recorded for ${period.start} to ${period.end}${parsed.force ? ' (forced)' : ''}; the workers pick it up.`);
    out(loadedMeasuresLine(await new PublishedCareGapsService(new MeasurePackagesRepository(dataSource)).evaluableFor(period)));
    if (!parsed.wait || !runId) return 0;
    const started = Date.now();
    let last = '';
    let moved = started;
    for (;;) {
      const progress = await runs.progress(runId);
      if (!progress) return 1;
      const line = progress.planned ? `${progress.chunksFinished}/${progress.chunks} chunks, ${progress.computed} patients computed, ${progress.skipped} current` : 'waiting for a worker to plan it';
      if (line !== last) {
        out(line);
        moved = Date.now();
      }
      last = line;
      if (progress.finished) break;
      if (Date.now() - moved >= parsed.timeoutSeconds * 1000) {
        out(
          `Run ${runId} has not moved in ${parsed.timeoutSeconds} s: no worker is working on it. Start one with \`npm run worker\` ` +
            '(or the API with MEASURES_WORKERS_IN_API=true); the run stays recorded and is picked up then. --timeout <seconds> waits longer.',
        );
        return 1;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    out(`Run ${runId} finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  },
};

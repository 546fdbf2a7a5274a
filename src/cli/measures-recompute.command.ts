import { isUuid } from '../common/validation/uuid';
import { loadConfig } from '../config/load-config';
import { MeasureRunReason } from '../measure-results/enum';
import { MeasureRunsRepository } from '../measure-results/measure-runs.repository';
import { storePeriod } from '../measure-results/store-period';
import type { Command } from './commands';

const USAGE = 'measures-recompute [--force] [--patients <id,id,…>] [--wait]';
const POLL_MS = 1000;

function parseArgs(args: string[]): { force: boolean; wait: boolean; patientIds?: string[] } | string {
  let force = false;
  let wait = false;
  let patientIds: string[] | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--force') force = true;
    else if (arg === '--wait') wait = true;
    else if (arg === '--patients') patientIds = (args[++index] ?? '').split(',').filter(Boolean);
    else return `Unknown argument. Usage: ${USAGE}`;
  }
  if (patientIds && (patientIds.length === 0 || !patientIds.every(isUuid))) return '--patients takes patient ids (UUIDs), comma-separated.';
  return { force, wait, patientIds };
}

/**
 * `measures-recompute` (`npm run measures:recompute`): records a recompute run of the store's
 * current period (the trailing year ending today) for every patient or the named ones; the workers
 * of the API and of `npm run worker` share it. Without `--force`, patients whose stored results are
 * current are skipped; with it, each is recomputed once by this run. `--wait` follows the run to its end.
 */
export const measuresRecomputeCommand: Command = {
  summary: 'recompute stored measure results (all patients or --patients; --force, --wait)',
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
    if (!parsed.wait || !runId) return 0;
    const started = Date.now();
    let last = '';
    for (;;) {
      const progress = await runs.progress(runId);
      if (!progress) return 1;
      const line = progress.planned ? `${progress.chunksFinished}/${progress.chunks} chunks, ${progress.computed} patients computed, ${progress.skipped} current` : 'waiting for a worker to plan it';
      if (line !== last) out(line);
      last = line;
      if (progress.finished) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    out(`Run ${runId} finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  },
};

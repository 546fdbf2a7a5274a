import { parseArgs } from 'node:util';
import { deliveryDestinations } from '../approvals/delivery/delivered-effect';
import { DeliveryRepository } from '../approvals/delivery/delivery.repository';
import { DeliveryDestination } from '../approvals/enum';
import { loadConfig } from '../config/load-config';
import { auditedCommand } from './cli-audit';
import type { Command } from './commands';

const USAGE = 'deliveries-backfill --since <YYYY-MM-DD | ISO timestamp> | --all  [--destination fhir|webhook] [--dry-run]';
/** A day (midnight UTC) or a timestamp with its offset: never a local time the server would guess the zone of. */
const SINCE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

interface Options {
  since: string | null;
  destinations: DeliveryDestination[];
  dryRun: boolean;
}

/** The options, or why they are refused. `--all` or `--since` is required: a backfill of every effect ever applied is asked for by name. */
function parse(args: string[], configured: DeliveryDestination[]): Options | string {
  let values: { since?: string; all?: boolean; destination?: string; 'dry-run'?: boolean };
  try {
    ({ values } = parseArgs({ args, strict: true, allowPositionals: false, options: { since: { type: 'string' }, all: { type: 'boolean' }, destination: { type: 'string' }, 'dry-run': { type: 'boolean' } } }));
  } catch {
    return `usage: ${USAGE}`;
  }
  if (Boolean(values.since) === Boolean(values.all)) return `Name how far back: --since <date> or --all (one of them).\nusage: ${USAGE}`;
  if (values.since && (!SINCE.test(values.since) || Number.isNaN(Date.parse(values.since)))) return `--since takes a date (YYYY-MM-DD, midnight UTC) or an ISO timestamp with its offset.`;
  const named = values.destination;
  if (named !== undefined && !(Object.values(DeliveryDestination) as string[]).includes(named)) return `--destination takes fhir or webhook.\nusage: ${USAGE}`;
  if (named !== undefined && !configured.includes(named as DeliveryDestination)) {
    return `${named} is not configured here (${named === DeliveryDestination.Fhir ? 'FHIR_BASE_URL' : 'WEBHOOK_URL'}): a delivery to it could not be sent.`;
  }
  const since = values.since ? new Date(values.since.length === 10 ? `${values.since}T00:00:00Z` : values.since).toISOString() : null;
  return { since, destinations: named ? [named as DeliveryDestination] : configured, dryRun: values['dry-run'] === true };
}

const describe = (rows: { destination: string; count: number }[]) => rows.map((row) => `${row.destination} ${row.count}`).join(', ');

/**
 * `deliveries-backfill` (docs/delivery.md): a destination configured after effects were applied gets
 * their deliveries now. For each applied effect written since `--since` (or `--all`), one pending
 * delivery per configured destination (or the one `--destination` names) that it does not have yet;
 * the running workers send them within their relay interval. Idempotent: a second run adds nothing
 * (the unique proposal and destination), and an effect the server already holds is found there by
 * the conditional create on Vigil's identifier, never made twice. Prints counts only; one audit
 * event per run (`cli.deliveries_backfill`), like `deliveries-retry`.
 */
export function deliveriesBackfillCommandWith(configured: () => DeliveryDestination[]): Command {
  return auditedCommand('cli.deliveries_backfill', {
    summary: 'create the deliveries of effects applied before a destination was configured: --since <date> | --all, [--destination fhir|webhook], [--dry-run]',
    usage: USAGE,
    async run(dataSource, args, out) {
      const destinations = configured();
      if (destinations.length === 0) {
        out('No destination is configured (FHIR_BASE_URL, WEBHOOK_URL): there is nothing to backfill to.');
        return 1;
      }
      const options = parse(args, destinations);
      if (typeof options === 'string') {
        out(options);
        return 2;
      }
      const repository = new DeliveryRepository(dataSource);
      const scope = `${options.destinations.join(', ')}, effects applied ${options.since ? `since ${options.since}` : 'at any time'}`;
      const params = [options.destinations, options.since];
      const rows = await repository.run<{ destination: string; count: number }>(options.dryRun ? 'backfillCandidates' : 'backfillDeliveries', params);
      const total = rows.reduce((sum, row) => sum + row.count, 0);
      if (total === 0) out(`Nothing to add (${scope}): every such effect has its delivery.`);
      else if (options.dryRun) out(`Would add ${total} delivery(ies) (${scope}): ${describe(rows)}.`);
      else out(`Added ${total} delivery(ies) (${scope}): ${describe(rows)}; a running worker sends them within its relay interval.`);
      return 0;
    },
  });
}

/** The destinations come from this process's configuration, as the executor's do. */
export const deliveriesBackfillCommand = deliveriesBackfillCommandWith(() => deliveryDestinations(loadConfig()));

import { DeliveryRepository } from '../approvals/delivery/delivery.repository';
import { DeliveryDestination } from '../approvals/enum';
import { auditedCommand } from './cli-audit';
import type { Command } from './commands';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DESTINATIONS = Object.values(DeliveryDestination) as string[];

/** `--name value` of `args`; `undefined` when absent, `null` when present without a value. */
function option(args: string[], name: string): string | null | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  return value === undefined || value.startsWith('--') ? null : value;
}

/**
 * The operator's door to the dead letters (docs/delivery.md): `--list` shows them (ids, reason codes,
 * attempts; nothing of the effect), otherwise those chosen are made pending again with a fresh
 * allowance of attempts, and the running workers deliver them (the relay polls every
 * QUEUE_RELAY_INTERVAL_MS). Needs only the database: Redis and the destinations may still be down.
 */
export const deliveriesRetryCommand: Command = auditedCommand('cli.deliveries_retry', {
  summary: 'list the dead-lettered deliveries (--list), or send them again: --all, --proposal <uuid>, --destination fhir|webhook',
  usage: 'deliveries-retry --list | --all | [--proposal <uuid>] [--destination fhir|webhook]',
  async run(dataSource, args, out) {
    const repository = new DeliveryRepository(dataSource);
    const known = new Set(['--list', '--all', '--proposal', '--destination']);
    const unknown = args.filter((arg, index) => arg.startsWith('--') ? !known.has(arg) : !['--proposal', '--destination'].includes(args[index - 1]));
    const proposal = option(args, '--proposal');
    const destination = option(args, '--destination');
    if (unknown.length > 0 || proposal === null || destination === null || (proposal && !UUID.test(proposal)) || (destination && !DESTINATIONS.includes(destination))) {
      out(`usage: ${deliveriesRetryCommand.usage}`);
      return 2;
    }
    if (args.includes('--list')) {
      const rows = await repository.run<{ id: string; proposalId: string; destination: string; attempts: number; reason: string | null; httpStatus: number | null; failedAt: string }>('failedDeliveries', [1000]);
      if (rows.length === 0) out('No dead-lettered deliveries.');
      for (const row of rows) {
        out(`${row.failedAt}  proposal ${row.proposalId}  ${row.destination}  ${row.reason ?? 'unknown'}${row.httpStatus ? ` (HTTP ${row.httpStatus})` : ''}  after ${row.attempts} attempt(s)`);
      }
      return 0;
    }
    if (!args.includes('--all') && !proposal && !destination) {
      out('Name what to send again: --all, --proposal <uuid> and/or --destination fhir|webhook (--list shows the dead letters).');
      return 2;
    }
    const retried = await repository.run<{ id: string; proposalId: string; destination: string; reason: string | null }>('retryFailedDeliveries', [proposal ?? null, destination ?? null]);
    for (const row of retried) out(`pending again: proposal ${row.proposalId}  ${row.destination}  (was ${row.reason ?? 'failed'})`);
    out(`${retried.length} delivery(ies) pending again; a running worker sends them within its relay interval.`);
    return 0;
  },
});

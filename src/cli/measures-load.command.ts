import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import type { SqlSession } from '../schema/sql-session';
import { MeasurePackagesRepository, MeasureSource, readMeasureSource, resolvePackage, ResolvedPackage, StoreOutcome } from '../measure-packages';
import { operatingSystemUser } from './cli-audit';
import type { Command } from './commands';

const USAGE = 'measures-load <folder|bundle.json> [--measure <key> ...] [--supplement] [--edition <label>]';

interface Options {
  path: string;
  keys: string[];
  supplement: boolean;
  edition?: string;
}

function parseArgs(args: string[]): Options | string {
  let path: string | undefined;
  const keys: string[] = [];
  let supplement = false;
  let edition: string | undefined;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--measure') keys.push(args[++index] ?? '');
    else if (arg === '--supplement') supplement = true;
    else if (arg === '--edition') edition = args[++index] ?? '';
    else if (arg.startsWith('--')) return `Unknown option ${arg.replace(/[^-\w]/g, '')}. Usage: ${USAGE}`;
    else if (path === undefined) path = arg;
    else return `One folder or bundle only. Usage: ${USAGE}`;
  }
  if (!path) return `Name an edition folder or a FHIR Bundle. Usage: ${USAGE}`;
  if (keys.some((key) => !/^[A-Za-z0-9]{1,64}$/.test(key))) return `--measure needs a measure key such as CMS122. Usage: ${USAGE}`;
  if (edition !== undefined && !/^[\w.-]{1,64}$/.test(edition)) return '--edition must be 1-64 letters, digits, dots, dashes or underscores (e.g. 2025-qicore6).';
  return { path, keys, supplement, edition };
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/**
 * `measures-load`: loads published measures (Measure, its Libraries with ELM, the value-set
 * expansions the ELM names) as data, one transaction per measure. Each measure is one audit event
 * (action `measures.load`, channel `cli`, as the operating-system user; its correlation id is kept
 * on the loaded package): `success` loaded, `empty` already loaded, `conflict` other content under a
 * loaded url and version, `invalid` refused for what it lacks. One line per measure; exit 1 when
 * any was refused.
 */
export const measuresLoadCommand: Command = {
  summary: 'load published eCQMs (Measure, Library ELM, ValueSet expansions) from an edition folder or FHIR Bundle',
  usage: USAGE,
  async run(dataSource, args, out) {
    const options = parseArgs(args);
    if (typeof options === 'string') {
      out(options);
      return 2;
    }
    if (!existsSync(options.path)) {
      out('The folder or bundle to load does not exist.');
      return 2;
    }
    const started = Date.now();
    let source: MeasureSource;
    try {
      source = readMeasureSource(options.path, options.edition);
    } catch (error) {
      // A parse error may quote the file; the name of what was given is enough.
      out(`Could not read ${basename(options.path)}: ${error instanceof SyntaxError ? 'a file is not valid JSON' : 'unreadable'}.`);
      return 2;
    }
    const unknown = options.keys.filter((key) => !source.measures.some((measure) => measure.key === key));
    if (unknown.length > 0) {
      out(`Not in this source: ${unknown.join(', ')}. It holds: ${source.measures.map((measure) => measure.key).join(', ') || '(no Measure)'}.`);
      return 2;
    }
    const measures = options.keys.length > 0 ? source.measures.filter((measure) => options.keys.includes(measure.key)) : source.measures;
    if (measures.length === 0) {
      out('No Measure resource found.');
      return 2;
    }

    const repository = new MeasurePackagesRepository(dataSource);
    const audit = new AuditService(dataSource);
    const loadedBy = operatingSystemUser();
    const record = (correlationId: string, outcome: AuditOutcome, rowCount: number, session?: SqlSession) =>
      audit.record(
        { actorId: null, actorRole: 'cli', actorName: loadedBy, patientId: null, action: 'measures.load', fields: rowCount > 0 ? ['measure_packages'] : [], rowCount, outcome, channel: AuditChannel.Cli, correlationId },
        session,
      );
    const tally = { loaded: 0, already: 0, refused: 0 };
    for (const measure of measures) {
      const correlationId = randomUUID();
      const resolution = resolvePackage(measure, source.edition, { supplement: options.supplement });
      if ('refused' in resolution) {
        const { key, version, reasons } = resolution.refused;
        await record(correlationId, AuditOutcome.Invalid, 0);
        out(`${[key, version].filter(Boolean).join(' ')} (${source.edition}): refused: ${reasons.join('; ')}`);
        tally.refused += 1;
        continue;
      }
      const pkg = resolution.resolved;
      const stored = await repository.store(pkg, { loadedBy, correlationId }, (session, outcome) => record(correlationId, AUDIT_OUTCOME[outcome.outcome], outcome.outcome === 'loaded' ? 1 : 0, session));
      out(`${pkg.key} ${pkg.version} (${pkg.edition}): ${describe(pkg, stored)}`);
      if (stored.outcome === 'loaded') tally.loaded += 1;
      else if (stored.outcome === 'already-loaded') tally.already += 1;
      else tally.refused += 1;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    out(`${plural(measures.length, 'measure')} from ${source.edition}: ${count(tally.loaded)} loaded, ${count(tally.already)} already loaded, ${count(tally.refused)} refused (${seconds} s).`);
    return tally.refused > 0 ? 1 : 0;
  },
};

const AUDIT_OUTCOME: Record<StoreOutcome['outcome'], AuditOutcome> = {
  loaded: AuditOutcome.Success,
  'already-loaded': AuditOutcome.Empty,
  conflict: AuditOutcome.Conflict,
};

function describe(pkg: ResolvedPackage, stored: StoreOutcome): string {
  if (stored.outcome === 'already-loaded') return `already loaded${stored.edition === pkg.edition ? '' : ` (from ${stored.edition})`}`;
  if (stored.outcome === 'conflict') {
    return `refused: other content is loaded under this url and version (from ${stored.edition}); a loaded measure never changes, a changed one needs a new version`;
  }
  const supplemented = pkg.valueSets.filter((valueSet) => valueSet.fromSupplement).length;
  const codes = pkg.valueSets.reduce((sum, valueSet) => sum + valueSet.expansion.codes.length, 0);
  return (
    `loaded: ${plural(pkg.libraries.length, 'library', 'libraries')}, ${plural(pkg.valueSets.length, 'value set')} (${count(codes)} codes` +
    `${supplemented > 0 ? `, ${count(supplemented)} from the supplement` : ''}); new here: ${plural(stored.newLibraries, 'library', 'libraries')}, ${plural(stored.newValueSets, 'value set')}`
  );
}

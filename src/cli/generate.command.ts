import { exportCohortFhir, FhirExportSummary } from '../generator/fhir/fhir-export';
import { generateCohort, GenerateOptions, GeneratorRefusal, GenerateSummary, resolveCareTeams } from '../generator/generate-cohort';
import type { Command } from './commands';

const USAGE = 'generate --patients N --seed S [--care-teams a,b] [--anchor YYYY-MM-DD] [--replace | --fhir FOLDER]';

/** Parses the options; a string is the complaint about them. */
/** The options; `fhir` is the folder to write FHIR NDJSON to instead of loading the database. */
export type GenerateArgs = GenerateOptions & { fhir?: string };

export function parseGenerateArgs(args: readonly string[], today = new Date().toISOString().slice(0, 10)): GenerateArgs | string {
  const values = new Map<string, string>();
  let replace = false;
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    if (name === '--replace') {
      replace = true;
      continue;
    }
    if (!['--patients', '--seed', '--care-teams', '--anchor', '--fhir'].includes(name)) return `Unknown option "${name}". Usage: ${USAGE}`;
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) return `${name} needs a value. Usage: ${USAGE}`;
    values.set(name, value);
    i++;
  }
  const integer = (name: string) => (/^\d+$/.test(values.get(name) ?? '') ? Number(values.get(name)) : NaN);
  if (!values.has('--patients') || !values.has('--seed')) return `--patients and --seed are required. Usage: ${USAGE}`;
  if (replace && values.has('--fhir')) return `--replace and --fhir do not go together (--fhir writes files and changes no database). Usage: ${USAGE}`;
  const careTeams = values.get('--care-teams')?.split(',').map((code) => code.trim()).filter(Boolean);
  return {
    patients: integer('--patients'),
    seed: integer('--seed'),
    anchor: values.get('--anchor') ?? today,
    careTeams,
    replace,
    ...(values.has('--fhir') ? { fhir: values.get('--fhir') } : {}),
  };
}

export function describeSummary(summary: GenerateSummary): string[] {
  const total = Object.values(summary.rows).reduce((sum, count) => sum + count, 0);
  const width = Math.max(...Object.keys(summary.rows).map((table) => table.length));
  return [
    `Generated ${summary.patients} patients (seed ${summary.seed}, anchor ${summary.anchor}, care teams ${summary.careTeams.join(', ')})` +
      (summary.replacedPatients > 0 ? `, replacing ${summary.replacedPatients} generated before.` : '.'),
    'Rows:',
    ...Object.entries(summary.rows).map(([table, count]) => `  ${table.padEnd(width)} ${String(count).padStart(10)}`),
    `  ${'total'.padEnd(width)} ${String(total).padStart(10)}`,
    'Phases:',
    ...summary.phases.map((phase) => `  ${phase.name.padEnd(34)} ${phase.seconds.toFixed(1).padStart(7)} s`),
    `Total ${summary.seconds.toFixed(1)} s, ${Math.round(total / summary.seconds)} rows/s.`,
  ];
}

export function describeFhirSummary(summary: FhirExportSummary, folder: string): string[] {
  const total = Object.values(summary.resources).reduce((sum, count) => sum + count, 0);
  return [
    `Exported ${summary.patients} patients as FHIR R4 NDJSON to ${folder} (import with: npm run import:fhir -- ${folder} --care-team CODE).`,
    'Resources:',
    ...Object.entries(summary.resources).map(([type, count]) => `  ${type.padEnd(18)} ${String(count).padStart(10)}`),
    `  ${'total'.padEnd(18)} ${String(total).padStart(10)}`,
    'Clinical notes are not exported (the importer has no DocumentReference table).',
    `Total ${summary.seconds.toFixed(1)} s.`,
  ];
}

export const generateCommand: Command = {
  summary: 'generate a deterministic synthetic cohort with COPY (refuses if one exists; --replace deletes it first), or as FHIR NDJSON (--fhir FOLDER)',
  usage: USAGE,
  async run(dataSource, args, out) {
    const options = parseGenerateArgs(args);
    if (typeof options === 'string') {
      out(options);
      return 2;
    }
    try {
      if (options.fhir !== undefined) {
        // The database is only read, for the care teams: their number shapes each patient's random stream.
        const { careTeamIds } = await resolveCareTeams((sql) => dataSource.query(sql), options.careTeams);
        const summary = exportCohortFhir({ ...options, careTeamIds, folder: options.fhir, progress: out });
        describeFhirSummary(summary, options.fhir).forEach((line) => out(line));
        return 0;
      }
      const summary = await generateCohort(dataSource, { ...options, progress: out });
      describeSummary(summary).forEach((line) => out(line));
      return 0;
    } catch (error) {
      if (!(error instanceof GeneratorRefusal)) throw error;
      out(error.message);
      return 1;
    }
  },
};

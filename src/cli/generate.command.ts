import { generateCohort, GenerateOptions, GeneratorRefusal, GenerateSummary } from '../generator/generate-cohort';
import type { Command } from './commands';

const USAGE = 'generate --patients N --seed S [--care-teams a,b] [--anchor YYYY-MM-DD] [--replace]';

/** Parses the options; a string is the complaint about them. */
export function parseGenerateArgs(args: readonly string[], today = new Date().toISOString().slice(0, 10)): GenerateOptions | string {
  const values = new Map<string, string>();
  let replace = false;
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    if (name === '--replace') {
      replace = true;
      continue;
    }
    if (!['--patients', '--seed', '--care-teams', '--anchor'].includes(name)) return `Unknown option "${name}". Usage: ${USAGE}`;
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) return `${name} needs a value. Usage: ${USAGE}`;
    values.set(name, value);
    i++;
  }
  const integer = (name: string) => (/^\d+$/.test(values.get(name) ?? '') ? Number(values.get(name)) : NaN);
  if (!values.has('--patients') || !values.has('--seed')) return `--patients and --seed are required. Usage: ${USAGE}`;
  const careTeams = values.get('--care-teams')?.split(',').map((code) => code.trim()).filter(Boolean);
  return {
    patients: integer('--patients'),
    seed: integer('--seed'),
    anchor: values.get('--anchor') ?? today,
    careTeams,
    replace,
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

export const generateCommand: Command = {
  summary: 'generate a deterministic synthetic cohort with COPY (refuses if one exists; --replace deletes it first)',
  usage: USAGE,
  async run(dataSource, args, out) {
    const options = parseGenerateArgs(args);
    if (typeof options === 'string') {
      out(options);
      return 2;
    }
    try {
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

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

/**
 * The 80-patient Synthea set beside the project (`../shared/external-data/synthea-r4-smart-80`,
 * see its README). Tests read it there and skip, saying why, where it is absent; nothing of it is
 * copied into the repo or rebuilt from another of its forms.
 */
export const SYNTHEA_80 = join(__dirname, '..', '..', '..', 'shared', 'external-data', 'synthea-r4-smart-80');
export const SYNTHEA_80_NDJSON = join(SYNTHEA_80, 'fhir-r4-ndjson');
export const SYNTHEA_80_CSV = join(SYNTHEA_80, 'csv');

/** A CSV file with a header row, as header-keyed rows (csv-parse: quoting, embedded commas and newlines). */
export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/**
 * `describe`, or a skipped `describe` with the reason in its name when the folder is absent. The body
 * is not run then (Jest runs a skipped describe's body to collect it, and these bodies read the folder).
 */
export function describeWithFolder(folder: string, what: string): (name: string, body: () => void) => void {
  return existsSync(folder)
    ? describe
    : (name: string) => describe.skip(`${name} [skipped: ${what} is absent (see ../shared/external-data/README.md)]`, () => it(`needs ${what}`, () => undefined));
}

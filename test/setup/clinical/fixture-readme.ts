import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveMeasureId, type CareGapStatus, type MeasureId } from '../../../src/clinical/care-gaps/care-gap.types';
import { MISSING_DATA_ELEMENTS, type MissingDataElement } from '../../../src/clinical/missing-data';

/**
 * Reads the expectation tables of `fixtures/README.md`, so the tests assert exactly what the README
 * promises readers: if the two disagree, a test fails and one of them has to be fixed.
 */
const README = join(__dirname, '..', '..', '..', 'fixtures', 'README.md');

function section(heading: string): string[] {
  const lines = readFileSync(README, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`fixtures/README.md has no "${heading}" section`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('#'));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Table rows whose first cell is a back-quoted patient key, as arrays of trimmed cells. */
function keyedRows(lines: string[]): string[][] {
  return lines
    .filter((line) => /^\|\s*`[a-z0-9-]+`\s*\|/.test(line))
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
}

const STATUS: Record<string, CareGapStatus> = { open: 'open-gap', closed: 'closed-gap', '–': 'not-applicable' };

/** `care_gap_lookup at 2026-06-30`: patient key → measure id → expected status. */
export function expectedCareGaps(): Map<string, Record<MeasureId, CareGapStatus>> {
  const lines = section('### care_gap_lookup at 2026-06-30');
  const header = lines.find((line) => line.startsWith('| Key |'));
  if (!header) throw new Error('care_gap_lookup table has no header row');
  // Columns name measures by id or by an accepted alias (`KHE` → `CMS951`).
  const measures = header.split('|').slice(2, -1).map((cell) => resolveMeasureId(cell.trim()));
  return new Map(
    keyedRows(lines).map(([key, ...cells]) => {
      const statuses = cells.map((cell) => {
        const status = STATUS[cell.replace(/\*/g, '')];
        if (!status) throw new Error(`Unreadable care-gap cell "${cell}" for ${key}`);
        return status;
      });
      return [key.replace(/`/g, ''), Object.fromEntries(measures.map((id, index) => [id, statuses[index]])) as Record<MeasureId, CareGapStatus>];
    }),
  );
}

/** `feature_attribution at 2026-06-30`: the patient keys whose row says the index admission exists ("yes"). */
export function expectedIndexAdmissions(): string[] {
  return keyedRows(section('### feature_attribution at 2026-06-30'))
    .filter(([, index]) => index.startsWith('yes'))
    .map(([key]) => key.replace(/`/g, ''));
}

/** Back-quoted names in a cell (`–` for none). */
function names(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
}

/** `patient_labs at 2026-06-30`: patient key → how many laboratory results, and their LOINC codes (none: 0, []). */
export function expectedLabs(): Map<string, { count: number; codes: string[] }> {
  return new Map(
    keyedRows(section('### patient_labs at 2026-06-30')).map(([key, count, codes]) => {
      const n = count.replace(/\*/g, '') === 'none' ? 0 : Number(count);
      if (!Number.isInteger(n)) throw new Error(`Unreadable laboratory count "${count}" for ${key}`);
      return [key.replace(/`/g, ''), { count: n, codes: names(codes) }];
    }),
  );
}

/**
 * What the `no-labs` section says the tool must answer when a patient has no laboratory result, in
 * the README's own words ("the tool must say …"), for the test to find in the answer.
 */
export function noLabsWording(): string {
  const bullet = section('### 10 `no-labs` (north)').find((line) => line.startsWith('- **patient_labs**'));
  const said = bullet && /the tool must say ([^(]+?) \(/.exec(bullet);
  if (!said) throw new Error('fixtures/README.md no-labs section says nothing the labs tool must say');
  return said[1];
}

export interface ExpectedMissingData {
  missing: MissingDataElement[];
  stale: MissingDataElement[];
  /** The condition-driven labs the record gives a reason to expect. */
  expected: MissingDataElement[];
}

/** `missing_data_check at 2026-06-30`: patient key → the elements missing, stale, and the labs expected. */
export function expectedMissingData(): Map<string, ExpectedMissingData> {
  const elements = (cell: string, key: string): MissingDataElement[] =>
    names(cell).map((name) => {
      if (!(MISSING_DATA_ELEMENTS as readonly string[]).includes(name)) throw new Error(`Unknown missing-data element "${name}" for ${key}`);
      return name as MissingDataElement;
    });
  return new Map(
    keyedRows(section('### missing_data_check at 2026-06-30')).map(([key, missing, stale, expected]) => {
      const name = key.replace(/`/g, '');
      return [name, { missing: elements(missing, name), stale: elements(stale, name), expected: elements(expected, name) }];
    }),
  );
}

/** `patient_encounters at 2026-06-30`: patient key → how many encounters, how many of each class, and the statuses other than finished. */
export function expectedEncounters(): Map<string, { count: number; byClass: Record<string, number>; notFinished: string[] }> {
  return new Map(
    keyedRows(section('### patient_encounters at 2026-06-30')).map(([key, count, byClass, notFinished]) => {
      const n = count.replace(/\*/g, '') === 'none' ? 0 : Number(count);
      if (!Number.isInteger(n)) throw new Error(`Unreadable encounter count "${count}" for ${key}`);
      const classes = Object.fromEntries([...byClass.matchAll(/`([a-z]+)` (\d+)/g)].map((match) => [match[1], Number(match[2])]));
      return [key.replace(/`/g, ''), { count: n, byClass: classes, notFinished: names(notFinished) }];
    }),
  );
}

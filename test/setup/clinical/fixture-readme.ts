import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveMeasureId, type CareGapStatus, type MeasureId } from '../../../src/clinical/care-gaps/care-gap.types';

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

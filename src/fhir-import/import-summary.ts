import { formatPosition, isDirectoryType, Position, SUPPORTED_TYPES, WriteOutcome } from './fhir-import.types';
import type { MeasureNeedsTally } from './measure-needs-tally';

export interface TypeCounts {
  loaded: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

export interface ReasonCount {
  count: number;
  /** The first few positions, formatted (`file:line` or `file entry[i]`). */
  positions: string[];
}

const POSITIONS_KEPT = 3;

/**
 * What an import did, for the summary and for tests: counts per resource type, and every skip and
 * warning by reason with its first positions. Reasons are fixed phrases prefixed by the resource
 * type; nothing here ever holds a value, name or id from a record.
 */
export class ImportSummary {
  /** Clinical types always; people and teams (`DIRECTORY_TYPES`) from the first one counted or skipped. */
  readonly types = new Map<string, TypeCounts>(SUPPORTED_TYPES.map((type) => [type, { loaded: 0, updated: 0, unchanged: 0, skipped: 0 }]));
  readonly skips = new Map<string, ReasonCount>();
  readonly warnings = new Map<string, ReasonCount>();
  /** Administrative resources read and counted but not stored (`ACCEPTED_TYPES`), by type. */
  readonly accepted = new Map<string, number>();
  /** What the loaded measures read, against what this import carried (when the import was given them). */
  needs?: MeasureNeedsTally;
  /** List every unmet need rather than the most-needed few (`--all-needs`). */
  allNeeds = false;
  files = 0;
  aborted = false;

  counted(type: string, outcome: WriteOutcome): void {
    this.countsOf(type)[outcome] += 1;
  }

  /** A resource (or something that is not one: a bad line, an unknown type) that was not loaded. */
  skip(position: Position, reason: string, type?: string): void {
    const counted = type !== undefined && (this.types.has(type) || isDirectoryType(type));
    if (counted) this.countsOf(type).skipped += 1;
    note(this.skips, counted ? `${type}: ${reason}` : reason, position);
  }

  accept(type: string): void {
    this.accepted.set(type, (this.accepted.get(type) ?? 0) + 1);
  }

  get acceptedTotal(): number {
    return [...this.accepted.values()].reduce((sum, count) => sum + count, 0);
  }

  warn(position: Position, type: string, warning: string): void {
    note(this.warnings, `${type}: ${warning}`, position);
  }

  private countsOf(type: string): TypeCounts {
    if (!this.types.has(type) && isDirectoryType(type)) this.types.set(type, { loaded: 0, updated: 0, unchanged: 0, skipped: 0 });
    const counts = this.types.get(type);
    if (!counts) throw new Error('Not a supported resource type');
    return counts;
  }

  get totals(): TypeCounts {
    const totals = { loaded: 0, updated: 0, unchanged: 0, skipped: 0 };
    for (const counts of this.types.values()) (Object.keys(totals) as (keyof TypeCounts)[]).forEach((key) => (totals[key] += counts[key]));
    totals.skipped = [...this.skips.values()].reduce((sum, reason) => sum + reason.count, 0);
    return totals;
  }

  /** The summary as printed at the end of an import. */
  render(): string[] {
    const header = ['resource type', 'loaded', 'updated', 'already present', 'skipped'];
    const rows = [...this.types.entries()].map(([type, counts]) => [type, counts.loaded, counts.updated, counts.unchanged, counts.skipped].map(String));
    const totals = this.totals;
    rows.push(['total (incl. unreadable/unsupported)', totals.loaded, totals.updated, totals.unchanged, totals.skipped].map(String));
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
    const lines = [`FHIR import ${this.aborted ? 'ABORTED' : 'finished'}: ${this.files} file(s)`, line(header), ...rows.map(line)];
    if (this.accepted.size) {
      const accepted = [...this.accepted.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, count]) => `${count} ${type}`);
      lines.push(`Accepted (not stored: administrative, no cohort table): ${this.acceptedTotal} (${accepted.join(', ')})`);
    }
    lines.push(...reasonLines('Skipped', this.skips), ...reasonLines('Warnings (loaded anyway)', this.warnings));
    if (this.needs) lines.push(...this.needs.render(this.allNeeds));
    if (this.aborted) lines.push('The import stopped early. Every batch written so far is complete; run the same command again to finish (it is idempotent).');
    return lines;
  }
}

function note(reasons: Map<string, ReasonCount>, reason: string, position: Position): void {
  const entry = reasons.get(reason) ?? { count: 0, positions: [] };
  entry.count += 1;
  if (entry.positions.length < POSITIONS_KEPT) entry.positions.push(formatPosition(position));
  reasons.set(reason, entry);
}

function reasonLines(title: string, reasons: Map<string, ReasonCount>): string[] {
  if (reasons.size === 0) return [];
  const sorted = [...reasons.entries()].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : 1));
  return [
    `${title}:`,
    ...sorted.map(([reason, { count, positions }]) => `  ${String(count).padStart(6)}  ${reason}  (first at ${positions.join(', ')}${count > positions.length ? ', …' : ''})`),
  ];
}

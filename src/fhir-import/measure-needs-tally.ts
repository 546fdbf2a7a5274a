import type { Json } from './json';

/** One data requirement of the loaded measures (the measure packages compute them from the ELM's retrieves). */
export interface ImportNeed {
  resourceType: string;
  /** The value set's or codes' names in the CQL, and the profile's short name: never a record's value. */
  label: string;
  /** Whether Vigil stores the type and gives it back to the measures. */
  stored: boolean;
  measures: readonly string[];
}

/** The loaded measures' needs, and which of them a resource meets (`ImportOptions.measureNeeds`). */
export interface ImportNeeds {
  /** The day the editions were chosen for. */
  day: string;
  editions: readonly { key: string; edition: string; version: string; inForce: boolean }[];
  needs: readonly ImportNeed[];
  select(resource: Json): readonly number[];
}

/** Unmet needs listed by default (most-needed first); `all` lists every one. */
export const UNMET_SHOWN = 20;
const MEASURES_NAMED = 6;

/**
 * What the loaded measures read against what this import carried: per need, the resources the import
 * stored (or, for a type Vigil does not store, carried) that meet it. Counts and names of types, value
 * sets and measures only, so the summary holds no PHI.
 */
export class MeasureNeedsTally {
  private readonly counts: number[];
  /** Per type, the resources meeting at least one need of it (each resource once). */
  private readonly resources = new Map<string, number>();

  constructor(readonly input: ImportNeeds) {
    this.counts = input.needs.map(() => 0);
  }

  /** The needs `resource` meets: computed when it is read, counted once it is stored (`count`). */
  select(resource: Json): readonly number[] {
    return this.input.select(resource);
  }

  count(type: string, needs: readonly number[]): void {
    if (needs.length === 0) return;
    for (const need of needs) this.counts[need] += 1;
    this.resources.set(type, (this.resources.get(type) ?? 0) + 1);
  }

  /** Resources counted for need `index` (tests). */
  carried(index: number): number {
    return this.counts[index];
  }

  render(all = false): string[] {
    const { needs } = this.input;
    const byType = new Map<string, number[]>();
    needs.forEach((need, index) => byType.set(need.resourceType, [...(byType.get(need.resourceType) ?? []), index]));
    const types = [...byType.keys()].sort();
    const rows = types.map((type) => {
      const indexes = byType.get(type) as number[];
      const measures = new Set(indexes.flatMap((index) => needs[index].measures));
      const met = indexes.filter((index) => this.counts[index] > 0).length;
      const stored = needs[indexes[0]].stored;
      return [type, String(indexes.length), String(met), String(this.resources.get(type) ?? 0), String(measures.size), stored ? '' : 'not stored by Vigil'];
    });
    const header = ['resource type', 'needs', 'met', 'resources', 'measures', ''];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
    const line = (cells: string[]) => `  ${cells.map((cell, column) => (column === 0 || column === 5 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd()}`;
    const lines = [`Data the loaded measures read (their ELM retrieves) against this import: ${this.editionsLine()}`, line(header), ...rows.map(line)];

    const absentTypes = types.filter((type) => needs[(byType.get(type) as number[])[0]].stored && !this.resources.has(type));
    if (absentTypes.length > 0) {
      lines.push('Needed, and no resource of the type in this import meets any need:');
      lines.push(...absentTypes.map((type) => `  ${type} → ${this.measuresOf(byType.get(type) as number[])}`));
    }
    const notStored = types.filter((type) => !needs[(byType.get(type) as number[])[0]].stored);
    if (notStored.length > 0) {
      lines.push('Needed, not stored by Vigil (a measure reading these finds none, whatever the import holds):');
      lines.push(...notStored.map((type) => `  ${type} (${this.resources.get(type) ?? 0} in this import meet a need) → ${this.measuresOf(byType.get(type) as number[])}`));
    }
    // What the import lacks within the types it did bring: the value sets a measure reads and no resource met.
    const unmet = needs
      .map((need, index) => ({ need, index }))
      .filter(({ need, index }) => need.stored && this.counts[index] === 0 && this.resources.has(need.resourceType))
      .sort((a, b) => b.need.measures.length - a.need.measures.length || a.need.resourceType.localeCompare(b.need.resourceType) || a.need.label.localeCompare(b.need.label));
    if (unmet.length > 0) {
      const shown = all ? unmet : unmet.slice(0, UNMET_SHOWN);
      lines.push(`Needed, none in this import (of the types it holds; most-needed first): ${unmet.length}`);
      lines.push(...shown.map(({ need }) => `  ${need.resourceType} ${need.label} → ${measures(need.measures)}`));
      if (shown.length < unmet.length) lines.push(`  … and ${unmet.length - shown.length} more (--all-needs lists every one)`);
    }
    return lines;
  }

  /** Which editions were read: those in force by edition and count, the others (none in force) named. */
  private editionsLine(): string {
    const { editions, day } = this.input;
    const groups = new Map<string, number>();
    for (const edition of editions.filter((e) => e.inForce)) groups.set(edition.edition, (groups.get(edition.edition) ?? 0) + 1);
    const stale = editions.filter((edition) => !edition.inForce).map((edition) => `${edition.key} ${edition.edition} ${edition.version}`);
    const inForce = groups.size > 0 ? `, in the edition in force on ${day} (${[...groups].map(([edition, count]) => `${edition} ×${count}`).join(', ')})` : '';
    const newest = stale.length > 0 ? `${inForce ? ';' : ','} with none in force on ${day}, the newest loaded (${named(stale)})` : '';
    return `${editions.length} loaded measure${editions.length === 1 ? '' : 's'}${inForce}${newest}`;
  }

  private measuresOf(indexes: number[]): string {
    return measures([...new Set(indexes.flatMap((index) => this.input.needs[index].measures))].sort());
  }
}

/** `CMS122, CMS125`, or the first few of a long list and how many more: `CMS104, … CMS128 and 27 more`. */
function named(items: readonly string[]): string {
  return items.length > MEASURES_NAMED ? `${items.slice(0, MEASURES_NAMED).join(', ')} and ${items.length - MEASURES_NAMED} more` : items.join(', ');
}

/** `1 measure: CMS347`, `33 measures: CMS104, … and 27 more`. */
function measures(keys: readonly string[]): string {
  return `${keys.length} measure${keys.length === 1 ? '' : 's'}: ${named(keys)}`;
}

import { createHash } from 'node:crypto';
import { AuditPatient, AuditedPublication } from './population-audit';
import { CohortPatient } from './population-fixture';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { buildMicrocells } from '../../src/population/microcells';
import { Microcell } from '../../src/population/microcells';
import { CheckedDraw } from '../../src/population/disclosure-check';
import { cellKeyOf, perturb } from '../../src/population/perturbation';
import { StrataDomains, buildPublication } from '../../src/population/published-quantities';
import { PublicationRecord, drawPopulationCounts, publicationSaltOf, publishPopulationCounts } from '../../src/population/population-counts';

/**
 * What the population disclosure tests share (test/integration/population-disclosure*.int-spec.ts):
 * seeded draws of random record keys, the publisher as the route runs it, and the publication the
 * replaced rule made, which the auditor must break.
 */
const TEAMS = ['primary-care-north', 'primary-care-south'];
const DOMAINS = { careTeams: TEAMS, measureIds: [...MEASURE_IDS] };
/**
 * Key draws: each gives every patient a random 48-bit record key of its own. Each audit costs seconds
 * of integer programs (about 10 s of CPU per draw on the fixture cohort), so the fixture cohort gets
 * three: its first draws are clean (none redrawn in 210 draws), so each is one more sample of the
 * auditor finding nothing, and the pairs file audits four more publications of the same cohort with
 * one patient added or changed. The near-threshold cohort below, where the check does redraw, gets
 * the first 17 (about a second each), among them 6, 15 and 16, whose first draws pin a count.
 */
export const KEY_DRAWS = Array.from({ length: 3 }, (_, seed) => seed);
export const NEAR_THRESHOLD_KEY_DRAWS = Array.from({ length: 17 }, (_, seed) => seed);
/**
 * The key draws the two-publication audits (slower: binaries over two publications, and the check
 * redraws more) run on, per kind of change: under draw 1 only the check across publications protects
 * the imported patient (the draw this file exists for); draw 0 is a clean import, and the status
 * change's draw 1 a clean change of another kind. (Import draw 2, another clean one, was dropped:
 * 20 to 30 s of CPU for a third sample of what draw 0 shows.)
 */
export const CHANGE_KEY_DRAWS = { 'patient-added': [0, 1], 'status-changed': [1] } as const;
export const recordKeyOf = (seed: number, key: string) => createHash('sha256').update(`key draw ${seed}: ${key}`).digest().readUIntBE(0, 6);

const microcellsOf = (patients: readonly CohortPatient[], seed: number) =>
  buildMicrocells(patients.flatMap((p) =>
    MEASURE_IDS.map((measureId) => ({
      careTeams: p.careTeams, age: p.age, sex: p.sex, measureId, status: p.results[measureId].status as never, reasonCode: p.reasonCodes[measureId], recordKey: recordKeyOf(seed, p.key),
    })),
  ));

/** What the route publishes: the checked draw, checked with the publication before it when there is one. */
const checkedPublication = (patients: readonly CohortPatient[], seed: number, previous: PublicationRecord | null = null) =>
  publishPopulationCounts(microcellsOf(patients, seed), DOMAINS, { previous });
/**
 * The first of two publications, checked on its own: the publisher is deterministic and its check
 * costs seconds of integer programs, so the same cohort and key draw are published once per file
 * (the two kinds of change share their first publication).
 */
const alone = new WeakMap<readonly CohortPatient[], Map<number, ReturnType<typeof checkedPublication>>>();
const checkedAlone = (patients: readonly CohortPatient[], seed: number) => {
  const bySeed = alone.get(patients) ?? new Map<number, ReturnType<typeof checkedPublication>>();
  alone.set(patients, bySeed);
  if (!bySeed.has(seed)) bySeed.set(seed, checkedPublication(patients, seed));
  return bySeed.get(seed)!;
};
export const publish = async (patients: readonly CohortPatient[], seed: number) => (await checkedAlone(patients, seed)).counts as unknown as AuditedPublication;
/** Two consecutive publications, as the route serves them: the second checked with the first (made once per file, as `publish`). */
const twice = new WeakMap<readonly CohortPatient[], Map<number, Promise<[AuditedPublication, AuditedPublication]>>>();
export const publishTwice = (first: readonly CohortPatient[], second: readonly CohortPatient[], seed: number) => {
  const bySeed = twice.get(second) ?? new Map<number, Promise<[AuditedPublication, AuditedPublication]>>();
  twice.set(second, bySeed);
  if (!bySeed.has(seed)) {
    bySeed.set(seed, (async () => {
      const before = await checkedAlone(first, seed);
      const after = await checkedPublication(second, seed, before.record);
      return [before.counts, after.counts] as unknown as [AuditedPublication, AuditedPublication];
    })());
  }
  return bySeed.get(seed)!;
};
/**
 * Starts a publication the next test will read, so that the publisher's solver thread makes it
 * while this test's auditor solves on the test's own thread; its test awaits it (and sees any failure).
 */
export const prefetch = (publication: Promise<unknown>) => void publication.catch(() => undefined);
/** The first draw, unchecked: what the route published before it checked its draws. */
export const firstDraw = (patients: readonly CohortPatient[], seed: number) => drawPopulationCounts(microcellsOf(patients, seed), DOMAINS) as unknown as AuditedPublication;

/** The first draw (every table shown) as the publisher's check reads it, to ask the check about it directly. */
export function firstCheckedDraw(microcells: readonly Microcell[], domains: StrataDomains): CheckedDraw {
  const publication = buildPublication(microcells, domains);
  const salt = publicationSaltOf(microcells, domains);
  return { microcells, publication, shown: new Map(publication.quantities.map((q) => [q.key, perturb(q.value, cellKeyOf(salt, q.keySum))])) };
}

/**
 * What the replaced rule published for the fixture cohort: exact counts, 1 to 10 withheld, and (as
 * it chose) the total of CMS130, whose other cells were 11 and 11. Built here from the truth.
 */
function exactPublication(patients: readonly AuditPatient[], withhold: (table: string, label: string) => boolean): AuditedPublication {
  const published = firstDraw(patients as CohortPatient[], 0);
  const count = (measureId: string, fixed: Record<string, string>) =>
    patients.filter((p) => Object.entries(fixed).every(([field, value]) =>
      field === 'careTeam' ? p.careTeams.includes(value) : field === 'status' || field === 'reasonClass' ? p.results[measureId][field] === value : (p as unknown as Record<string, string>)[field] === value,
    )).length;
  const shown = (table: string, label: string, n: number) => (n >= 1 && n <= 10) || withhold(table, label) ? { suppressed: true } : { count: n };
  return {
    policy: { method: 'exact-with-suppression' },
    tables: published.tables.map((t) => {
      const at = (row: string | null, column: string | null) => {
        const measureId = t.measureId ?? (row as string);
        const fixed: Record<string, string> = {};
        if (row !== null && t.rowDimension !== 'measure') fixed[t.rowDimension] = row;
        if (column !== null) fixed[t.columnDimension] = column;
        return shown(t.id, `${row ?? 'total'}, ${column ?? 'total'}`, count(measureId, fixed));
      };
      return {
        ...t,
        cells: t.rows.map((row) => t.columns.map((column) => at(row, column))),
        rowTotals: t.rows.map((row) => at(row, null)),
        columnTotals: t.columnTotals && t.columns.map((column) => at(null, column)),
        grandTotal: t.grandTotal === null ? null : at(null, null),
      };
    }),
  };
}
export const replacedRule = (patients: readonly AuditPatient[]) => exactPublication(patients, (table, label) => table === 'measures' && label === 'CMS130, total');

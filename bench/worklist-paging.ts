import { Client } from 'pg';
import { alternatingHttpLoad, Cell, httpLoad, HttpRequestSpec } from './load';
import { cycle } from './patient-sample';
import { ServerProcess } from './servers';

/**
 * Issue 14's worklist target: a page of `GET /care-teams/{code}/worklist` against a single
 * `patient_labs` call, both through Vigil in the same run. Pages are first pages and pages deep in
 * the list (their cursors collected by walking each team's list before measuring), of every team
 * with a clinician, in a few shapes a care team uses; the load cycles through them.
 */

export interface WorklistShape {
  label: string;
  query: string;
}

export const WORKLIST_SHAPES: readonly WorklistShape[] = [
  { label: 'by name, no filter', query: 'sort=name' },
  { label: 'open CMS122 gaps, by name', query: 'measure=CMS122&status=open-gap&sort=name' },
  { label: 'by age, youngest first', query: 'sort=age&order=asc' },
  { label: 'open CMS165 gaps, most overdue first', query: 'measure=CMS165&status=open-gap&sort=lastResult&order=asc' },
  // No measure: each patient's latest day over all matching results, a walk of the status index (README).
  { label: 'any open gap, most overdue first', query: 'status=open-gap&sort=lastResult&order=asc' },
];

/** Pages walked per team and shape to collect cursors (the load then cycles through all of them). */
const PAGES_PER_TEAM = 8;

export interface WorklistMeasurement {
  shape: WorklistShape;
  /** Distinct pages the load cycled through. */
  pages: number;
  cells: Cell[];
  /** `patient_labs` at c=1, its calls taken in turn with this shape's c=1 pages (when a reference was given). */
  labsAlongside?: Cell;
}

export interface WorklistResult {
  teams: { code: string; patients: number }[];
  shapes: WorklistMeasurement[];
}

export async function measureWorklists(options: {
  vigil: ServerProcess;
  url: string;
  token: (username: string) => Promise<string>;
  concurrency: number[];
  seconds: number;
  warmupSeconds: number;
  stop: () => boolean;
  log: (message: string) => void;
  /**
   * `patient_labs` requests: taken in turn with each shape's pages at c=1 (`alternatingHttpLoad`),
   * so the ratio compares the two over the same seconds (the tools part ran minutes earlier, and
   * this shared machine's speed drifts over minutes, and even between two cells in a row).
   */
  labs?: () => HttpRequestSpec;
}): Promise<WorklistResult> {
  const teams = await teamsWithClinician(options.url);
  const tokens = new Map<string, string>();
  for (const team of teams) tokens.set(team.code, await options.token(team.username));
  const shapes: WorklistMeasurement[] = [];
  for (const shape of WORKLIST_SHAPES) {
    const pages: { path: string; token: string }[] = [];
    for (const team of teams) {
      const token = tokens.get(team.code) as string;
      for (const path of await walk(options.vigil.base, `/care-teams/${encodeURIComponent(team.code)}/worklist?${shape.query}&limit=25`, token)) pages.push({ path, token });
    }
    if (pages.length === 0) throw new Error(`worklist ${shape.label}: no page answered 200`);
    const sequence = cycle(pages);
    const next = () => {
      const page = sequence.next();
      return { method: 'GET' as const, path: page.path, headers: { authorization: `Bearer ${page.token}` } };
    };
    if (options.warmupSeconds > 0) await httpLoad(options.vigil.base, next, Math.max(...options.concurrency), options.warmupSeconds);
    const cells: Cell[] = [];
    let labsAlongside: Cell | undefined;
    for (const concurrency of options.concurrency) {
      if (options.stop()) throw new Error('interrupted');
      sequence.reset();
      if (concurrency === 1 && options.labs) {
        // Pages and labs calls in turn, twice as long so each gets its usual number of requests: the
        // ratio compares them over the same seconds. The CPU is the pair's, so none is given per page.
        const [labs, page] = await alternatingHttpLoad(options.vigil.base, [options.labs, next], 2 * options.seconds);
        labsAlongside = labs;
        cells.push(page);
        options.log(`worklist ${shape.label} c=1, in turn with patient_labs: page p50 ${page.p50.toFixed(2)} ms, labs p50 ${labs.p50.toFixed(2)} ms` + (page.errors ? `, ${page.errors} errors` : ''));
        continue;
      }
      const before = options.vigil.cpuMs();
      const cell = await httpLoad(options.vigil.base, next, concurrency, options.seconds);
      cells.push({ ...cell, cpuMsPerRequest: (options.vigil.cpuMs() - before) / Math.max(1, cell.requests) });
      options.log(`worklist ${shape.label} c=${concurrency}: p50 ${cell.p50.toFixed(2)} ms, p99 ${cell.p99.toFixed(2)} ms, ${cell.rps.toFixed(0)} req/s` + (cell.errors ? `, ${cell.errors} errors` : ''));
    }
    shapes.push({ shape, pages: pages.length, cells, labsAlongside });
  }
  return { teams: teams.map(({ code, patients }) => ({ code, patients })), shapes };
}

/** The first page and up to PAGES_PER_TEAM − 1 further ones, by following `nextCursor`. */
async function walk(base: string, first: string, token: string): Promise<string[]> {
  const paths: string[] = [];
  let path: string | null = first;
  while (path && paths.length < PAGES_PER_TEAM) {
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { nextCursor?: string | null };
    if (response.status !== 200) throw new Error(`worklist ${path.split('?')[0]} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
    paths.push(path);
    path = body.nextCursor ? `${first}&cursor=${encodeURIComponent(body.nextCursor)}` : null;
  }
  return paths;
}

/** Every care team with an active clinician on it (the one on the fewest teams), and its patient count. */
async function teamsWithClinician(url: string): Promise<{ code: string; username: string; patients: number }[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ code: string; username: string; patients: number }>(
      `SELECT DISTINCT ON (t.id) t.code, u.username, (SELECT count(*)::int FROM patient_care_teams p WHERE p.care_team_id = t.id) AS patients
       FROM care_teams t JOIN care_team_members m ON m.care_team_id = t.id JOIN staff_users u ON u.id = m.staff_user_id AND u.role = 'clinician' AND u.active
       ORDER BY t.id, (SELECT count(*) FROM care_team_members o WHERE o.staff_user_id = u.id), u.username`,
    );
    return rows.filter((row) => row.patients > 0).sort((a, b) => a.code.localeCompare(b.code));
  } finally {
    await client.end();
  }
}

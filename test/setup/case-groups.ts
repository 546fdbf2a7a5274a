import { readdirSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * Runs a tier's cases (`<name><suffix>` files, beside the groups' list) as a few Jest files, one per
 * group, rather than one file each. Jest gives every test file a fresh module registry, and loading
 * the app into one (Nest, TypeORM, the drivers and the whole of src, about 3,200 modules, each
 * compiled again in the file's own context) costs about 2 s of CPU before the file's first test; the
 * cases of a group load it once, and a worker holds fewer registries (docs/development.md, "Where the
 * run's time goes"). Each case still opens its own database clone and starts its own app, as it did
 * as a file of its own, so no case sees another's data.
 *
 * What a group cannot isolate: a case that mocks a module, spies, fakes timers or changes
 * `process.env` would carry it into the next case, and so would a library's module-level state, such
 * as Nest's process-wide logger (the last app's): a case that starts its own worker and reads that
 * worker's log lines (`delivery-smart.int-spec.ts`) would read another case's app: such a file stays
 * a Jest file of its own. A case's module-level `jest.setTimeout` holds for its whole group (Jest keeps one
 * timeout per file).
 */
export interface CaseGroups<G extends string> {
  /** The folder of the case files (the list's `__dirname`). */
  folder: string;
  /** The case files' ending, `.e2e-case.ts`. */
  suffix: string;
  /** Each group's cases, in the order they run. */
  groups: Record<G, readonly string[]>;
  /** Loads one case, by its name, relative to `folder` (a `require` there: this module cannot resolve it). */
  load: (name: string) => void;
}

/** Every case file in exactly one group, and every grouped name a case file: else a case would silently not run. */
function checkGroups<G extends string>({ folder, suffix, groups }: CaseGroups<G>): void {
  const grouped: string[] = Object.values<readonly string[]>(groups).flat();
  const cases = readdirSync(folder)
    .filter((file) => file.endsWith(suffix))
    .map((file) => file.slice(0, -suffix.length));
  const problems = [
    ...cases.filter((name) => !grouped.includes(name)).map((name) => `${name}${suffix} is in no group`),
    ...grouped.filter((name, i) => grouped.indexOf(name) !== i).map((name) => `${name} is in two groups`),
    ...grouped.filter((name) => !cases.includes(name)).map((name) => `${name} is grouped but ${name}${suffix} does not exist`),
  ];
  if (problems.length > 0) throw new Error(`${relative(process.cwd(), folder)}/groups.ts: ${[...new Set(problems)].join('; ')}`);
}

/**
 * Registers a group's cases in the calling Jest file: all of them, or those whose names match
 * VIGIL_TEST_CASE, a regular expression (docs/development.md, "Running one test").
 */
export function registerCaseGroup<G extends string>(list: CaseGroups<G>, group: G): void {
  checkGroups(list);
  const only = process.env.VIGIL_TEST_CASE;
  const chosen = list.groups[group].filter((name) => only === undefined || new RegExp(only).test(name));
  if (chosen.length === 0) {
    // A Jest file must hold a test; this one says why the group ran nothing.
    it.skip(`no case of the ${group} group matches VIGIL_TEST_CASE=${only}`, () => undefined);
    return;
  }
  // A case registers its describe blocks when loaded; loading only the chosen ones is what lets one case run alone.
  for (const name of chosen) list.load(name);
}

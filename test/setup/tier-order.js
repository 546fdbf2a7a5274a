const Sequencer = require('@jest/test-sequencer').default;
const { relative } = require('node:path');

/**
 * Runs the tiers one after another in a single Jest run: unit (the quickest answer), integration,
 * then e2e. One run rather than three never leaves a worker waiting for a tier's last file, and the
 * tiers following each other is what gives the tier-times reporter (tier-times.js) a wall time per
 * tier.
 *
 * Within a tier, last run's failures first, then the longest files. Jest knows a file's time only
 * once this machine has run it, and runs the files it has not timed first, largest first: on a clean
 * clone (CI) a short file with slow cases, such as the two-publication disclosure audits, would start
 * near the end and leave the other worker idle. So a file's time is Jest's when it has one, else the
 * time measured below; files with neither keep Jest's order, after the timed ones.
 */
const TIERS = ['unit', 'integration', 'e2e'];

/**
 * Seconds each file took alone on a quiet two-core machine (`npx jest --selectProjects <tier> -- <file>`), the groups aside;
 * the five slowest integration files' are their times before they stopped repeating work, scaled by the
 * CPU time that saved (their order is what matters here, not the exact seconds).
 * Only the files over a few seconds: the rest are short enough that their order does not matter.
 */
const MEASURED_SECONDS = {
  'test/integration/vigil-reference-diff.int-spec.ts': 140,
  'test/integration/population-disclosure-pairs.int-spec.ts': 103,
  // Measured alone at a load of about 2 (npx jest -i): it reads shared libraries once now.
  'test/integration/elm-official-cases.int-spec.ts': 25,
  'test/integration/published-care-gaps.int-spec.ts': 24,
  'test/integration/reference-engine.int-spec.ts': 45,
  'test/integration/population-disclosure.int-spec.ts': 46,
  // The integration groups (test/integration/groups.ts): the sum of their cases' times in one run on a
  // busy machine, divided by three.
  'test/integration/measure-store.int-spec.ts': 45,
  'test/integration/delivery.int-spec.ts': 36,
  'test/integration/audit-and-access.int-spec.ts': 31,
  'test/integration/approvals-and-queue.int-spec.ts': 26,
  'test/integration/database.int-spec.ts': 24,
  'test/integration/fhir-imports-and-cohorts.int-spec.ts': 14,
  // The e2e groups (test/e2e/groups.ts): the sum of their cases' times in one run of the tier on a busy
  // machine, about three times a quiet one's; the browser group's is three times its files' quiet times.
  'test/e2e/measures.e2e-spec.ts': 286,
  'test/e2e/access.e2e-spec.ts': 232,
  'test/e2e/contract.e2e-spec.ts': 190,
  'test/e2e/platform.e2e-spec.ts': 175,
  'test/e2e/agent-turns.e2e-spec.ts': 171,
  'test/e2e/mcp-surface.e2e-spec.ts': 167,
  'test/e2e/compiled-service.e2e-spec.ts': 160,
  'test/e2e/review-page-browser.e2e-spec.ts': 160,
  'test/e2e/proposals-and-worklists.e2e-spec.ts': 143,
  'test/e2e/audit-and-paths.e2e-spec.ts': 137,
  'src/generator/patient-record.spec.ts': 6,
  'scripts/build-if-stale.spec.ts': 4,
};

class TierOrder extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = TIERS.indexOf(test.context.config.displayName?.name);
      return index < 0 ? TIERS.length : index;
    };
    // Jest's order (failures, its timings, then size); super.sort sets `duration` from its cache.
    const jestOrder = super.sort(tests);
    const position = new Map(jestOrder.map((test, i) => [test, i]));
    const failed = (test) => (this.hasFailed(test) ? 0 : 1);
    const millis = (test) => test.duration ?? (MEASURED_SECONDS[relative(test.context.config.rootDir, test.path)] ?? NaN) * 1000;
    const byTime = (a, b) => {
      const [ta, tb] = [millis(a), millis(b)];
      if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.isNaN(ta) - Number.isNaN(tb) || position.get(a) - position.get(b);
      return tb - ta || position.get(a) - position.get(b);
    };
    return [...jestOrder].sort((a, b) => rank(a) - rank(b) || failed(a) - failed(b) || byTime(a, b));
  }
}

module.exports = TierOrder;

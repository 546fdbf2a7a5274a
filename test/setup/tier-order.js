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
 * Seconds each file took alone on a quiet two-core machine (`npx jest --selectProjects <tier> -- <file>`);
 * the five slowest integration files' are their times before they stopped repeating work, scaled by the
 * CPU time that saved (their order is what matters here, not the exact seconds).
 * Only the files over a few seconds: the rest are short enough that their order does not matter.
 */
const MEASURED_SECONDS = {
  'test/integration/vigil-reference-diff.int-spec.ts': 140,
  'test/integration/population-disclosure-pairs.int-spec.ts': 103,
  'test/integration/elm-official-cases.int-spec.ts': 61,
  'test/integration/reference-engine.int-spec.ts': 45,
  'test/integration/population-disclosure.int-spec.ts': 46,
  'test/integration/measure-results.int-spec.ts': 10,
  'test/e2e/review-page-oidc.e2e-spec.ts': 25,
  'test/e2e/route-access.e2e-spec.ts': 22,
  'test/e2e/openapi-contract.e2e-spec.ts': 18,
  'test/e2e/deqm-care-gaps.e2e-spec.ts': 17,
  'test/e2e/statement-capture.e2e-spec.ts': 16,
  'test/e2e/deqm-care-gaps-parameters.e2e-spec.ts': 11,
  'test/e2e/review-acceptance.e2e-spec.ts': 10,
  'test/e2e/hostile-input.e2e-spec.ts': 9,
  'test/e2e/review-page-work.e2e-spec.ts': 9,
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

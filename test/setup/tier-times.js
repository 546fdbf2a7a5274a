/**
 * A Jest reporter that prints how long each tier (Jest project) took. One run holds every tier, one
 * after another on the same workers (test/setup/tier-order.js), so a tier's time is read from its
 * files: its wall-clock span (first file started to last file finished) and its files' summed time,
 * which is larger when workers ran them side by side. Then the global setup (the dist/ check or
 * build, the template database), which Jest runs before any reporter starts, and the whole run;
 * last, the slowest files, where a shorter run has to come from.
 */
const SLOWEST_SHOWN = 10;

class TierTimes {
  constructor(globalConfig) {
    this.workers = globalConfig.maxWorkers;
    this.tiers = new Map();
    this.files = [];
  }

  onTestResult(test, result) {
    const name = test.context.config.displayName?.name ?? 'tests';
    const tier = this.tiers.get(name) ?? { files: 0, tests: 0, failed: 0, busyMs: 0, first: Infinity, last: 0 };
    const { start, end } = result.perfStats;
    tier.files += 1;
    tier.tests += result.numPassingTests + result.numFailingTests + result.numPendingTests + result.numTodoTests;
    tier.failed += result.failureMessage ? 1 : 0;
    // A file that failed to load has no times.
    if (start > 0 && end >= start) {
      tier.busyMs += end - start;
      this.files.push({ path: test.path.slice(test.context.config.rootDir.length + 1), ms: end - start });
      tier.first = Math.min(tier.first, start);
      tier.last = Math.max(tier.last, end);
    }
    this.tiers.set(name, tier);
  }

  onRunComplete(_contexts, results) {
    if (this.tiers.size === 0) return;
    const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
    const lines = [...this.tiers].map(([name, tier]) => {
      const span = tier.last > 0 ? tier.last - tier.first : 0;
      const failed = tier.failed ? `, ${tier.failed} failed` : '';
      return `  ${name.padEnd(12)} ${seconds(span).padStart(8)} wall, ${seconds(tier.busyMs).padStart(8)} in its files (${tier.files} files, ${tier.tests} tests${failed})`;
    });
    // Set by the integration and e2e tiers' global setup, in this process; the unit tier has none.
    const setupMs = process.env.VIGIL_TEST_SETUP_MS;
    if (setupMs) lines.push(`  ${'setup'.padEnd(12)} ${seconds(Number(setupMs)).padStart(8)} (dist/ check or build, template database)`);
    const workers = `${this.workers} worker${this.workers === 1 ? '' : 's'}`;
    lines.push(`  ${'whole run'.padEnd(12)} ${seconds(process.uptime() * 1000).padStart(8)} (Jest's start to the last file's end; the files alone ${seconds(Date.now() - results.startTime)}), on ${workers}`);
    const slowest = [...this.files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
    if (this.files.length > 1) lines.push('Slowest files:', ...slowest.map((file) => `  ${seconds(file.ms).padStart(8)}  ${file.path}`));
    process.stderr.write(`\nTier times:\n${lines.join('\n')}\n`);
  }
}

module.exports = TierTimes;

const Sequencer = require('@jest/test-sequencer').default;

/**
 * Runs the tiers one after another in a single Jest run: unit (the quickest answer), integration,
 * then e2e. Within a tier Jest's own order stands: last run's failures first, then the longest files
 * (or the largest, before any run has been timed), so a tier ends on short files and the next tier's
 * first files fill the idle worker. One run rather than three never leaves a worker waiting for a
 * tier's last file, and the tiers following each other is what gives the tier-times reporter
 * (tier-times.js) a wall time per tier.
 */
const TIERS = ['unit', 'integration', 'e2e'];

class TierOrder extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = TIERS.indexOf(test.context.config.displayName?.name);
      return index < 0 ? TIERS.length : index;
    };
    // Array.prototype.sort is stable: Jest's order within a tier is kept.
    return super.sort(tests).sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = TierOrder;

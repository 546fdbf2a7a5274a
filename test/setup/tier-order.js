const Sequencer = require('@jest/test-sequencer').default;

/**
 * Runs the tiers one after another in a single Jest run: integration (the longest files), then e2e,
 * then unit (many short files, which fill the workers at the end). Within a tier Jest's own order
 * stands: last run's failures first, then the longest files (or the largest, before any run has been
 * timed). One run rather than three keeps both workers busy across a tier's end, and the tiers
 * following each other is what gives the tier-times reporter a wall time per tier.
 */
const TIERS = ['integration', 'e2e', 'unit'];

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

/**
 * The last `capacity` numbers added, for quantiles over a sliding window (the sealer's lags). A ring:
 * once full, each value overwrites the oldest in place. (Shifting the whole window for every value,
 * as `push` + `splice` did, showed in the CPU profile of worklist pages: 25 sealed events each.)
 */
export class RecentValues {
  private readonly values: number[] = [];
  private oldest = 0;

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  add(value: number): void {
    if (this.values.length < this.capacity) {
      this.values.push(value);
      return;
    }
    this.values[this.oldest] = value;
    this.oldest = (this.oldest + 1) % this.capacity;
  }

  /** The window's values, ascending. */
  sorted(): number[] {
    return [...this.values].sort((a, b) => a - b);
  }
}

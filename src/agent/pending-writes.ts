/**
 * Writes of the turn record that run while the turn goes on (a reply's tool calls, stored while the
 * model reads their results): `settle` waits for every one started so far and rejects with the first
 * failure, once; a failure is held until then, never left unhandled.
 */
export class PendingWrites {
  private writes: Promise<void>[] = [];
  private failure: { error: unknown } | null = null;

  add(write: Promise<void>): void {
    this.writes.push(
      write.catch((error: unknown) => {
        this.failure ??= { error };
      }),
    );
  }

  async settle(): Promise<void> {
    await Promise.all(this.writes.splice(0));
    const failure = this.failure;
    this.failure = null;
    if (failure) throw failure.error;
  }
}

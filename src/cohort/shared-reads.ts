import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Reads that work started together may share (`run`): inside it, the first `read` of a key runs
 * and every later one of the same key gets its result instead of reading again. A later one whose
 * shared read failed reads on its own, so a failure stays the failing caller's. Outside `run`
 * every read is its own. The value is shared as it is: callers must not change it.
 */
export class SharedReads<V> {
  private readonly scope = new AsyncLocalStorage<Map<string, Promise<V>>>();

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.scope.run(new Map(), work);
  }

  read(key: string, read: () => Promise<V>): Promise<V> {
    const shared = this.scope.getStore();
    if (!shared) return read();
    const pending = shared.get(key);
    if (pending) return pending.catch(() => read());
    const started = read();
    shared.set(key, started);
    return started;
  }
}

import { RedisConnection } from 'bullmq';

const installed = Symbol('vigil.unheardConnectionErrorsDropped');

/**
 * Makes a BullMQ connection drop an 'error' event that no listener can hear any more, instead of
 * throwing it. BullMQ 5 re-emits a failed start of a connection (it waits for Redis to be ready and
 * keeps the last connection error) as an 'error' event on the connection itself. When a queue or
 * worker is closed while Redis is unreachable and a reconnect attempt is in flight, close() has
 * already removed every listener by the time that attempt fails and the client ends; the start then
 * fails with the earlier connection error, EventEmitter throws it, and it escapes as an unhandled
 * rejection, which stops the process during what should be a clean shutdown. Queues and workers
 * report outages through their own listeners while they run, so nothing is lost. BullMQ 6 makes the
 * same check itself. Idempotent; called before any queue or worker is built.
 */
export function dropUnheardConnectionErrors(): void {
  const prototype = RedisConnection.prototype as RedisConnection & { [installed]?: true };
  if (prototype[installed]) return;
  const emit = prototype.emit;
  prototype.emit = function (this: RedisConnection, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error' && this.listenerCount('error') === 0) return false;
    return emit.call(this, event, ...args);
  };
  prototype[installed] = true;
}

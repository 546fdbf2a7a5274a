import { Logger } from '@nestjs/common';
import { toSafeError } from '../common/logging/log-redaction';

/**
 * Logs a dependency's availability once per change of state, not once per failed attempt (a relay
 * polling every 500 ms would otherwise write a line twice a second for the whole outage). Errors
 * are reduced to their type and code: a connection error's message names the host and port.
 */
export class AvailabilityLog {
  private state: 'up' | 'down' | undefined;

  /** The database as `label` reads `source` from it: "Expiry sweep cannot read proposals; retrying". */
  static ofDatabase(logger: Logger, label: string, source: string): AvailabilityLog {
    return new AvailabilityLog(logger, { down: `${label} cannot read ${source}; retrying`, up: `${label} reads ${source} again` });
  }

  constructor(
    private readonly logger: Logger,
    private readonly messages: { up: string; down: string },
  ) {}

  get isDown(): boolean {
    return this.state === 'down';
  }

  up(): void {
    if (this.state === 'down') this.logger.log(this.messages.up);
    this.state = 'up';
  }

  down(error: unknown): void {
    if (this.state !== 'down') {
      this.logger.warn({ err: safeError(error) }, this.messages.down);
    }
    this.state = 'down';
  }
}

/** An error as it may be logged: type and code, never the message (it may quote values or a URL). */
export function safeError(error: unknown): { type: string; code?: string } {
  return error instanceof Error ? toSafeError(error) : { type: typeof error };
}

/**
 * An error as a job may store it in Redis (BullMQ keeps a failed job's message and stack in clear
 * text, and a driver message can quote row values): `Error 23505`, type and code only.
 */
export function safeErrorText(error: unknown): string {
  const safe = safeError(error);
  return safe.code ? `${safe.type} ${safe.code}` : safe.type;
}

import { LoggerService } from '@nestjs/common';
import { Logger } from 'pino';

/**
 * Nest's own logger until the app's PHI-safe one takes over (`app.useLogger`): start-up messages as
 * JSON lines instead of coloured text. Error lines keep only their context, never the message or
 * stack Nest passes (a driver's "connect ECONNREFUSED host:port", SQL), because those are free text.
 */
export class NestStartupLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.logger.info({ context: contextOf(rest) }, String(message));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.logger.warn({ context: contextOf(rest) }, String(message));
  }

  error(_message: unknown, ...rest: unknown[]): void {
    this.logger.error({ context: contextOf(rest) }, 'Start-up error (details withheld from the log)');
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.logger.debug({ context: contextOf(rest) }, String(message));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.logger.trace({ context: contextOf(rest) }, String(message));
  }

  fatal(_message: unknown, ...rest: unknown[]): void {
    this.logger.fatal({ context: contextOf(rest) }, 'Start-up failure (details withheld from the log)');
  }
}

/** Nest passes the context (a class name) as the last string argument. */
function contextOf(rest: unknown[]): string | undefined {
  const last = rest[rest.length - 1];
  return typeof last === 'string' && /^[A-Za-z0-9_.-]{1,80}$/.test(last) ? last : undefined;
}

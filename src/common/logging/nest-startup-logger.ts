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
    const context = contextOf(rest);
    if (isNestWiring(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
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

/**
 * Nest's account of its own wiring: a line per module (InstanceLoader), per controller (RoutesResolver)
 * and per route (RouterExplorer), some seventy at every start. They are debug lines, not info: at the
 * default level a start-up says what an operator acts on (the database, the dependencies, where it
 * listens), and the routes are in the API docs. Nest logs them with `log`, so this is where they go down.
 */
const NEST_WIRING = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

function isNestWiring(context: string | undefined): boolean {
  return context !== undefined && NEST_WIRING.has(context);
}

/** The app's own logger as Nest's (`app.useLogger`), with Nest's wiring lines at debug. */
export class QuietNestWiring implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (isNestWiring(contextOf(rest))) this.inner.debug?.(message, ...rest);
    else this.inner.log(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal?.(message, ...rest);
  }
}

/** Nest passes the context (a class name) as the last string argument. */
function contextOf(rest: unknown[]): string | undefined {
  const last = rest[rest.length - 1];
  return typeof last === 'string' && /^[A-Za-z0-9_.-]{1,80}$/.test(last) ? last : undefined;
}

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

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/**
 * Nest's logger once the app is up (`app.useLogger`): the root logger itself, so every `Logger` of
 * Nest's (`new Logger(Context)` in a service) writes through the PHI redaction, with Nest's wiring
 * lines at debug. No request context: a line written for a request says which one by the
 * `correlationId` field its caller passes. A message object's fields become the line's, an `Error`
 * its `err`, the last argument its `context`, as nestjs-pino wrote them.
 */
export class NestAppLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write(isNestWiring(contextOf(rest)) ? 'debug' : 'info', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = rest.length > 0 ? { context: rest[rest.length - 1] } : {};
    const [text, ...args] = rest.slice(0, -1) as [string | undefined, ...unknown[]];
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, text ?? WITHHELD, ...args);
    } else if (typeof message === 'object' && message !== null) {
      const object = { ...fields, ...message };
      // Without a message of its own, pino would take the error's (free text: a driver's, a value).
      this.logger[level](object, text ?? ('err' in object && !('msg' in object) ? WITHHELD : undefined), ...args);
    } else if (level === 'error' && isNestStack(rest)) {
      // Nest's exception handlers pass (message, stack, context): the error, which the redaction reduces to its type and frames.
      this.logger.error({ ...fields, err: Object.assign(new Error(String(message)), { stack: text }) }, WITHHELD);
    } else {
      this.logger[level](fields, String(message), ...rest.slice(0, -1));
    }
  }
}

const WITHHELD = 'Error (its message withheld from the log)';

/** Nest's `(message, stack, context)` contract for errors (its exception handlers, not a service's `error`). */
function isNestStack(rest: unknown[]): boolean {
  return rest.length === 2 && typeof rest[0] === 'string' && /\n\s*at /.test(rest[0]);
}

/** Nest passes the context (a class name) as the last string argument. */
function contextOf(rest: unknown[]): string | undefined {
  const last = rest[rest.length - 1];
  return typeof last === 'string' && /^[A-Za-z0-9_.-]{1,80}$/.test(last) ? last : undefined;
}

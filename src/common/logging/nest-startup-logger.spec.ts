import { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { Logger as Pino } from 'pino';
import { LogLevel } from '../../config/environment.schema';
import { createRootLogger } from './logger';
import { NestStartupLogger, QuietNestWiring } from './nest-startup-logger';

/** What a logger at `level` writes for one `log` call of Nest's with `context`: the pino levels of its lines. */
function linesFor(level: LogLevel, context: string, nestLogger: (root: Pino) => LoggerService): number[] {
  const lines: string[] = [];
  const root = createRootLogger(level, { write: (chunk: string) => void lines.push(chunk) });
  nestLogger(root).log('Mapped {/health, GET} route', context);
  return lines.map((line) => (JSON.parse(line) as { level: number }).level);
}

const INFO = 30;
const DEBUG = 20;

describe('Nest start-up lines', () => {
  // Nest logs through its start-up logger until the app's own (nestjs-pino's, wrapped) takes over.
  const loggers: [string, (root: Pino) => LoggerService][] = [
    ['the start-up logger', (root) => new NestStartupLogger(root)],
    [
      "the app's logger",
      (root) => {
        // nestjs-pino keeps the first logger it is given in a module variable.
        __resetOutOfContextForTests();
        return new QuietNestWiring(new Logger(new PinoLogger({ pinoHttp: { logger: root } }), {}));
      },
    ],
  ];

  describe.each(loggers)('through %s', (_name, nestLogger) => {
    it.each(['InstanceLoader', 'RoutesResolver', 'RouterExplorer'])('%s (a line per module, controller or route): none at info, a debug line at debug', (context) => {
      expect(linesFor('info', context, nestLogger)).toEqual([]);
      expect(linesFor('debug', context, nestLogger)).toEqual([DEBUG]);
    });

    it.each(['NestFactory', 'NestApplication', 'MeasureWorker'])('%s: an info line at info', (context) => {
      expect(linesFor('info', context, nestLogger)).toEqual([INFO]);
    });
  });
});

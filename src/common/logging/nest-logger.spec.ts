import { LoggerService } from '@nestjs/common';
import { Logger as Pino } from 'pino';
import { LogLevel } from '../../config/environment.schema';
import { createRootLogger } from './logger';
import { NestAppLogger, NestStartupLogger } from './nest-logger';

/** The lines a root logger at `level` writes for what `act` does through the Nest logger made over it. */
function linesOf(level: LogLevel, nestLogger: (root: Pino) => LoggerService, act: (logger: LoggerService) => void): Record<string, unknown>[] {
  const lines: string[] = [];
  act(nestLogger(createRootLogger(level, { write: (chunk: string) => void lines.push(chunk) })));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

const INFO = 30;
const DEBUG = 20;

describe('Nest start-up lines', () => {
  // Nest logs through its start-up logger until the app's own takes over.
  const loggers: [string, (root: Pino) => LoggerService][] = [
    ['the start-up logger', (root) => new NestStartupLogger(root)],
    ["the app's logger", (root) => new NestAppLogger(root)],
  ];

  describe.each(loggers)('through %s', (_name, nestLogger) => {
    const levelsFor = (level: LogLevel, context: string) =>
      linesOf(level, nestLogger, (logger) => logger.log('Mapped {/health, GET} route', context)).map((line) => line.level);

    it.each(['InstanceLoader', 'RoutesResolver', 'RouterExplorer'])('%s (a line per module, controller or route): none at info, a debug line at debug', (context) => {
      expect(levelsFor('info', context)).toEqual([]);
      expect(levelsFor('debug', context)).toEqual([DEBUG]);
    });

    it.each(['NestFactory', 'NestApplication', 'MeasureWorker'])('%s: an info line at info', (context) => {
      expect(levelsFor('info', context)).toEqual([INFO]);
    });
  });
});

describe(NestAppLogger.name, () => {
  const write = (act: (logger: LoggerService) => void) => linesOf('debug', (root) => new NestAppLogger(root), act);

  it('writes a service line as its own: the message object fields, the context, the correlation id passed', () => {
    // As `new Logger(AgentService.name).log({ msg, ... })` calls it.
    const [line] = write((logger) => logger.log({ msg: 'agent turn', turnId: 't-1', correlationId: 'c-1' }, 'AgentService'));
    expect(line).toMatchObject({ level: INFO, context: 'AgentService', msg: 'agent turn', turnId: 't-1', correlationId: 'c-1' });
  });

  it('takes the text after a fields object as the message, and redacts the fields', () => {
    const [line] = write((logger) => logger.warn({ proposalId: 'p-1', mrn: 'VGL-000101' }, 'proposal execution failed', 'ProposalExecutor'));
    expect(line).toMatchObject({ level: 40, context: 'ProposalExecutor', msg: 'proposal execution failed', proposalId: 'p-1', mrn: '[REDACTED]' });
  });

  it('reduces an error to its type and frames and never writes its message, whether given as the message, as a field or by Nest as (message, stack, context)', () => {
    const given = write((logger) => logger.error(new TypeError('patient Smith not found'), 'Somewhere'));
    const nests = write((logger) => logger.error('patient Smith not found', 'Error: patient Smith\n    at handler (file.js:1:1)', 'ExceptionsHandler'));
    expect(given[0]).toMatchObject({ level: 50, context: 'Somewhere', err: { type: 'TypeError' } });
    expect(nests[0]).toMatchObject({ level: 50, context: 'ExceptionsHandler', err: { type: 'Error', stack: '    at handler (file.js:1:1)' } });
    expect(JSON.stringify([...given, ...nests])).not.toContain('Smith');
    // pino takes an error's message as the line's when it has none: a field object with an error alone gets the fixed one too.
    const [fieldsOnly] = write((logger) => logger.warn({ err: new Error('patient Smith') }, 'Somewhere'));
    expect(fieldsOnly.msg).not.toContain('Smith');
  });

  it('builds nothing at a level the root logger does not write', () => {
    const lines: string[] = [];
    const root = createRootLogger('warn', { write: (chunk: string) => void lines.push(chunk) });
    const isLevelEnabled = jest.spyOn(root, 'isLevelEnabled');
    const info = jest.spyOn(root, 'info');
    new NestAppLogger(root).log({ msg: 'agent turn' }, 'AgentService');
    expect(isLevelEnabled).toHaveBeenCalledWith('info');
    expect(info).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });
});

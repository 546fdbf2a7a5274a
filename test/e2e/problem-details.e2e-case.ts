import { Body, Controller, Get, Module, NotFoundException, Post, Query } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { IsInt, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { configureHttp, initApp } from '../../src/app.factory';
import { createHttpAdapter } from '../../src/common/http/http-edges';
import { createRootLogger } from '../../src/common/logging/logger';
import { captureLogs } from '../setup/log-capture';

/** PHI-looking values used to prove that nothing of the failing request or record leaks. */
const MRN = 'VGL-990001';
const NAME = 'Zelda Quintanilla';

class WindowQueryDto {
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @IsOptional()
  @IsInt()
  limit?: number;
}

class NoteBodyDto {
  @IsString()
  @MaxLength(20)
  text: string;
}

@Controller('probe')
class ProbeController {
  @Get('window')
  window(@Query() query: WindowQueryDto) {
    return { ok: true, query };
  }

  @Post('note')
  note(@Body() body: NoteBodyDto) {
    return { ok: true, length: body.text.length };
  }

  @Get('driver-error')
  driverError() {
    throw new QueryFailedError(`INSERT INTO patients (mrn, given_name) VALUES ($1, $2)`, [MRN, NAME], Object.assign(
      new Error(`duplicate key value violates unique constraint "UQ_mrn": Key (mrn)=(${MRN}) already exists.`),
      { code: '23505', detail: `Key (mrn)=(${MRN}) already exists.` },
    ));
  }

  @Get('crash')
  crash() {
    throw new TypeError(`Cannot read properties of undefined (reading '${NAME}')`);
  }

  @Get('missing')
  missing() {
    throw new NotFoundException(`patient ${MRN} not found`);
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('HTTP problem responses (RFC 9457)', () => {
  let app: NestFastifyApplication;
  const logs = captureLogs();

  beforeAll(async () => {
    const logger = createRootLogger('debug', logs.stream);
    const moduleRef = await Test.createTestingModule({
      imports: [ProbeModule],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(), { bufferLogs: true, bodyParser: false });
    configureHttp(app, logger);
    await initApp(app);
  });
  afterAll(() => app.close());

  const http = () => request(app.getHttpServer());

  function expectProblem(res: request.Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `urn:vigil:problem:${code}`, status, code, title: expect.any(String) });
    expect(res.body.correlationId).toBe(res.headers['x-correlation-id']);
  }

  it('refuses an unknown query parameter, naming it', async () => {
    const res = await http().get('/probe/window?from=2026-01-01&sort=desc');
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors).toEqual([{ field: 'sort', reason: 'unknown_field', message: 'sort is not a known field' }]);
  });

  it('refuses an unknown body field, naming it, and lists every bad field at once', async () => {
    const res = await http().post('/probe/note').send({ text: 'x'.repeat(21), sql: "'; DROP TABLE patients; --" });
    expectProblem(res, 400, 'validation_failed');
    expect(res.body.errors.map((error: { field: string; reason: string }) => `${error.field}:${error.reason}`).sort()).toEqual([
      'sql:unknown_field',
      'text:maxLength',
    ]);
    expect(JSON.stringify(res.body)).not.toContain('DROP TABLE');
  });

  it('does not echo the offending value', async () => {
    const res = await http().get(`/probe/window?from=${encodeURIComponent(MRN)}`);
    expectProblem(res, 400, 'validation_failed');
    expect(JSON.stringify(res.body)).not.toContain(MRN);
  });

  it('answers malformed JSON with a 400 problem that does not quote the parser', async () => {
    const res = await http().post('/probe/note').set('content-type', 'application/json').send('{"text": ');
    expectProblem(res, 400, 'malformed_json');
    expect(JSON.stringify(res.body)).not.toMatch(/Unexpected|SyntaxError|position/);
  });

  it('answers an unknown route with a 404 problem', async () => {
    expectProblem(await http().get('/no/such/route'), 404, 'not_found');
  });

  it('replaces the message of a Nest 4xx with the generic title (no value reaches the client)', async () => {
    const res = await http().get('/probe/missing');
    expectProblem(res, 404, 'not_found');
    expect(JSON.stringify(res.body)).not.toContain(MRN);
  });

  it.each(['/probe/driver-error', '/probe/crash'])('turns %s into a generic 500 with no driver message, SQL or value', async (path) => {
    const res = await http().get(path);
    expectProblem(res, 500, 'internal_error');
    const body = JSON.stringify(res.body);
    for (const leak of [MRN, NAME, 'INSERT', 'duplicate key', 'Cannot read']) expect(body).not.toContain(leak);
  });

  it('keeps a well-formed caller correlation id and replaces a hostile one', async () => {
    const kept = await http().get('/no/such/route').set('x-correlation-id', '4bf92f3577b34da6a3ce929d0e0e4736');
    expect(kept.headers['x-correlation-id']).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const mrnLike = await http().get('/no/such/route').set('x-correlation-id', 'VGL-000123');
    expect(mrnLike.headers['x-correlation-id']).not.toBe('VGL-000123');
    const replaced = await http().get('/no/such/route').set('x-correlation-id', `${NAME} <script>`);
    expect(replaced.headers['x-correlation-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a 500 as a failed request, and its unhandled error, under the correlation id of the answer', async () => {
    const res = await http().get('/probe/crash');
    const id = res.body.correlationId;
    const mine = () => logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.correlationId === id || (line.req as { id?: string })?.id === id);
    // The request line is written when the response closes, which may come just after the client read it.
    for (let waited = 0; waited < 2000 && mine().length < 2; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mine()).toEqual([
      expect.objectContaining({ level: 50, msg: 'unhandled error', context: 'ProblemDetailsFilter', correlationId: id, code: 'internal_error' }),
      expect.objectContaining({ level: 50, msg: 'request failed', req: { id, method: 'GET', path: '/:masked/:masked' }, res: { statusCode: 500 } }),
    ]);
  });

  it('never writes the failing values, SQL or driver messages to the logs', async () => {
    await http().get('/probe/driver-error');
    await http().get('/probe/crash');
    await http().post('/probe/note').send({ text: NAME });
    const all = logs.lines.join('\n');
    expect(all).toContain('unhandled error');
    for (const leak of [MRN, NAME, 'INSERT INTO', 'duplicate key']) expect(all).not.toContain(leak);
    // The error is still diagnosable: its type and SQLSTATE are logged.
    expect(all).toContain('QueryFailedError');
    expect(all).toContain('23505');
  });
});

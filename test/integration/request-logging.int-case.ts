import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf, openEventStream } from '../setup/event-stream';
import { connectMcp } from '../setup/mcp-client';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; path: string };
  res?: { statusCode: number };
  responseTime?: number;
  correlationId?: string;
}

/**
 * The request log without an async context: one line per request, written by the app's own
 * request hook when the response closes, and the service's own lines for a request carrying its
 * correlation id because it is passed to them. That nothing enters an `AsyncLocalStorage` is the
 * e2e case `async-context`'s to show, for the whole compiled process.
 */
describe('request logging', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let base: string;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
  });
  afterAll(() => sut.close());

  const lines = () => sut.logs.map((line) => JSON.parse(line) as LogLine);
  /** The request lines of correlation id `id`, once there is one (it is written when the response closes, which may follow the client's read). */
  async function requestLinesOf(id: string): Promise<LogLine[]> {
    for (let waited = 0; waited < 3000; waited += 20) {
      const found = lines().filter((line) => line.req?.id === id);
      if (found.length > 0) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return [];
  }

  it('writes one line for a request when its response is sent: correlation id, method, path, status, time', async () => {
    const id = randomUUID();
    await request(sut.app.getHttpServer()).get('/health').set('x-correlation-id', id).expect(200);
    expect(await requestLinesOf(id)).toEqual([
      expect.objectContaining({ level: 30, msg: 'request completed', req: { id, method: 'GET', path: '/health' }, res: { statusCode: 200 }, responseTime: expect.any(Number) }),
    ]);
  });

  it('writes a 4xx at warn, with identifiers in the path masked and no query string', async () => {
    const res = await request(sut.app.getHttpServer()).get('/patients/VGL-000101/labs?code=4548-4').expect(401);
    const id = res.headers['x-correlation-id'];
    expect(await requestLinesOf(id)).toEqual([
      expect.objectContaining({ level: 40, msg: 'request completed', req: { id, method: 'GET', path: '/patients/:masked/labs' }, res: { statusCode: 401 } }),
    ]);
  });

  it('writes a request the client hung up on as aborted (a live queue it closed)', async () => {
    const id = randomUUID();
    const stream = await openEventStream(base, '/proposals/events', await sut.tokenFor('rev.santos'), { 'x-correlation-id': id });
    expect(stream.status).toBe(200);
    stream.close();
    expect(await requestLinesOf(id)).toEqual([
      expect.objectContaining({ level: 30, msg: 'request aborted', req: { id, method: 'GET', path: '/proposals/events' }, res: { statusCode: 200 } }),
    ]);
  });

  it("gives the service's own line for a request that request's correlation id (an MCP session opened)", async () => {
    const patient = patients[0];
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, patient).username);
    const mcp = await connectMcp(base, patientIdOf(patient), () => token);
    await mcp.close();
    const [opening] = mcp.correlationIds;
    const [requestLine] = await requestLinesOf(opening);
    expect(requestLine).toMatchObject({ req: { method: 'POST', path: `/mcp/patients/${patientIdOf(patient)}` }, res: { statusCode: 200 } });
    expect(lines().filter((line) => line.msg === 'mcp session opened').map((line) => line.correlationId)).toEqual([opening]);
  });
});

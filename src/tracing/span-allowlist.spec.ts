import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';
import { AllowlistSpanExporter, allowlistedSpan } from './span-allowlist';

const PATIENT_ID = '6f1c2d3e-0000-4000-8000-000000000001';

/** A server span as the http, Nest and pg instrumentations would leave it before the allowlist. */
function recordedSpan(): tracing.ReadableSpan {
  const context = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  return {
    name: 'GET /patients/:patientId/labs',
    kind: SpanKind.SERVER,
    spanContext: () => context,
    startTime: [1, 0],
    endTime: [2, 0],
    status: { code: SpanStatusCode.ERROR, message: `invalid input syntax for type uuid: "VGL-000103"` },
    attributes: {
      'http.request.method': 'GET',
      'http.route': '/patients/:patientId/labs',
      'http.response.status_code': 500,
      'url.path': `/patients/${PATIENT_ID}/labs`,
      'url.query': 'name=Mercer&mrn=VGL-000103',
      'url.full': `http://vigil/patients/${PATIENT_ID}/labs?name=Mercer`,
      'client.address': '10.0.0.7',
      'user_agent.original': 'curl/8 Mercer',
      'db.query.text': 'SELECT id FROM patients WHERE id = $1',
      'db.postgresql.values': [PATIENT_ID],
      'bullmq.job.failed.reason': 'Mercer',
    },
    links: [{ context, attributes: { 'url.path': `/patients/${PATIENT_ID}`, 'bullmq.job.id': 'execute-1' } }],
    events: [{ name: 'exception', time: [1, 5], attributes: { 'exception.type': 'QueryFailedError', 'exception.message': 'Key (mrn)=(VGL-000103) exists', 'exception.stacktrace': 'at VGL-000103' } }],
    duration: [1, 0],
    ended: true,
    resource: {} as tracing.ReadableSpan['resource'],
    instrumentationScope: { name: '@opentelemetry/instrumentation-http' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

describe(allowlistedSpan.name, () => {
  it('keeps the route template, method, status and the fixed SQL, and nothing a request or a row put in', () => {
    const sut = allowlistedSpan(recordedSpan());
    expect(sut.attributes).toEqual({
      'http.request.method': 'GET',
      'http.route': '/patients/:patientId/labs',
      'http.response.status_code': 500,
      'db.query.text': 'SELECT id FROM patients WHERE id = $1',
    });
    expect(sut.droppedAttributesCount).toBe(7);
    expect(sut.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(sut.events).toEqual([{ name: 'exception', time: [1, 5], attributes: { 'exception.type': 'QueryFailedError' } }]);
    expect(sut.links[0].attributes).toEqual({ 'bullmq.job.id': 'execute-1' });
    const text = JSON.stringify({ ...sut, spanContext: sut.spanContext() });
    for (const value of [PATIENT_ID, 'VGL-000103', 'Mercer', '10.0.0.7']) expect(text).not.toContain(value);
  });

  it('keeps what identifies the span: name, kind, context, times and scope', () => {
    const span = recordedSpan();
    const sut = allowlistedSpan(span);
    expect(sut.spanContext()).toEqual(span.spanContext());
    expect([sut.name, sut.kind, sut.startTime, sut.endTime, sut.instrumentationScope]).toEqual([span.name, span.kind, span.startTime, span.endTime, span.instrumentationScope]);
  });
});

describe(AllowlistSpanExporter.name, () => {
  it('hands the next exporter the allowlisted spans, and passes its result, flush and shutdown through', async () => {
    const next = { export: jest.fn((_spans, done) => done({ code: 0 })), shutdown: jest.fn(async () => undefined), forceFlush: jest.fn(async () => undefined) };
    const sut = new AllowlistSpanExporter(next);
    const done = jest.fn();
    sut.export([recordedSpan()], done);
    expect(next.export.mock.calls[0][0][0].attributes['url.path']).toBeUndefined();
    expect(done).toHaveBeenCalledWith({ code: 0 });
    await sut.forceFlush();
    await sut.shutdown();
    expect(next.forceFlush).toHaveBeenCalled();
    expect(next.shutdown).toHaveBeenCalled();
  });
});

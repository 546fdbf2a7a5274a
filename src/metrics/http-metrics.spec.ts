import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { HttpMetrics, RoutedRequest, routeLabel, UNMATCHED_ROUTE } from './http-metrics';

describe(routeLabel.name, () => {
  it.each([
    ['/patients/:patientId/labs', '/patients/:patientId/labs'],
    ['/patients', '/patients'],
    ['/{*path}', UNMATCHED_ROUTE],
    [undefined, UNMATCHED_ROUTE],
    [/^\/patients\/.*/, UNMATCHED_ROUTE],
  ])('%s → %s', (path, expected) => {
    expect(routeLabel({ method: 'GET', routeOptions: { url: path } })).toBe(expected);
  });
});

describe(HttpMetrics.name, () => {
  it('observes each response once, under the route template, method and status, never the URL', async () => {
    const registry = new Registry();
    const sut = new HttpMetrics(registry);
    const req = { method: 'GET', url: '/patients/6f1c2d3e-0000-4000-8000-000000000001/labs?name=Mercer', routeOptions: {} } as RoutedRequest;
    const res = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse;
    sut.onRequest(req, { raw: res });
    req.routeOptions.url = '/patients/:patientId/labs';
    res.emit('close');
    const text = await registry.metrics();
    expect(text).toContain('vigil_http_request_duration_seconds_count{method="GET",route="/patients/:patientId/labs",status="200"} 1');
    expect(text).not.toContain('6f1c2d3e');
    expect(text).not.toContain('Mercer');
  });

  it('counts a method outside the usual set as OTHER (the label stays bounded)', async () => {
    const registry = new Registry();
    const sut = new HttpMetrics(registry);
    const res = Object.assign(new EventEmitter(), { statusCode: 405 }) as unknown as ServerResponse;
    sut.onRequest({ method: 'PROPFIND', routeOptions: {} }, { raw: res });
    res.emit('close');
    expect(await registry.metrics()).toContain(`method="OTHER",route="${UNMATCHED_ROUTE}",status="405"`);
  });
});

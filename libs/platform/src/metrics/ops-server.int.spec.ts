import { Counter } from 'prom-client';
import { createServiceRegistry } from './service-metrics';
import { startOpsServer, type OpsServer, type Readiness } from './ops-server';

describe('ops server (metrics and probes)', () => {
  let server: OpsServer;
  let readiness: Readiness = { ready: true, checks: { postgres: 'up' } };
  const registry = createServiceRegistry('spec');
  const fills = new Counter<'exchange'>({
    name: 'spec_fills_total',
    help: 'fills',
    labelNames: ['exchange'],
    registers: [registry],
  });

  beforeAll(async () => {
    server = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry,
      readiness: () => readiness,
    });
  });
  afterAll(() => server.close());

  it('serves the registry as Prometheus text, with the service label and event-loop delay', async () => {
    fills.inc({ exchange: 'aster' }, 3);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('spec_fills_total{exchange="aster",service="spec"} 3');
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds\{service="spec"\} /m);
  });

  it('answers liveness always and readiness by its checks, naming what is not up', async () => {
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    readiness = { ready: false, checks: { postgres: 'up', nats: 'down', worker: 'draining' } };
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({
      status: 'not_ready',
      checks: { postgres: 'up', nats: 'down', worker: 'draining' },
      reason: 'nats,worker',
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
    expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
  });
});

describe('service registry', () => {
  it('leaves out the default series whose collection walks every socket', async () => {
    const text = await createServiceRegistry('spec-costly').metrics();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toMatch(/^process_open_fds/m);
    expect(text).not.toMatch(/^nodejs_active_(handles|requests|resources)/m);
  });
});

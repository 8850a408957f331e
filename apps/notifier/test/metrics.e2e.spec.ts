import { sleep, startOpsServer, type OpsServer } from '@sts/platform';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

/** One series' value from Prometheus text by its exact label set (NaN when absent). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = { ...labels, service: 'notifier' };
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) {
      continue;
    }
    const got = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="([^"]*)"/g)].map(([, key, value]) => [key, value]),
    );
    const same =
      Object.keys(got).length === Object.keys(wanted).length &&
      Object.entries(wanted).every(([key, value]) => got[key] === value);
    if (same) {
      return Number(match[3]);
    }
  }
  return Number.NaN;
}

/**
 * A notifier's /metrics through the listener main.ts runs: upgrades by route
 * and status, sockets and subscriptions held, frames sent, and a slow
 * consumer's dropped frame and close.
 */
describe('notifier metrics', () => {
  const harness = new NotifierHarness();
  let replica: RunningNotifier;
  let ops: OpsServer;
  let alice: TestUser;
  const clients: TestClient[] = [];

  const connect = async (): Promise<TestClient> => {
    const client = await TestClient.connect(replica.url, {
      headers: { 'x-api-key': alice.apiKey },
    });
    clients.push(client);
    await client.next((message) => message.type === 'authenticated');
    return client;
  };
  const scrape = async (): Promise<string> => (await fetch(`${ops.url}/metrics`)).text();

  beforeAll(async () => {
    await harness.start();
    replica = await harness.addReplica({ NOTIFIER_MAX_BUFFERED_BYTES: String(64 * 1024) });
    ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      registry: replica.metrics,
      readiness: () => replica.readiness(),
    });
    alice = await harness.user();
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await ops?.close();
    await harness.stop();
  });

  it('counts upgrades, sockets, subscriptions, frames sent, and a slow consumer dropped and closed', async () => {
    expect((await fetch(`${ops.url}/readyz`)).status).toBe(200);
    const tradeId = await harness.trade(alice, 'active');
    const fast = await connect();
    const slow = await connect();
    await fast.subscribe(tradeId);
    await slow.subscribe(tradeId);

    const held = await scrape();
    expect(valueOf(held, 'sts_notifier_connections')).toBe(2);
    expect(valueOf(held, 'sts_notifier_subscriptions')).toBe(2);
    expect(
      valueOf(held, 'sts_notifier_http_requests_total', { route: '/api/v1/ws', status: '101' }),
    ).toBe(2);
    const sentBefore = valueOf(held, 'sts_notifier_messages_sent_total');
    expect(valueOf(held, 'sts_notifier_slow_consumer_closes_total')).toBe(0);

    slow.socket.pause();
    const filler = 'x'.repeat(60 * 1024);
    const total = 200;
    for (let index = 0; index < total; index += 1) {
      await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused', { index, filler });
    }
    await fast.next((message) => message.data?.index === total - 1, 15000);
    slow.socket.resume();
    expect(await slow.closed).toEqual({ code: 4008, reason: 'slow_consumer' });

    const after = await scrape();
    expect(valueOf(after, 'sts_notifier_slow_consumer_closes_total')).toBe(1);
    expect(valueOf(after, 'sts_notifier_messages_dropped_total')).toBeGreaterThanOrEqual(1);
    // Every event reached the fast socket; the slow one took some before it was closed.
    expect(valueOf(after, 'sts_notifier_messages_sent_total') - sentBefore).toBeGreaterThan(total);
    expect(valueOf(after, 'sts_notifier_connections')).toBe(1);
    expect(valueOf(after, 'sts_notifier_subscriptions')).toBe(1);
    expect(after).not.toContain(alice.userId);
    expect(after).not.toContain(tradeId);
  });

  it('shows its place in the events stream: the last sequence delivered, its lag, its restarts', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const client = await connect();
    await client.subscribe(tradeId);
    const sent = await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused');
    await client.next((message) => message.event_id === sent, 10_000);
    const last = await harness.eventsStreamLast();
    // The stream is read every second for the lag.
    await sleep(2_500);
    const text = await scrape();
    expect(valueOf(text, 'sts_notifier_events_sequence')).toBe(last);
    expect(valueOf(text, 'sts_notifier_events_lag')).toBe(0);
    for (const reason of ['silent', 'stalled']) {
      expect(valueOf(text, 'sts_notifier_events_consumer_restarts_total', { reason })).toBe(0);
    }
  });
});

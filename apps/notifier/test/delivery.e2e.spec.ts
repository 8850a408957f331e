import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

const SLOW_CONSUMER_LIMIT = 64 * 1024;

const healthOf = async (notifier: RunningNotifier): Promise<{ status: number; body: any }> => {
  const response = await fetch(
    notifier.url.replace('ws://', 'http://').replace('/api/v1/ws', '/healthz'),
  );
  return { status: response.status, body: await response.json() };
};

describe('fan-out across sockets and replicas (decisions section 5)', () => {
  const harness = new NotifierHarness();
  // Two replicas behind one (imaginary) load balancer: A with a small slow-consumer
  // bound and a slow heartbeat, B with a fast heartbeat.
  let replicaA: RunningNotifier;
  let replicaB: RunningNotifier;
  let alice: TestUser;
  let bob: TestUser;
  const clients: TestClient[] = [];

  const connect = async (
    replica: RunningNotifier,
    user: TestUser,
    options: { autoPong?: boolean } = {},
  ): Promise<TestClient> => {
    const client = await TestClient.connect(replica.url, {
      headers: { 'x-api-key': user.apiKey },
      ...options,
    });
    clients.push(client);
    await client.next((message) => message.type === 'authenticated');
    return client;
  };

  beforeAll(async () => {
    await harness.start();
    replicaA = await harness.addReplica({
      NOTIFIER_MAX_BUFFERED_BYTES: String(SLOW_CONSUMER_LIMIT),
      NOTIFIER_HEARTBEAT_INTERVAL_MS: '60000',
    });
    replicaB = await harness.addReplica({ NOTIFIER_HEARTBEAT_INTERVAL_MS: '300' });
    alice = await harness.user();
    bob = await harness.user();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => harness.stop());

  it('reports Postgres, NATS and the sockets held on GET /healthz', async () => {
    await connect(replicaA, alice);
    const health = await healthOf(replicaA);
    expect(health).toEqual({
      status: 200,
      body: { status: 'ok', checks: { postgres: 'up', nats: 'up' }, connections: 1 },
    });
  });

  it('pushes a maintenance toggle and the kill switch to every connection of every replica, subscribed or not', async () => {
    const everyone = [
      await connect(replicaA, alice),
      await connect(replicaA, bob),
      await connect(replicaB, alice),
      await connect(replicaB, bob),
    ];
    await everyone[0].subscribe();
    await everyone[3].subscribe(await harness.trade(bob));

    const toggled = await harness.ops(
      'maintenance',
      'set',
      'hyperliquid',
      'on',
      '--reason',
      'venue upgrade',
    );
    expect(toggled.published).toBe(true);
    for (const client of everyone) {
      expect(await client.next((message) => message.type === 'event')).toEqual({
        type: 'event',
        event: 'maintenance',
        event_id: expect.any(String),
        exchange: 'hyperliquid',
        enabled: true,
        reason: 'venue upgrade',
        updated_by: 'spec-operator',
        updated_at: toggled.updated_at,
        timestamp: toggled.updated_at,
      });
    }
    await harness.ops('maintenance', 'set', 'hyperliquid', 'off');
    await harness.ops('kill-switch', 'on', '--reason', 'incident');
    for (const client of everyone) {
      expect(await client.next((message) => message.type === 'event')).toMatchObject({
        exchange: 'hyperliquid',
        enabled: false,
      });
      expect(await client.next((message) => message.type === 'event')).toMatchObject({
        event: 'maintenance',
        exchange: '_kill_switch',
        enabled: true,
        reason: 'incident',
      });
    }
    await harness.ops('kill-switch', 'off');
  });

  it('tells a socket that authenticates while switches are on which ones are in force', async () => {
    const killSwitch = await harness.ops('kill-switch', 'on', '--reason', 'incident');
    const venue = await harness.ops('maintenance', 'set', 'paradex', 'on', '--reason', 'upgrade');
    try {
      const byHeader = await connect(replicaA, alice);
      const byMessage = await TestClient.authenticated(replicaB.url, { api_key: bob.apiKey });
      clients.push(byMessage);
      for (const client of [byHeader, byMessage]) {
        const told = [
          await client.next((message) => message.type === 'event'),
          await client.next((message) => message.type === 'event'),
        ];
        expect(told).toEqual([
          {
            type: 'event',
            event: 'maintenance',
            event_id: `state-_kill_switch-${Date.parse(killSwitch.updated_at)}`,
            exchange: '_kill_switch',
            enabled: true,
            reason: 'incident',
            updated_by: 'spec-operator',
            updated_at: killSwitch.updated_at,
            timestamp: killSwitch.updated_at,
          },
          expect.objectContaining({
            exchange: 'paradex',
            enabled: true,
            reason: 'upgrade',
            updated_at: venue.updated_at,
          }),
        ]);
      }
    } finally {
      await harness.ops('kill-switch', 'off');
      await harness.ops('maintenance', 'set', 'paradex', 'off');
    }
    // Once they are off, a new socket is told of none in force (the off events may still reach it).
    const later = await connect(replicaA, alice);
    later.send({ op: 'ping' });
    const first = await later.next(
      (message) => message.type === 'pong' || message.enabled === true,
    );
    expect(first.type).toBe('pong');
  });

  it('delivers a lifecycle event from both replicas to their subscribers', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const onA = await connect(replicaA, alice);
    const onB = await connect(replicaB, alice);
    const allOnB = await connect(replicaB, alice);
    await onA.subscribe(tradeId);
    await onB.subscribe(tradeId);
    await allOnB.subscribe();
    const eventId = await harness.publishLifecycle(alice, tradeId, 'trade.completed', 'completed', {
      filled_size: '0.01',
    });
    for (const client of [onA, onB, allOnB]) {
      expect(await client.next((message) => message.type === 'event')).toMatchObject({
        event: 'trade.completed',
        event_id: eventId,
        trade_id: tradeId,
        status: 'completed',
      });
    }
  });

  it('answers {"op":"ping"} with pong and drops a socket that stops answering server heartbeats', async () => {
    const healthy = await connect(replicaB, alice);
    const deaf = await connect(replicaB, alice, { autoPong: false });
    healthy.send({ op: 'ping', id: 'p' });
    expect(await healthy.next((message) => message.id === 'p')).toMatchObject({ type: 'pong' });
    const dropped = await Promise.race([
      deaf.closed,
      new Promise((resolve) => setTimeout(() => resolve('still open'), 3000)),
    ]);
    expect(dropped).toEqual({ code: 1006, reason: '' });
    healthy.send({ op: 'ping', id: 'p2' });
    expect(await healthy.next((message) => message.id === 'p2')).toMatchObject({ type: 'pong' });
  });

  it('disconnects a slow consumer with 4008 while a fast one on the same replica gets every event', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const fast = await connect(replicaA, alice);
    const slow = await connect(replicaA, alice);
    await fast.subscribe(tradeId);
    await slow.subscribe(tradeId);
    // The slow client stops reading: the kernel buffers fill, then the server's.
    slow.socket.pause();
    const filler = 'x'.repeat(60 * 1024);
    const total = 200;
    for (let index = 0; index < total; index += 1) {
      await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused', { index, filler });
    }
    await fast.next((message) => message.data?.index === total - 1, 15000);
    expect(fast.events()).toHaveLength(total);

    slow.socket.resume();
    expect(await slow.closed).toEqual({ code: 4008, reason: 'slow_consumer' });
    expect(slow.events().length).toBeLessThan(total);
    expect(harness.logs()).toContain('slow consumer disconnected');
  });

  it('answers malformed and unknown requests with invalid_request and keeps the socket open', async () => {
    const client = await connect(replicaA, alice);
    const requests: unknown[] = [
      'not json',
      [],
      { op: 'dance' },
      { op: 'subscribe', subscription: 'orders' },
      { op: 'subscribe', subscription: 'trades', params: { trade_id: 42 } },
      { op: 'subscribe', subscription: 'trades', params: { user_id: 'someone-else' } },
      { op: 'ping', extra: true },
      { op: 'auth' },
    ];
    for (const request of requests) {
      client.send(request);
      expect(await client.next()).toMatchObject({
        type: 'error',
        code: 'invalid_request',
        error: expect.any(String),
      });
    }
    client.send({ op: 'ping', id: 'alive' });
    expect(await client.next()).toMatchObject({ type: 'pong', id: 'alive' });
  });

  it('tells clients to reconnect elsewhere (1001) when a replica shuts down', async () => {
    const extra = await harness.addReplica();
    const client = await connect(extra, alice);
    await extra.close();
    expect(await client.closed).toEqual({ code: 1001, reason: 'going_away' });
  });
});

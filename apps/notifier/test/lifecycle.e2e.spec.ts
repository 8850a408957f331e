import { randomUUID } from 'node:crypto';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('lifecycle events over the WebSocket (interface: Lifecycle events; decisions section 5)', () => {
  const harness = new NotifierHarness();
  let notifier: RunningNotifier;
  let alice: TestUser;
  let bob: TestUser;
  const clients: TestClient[] = [];

  const connect = async (user: TestUser): Promise<TestClient> => {
    const client = await TestClient.connect(notifier.url, {
      headers: { 'x-api-key': user.apiKey },
    });
    clients.push(client);
    await client.next((message) => message.type === 'authenticated');
    return client;
  };

  beforeAll(async () => {
    await harness.start();
    notifier = await harness.addReplica();
    alice = await harness.user();
    bob = await harness.user();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => harness.stop());

  it('pushes each of the six lifecycle events, with what it takes to rebuild the status, to a single-trade and an all-trades subscriber', async () => {
    const finished = await harness.trade(alice);
    const failed = await harness.trade(alice);
    const canceled = await harness.trade(alice);
    const oneTrade = await connect(alice);
    const everyTrade = await connect(alice);
    expect(await oneTrade.subscribe(finished)).toEqual({
      type: 'subscribed',
      id: expect.any(String),
      subscription: 'trades',
      params: { trade_id: finished },
      status: 'pending',
    });
    expect(await everyTrade.subscribe()).toEqual({
      type: 'subscribed',
      id: expect.any(String),
      subscription: 'trades',
      params: {},
    });

    const script: Array<
      [string, Parameters<NotifierHarness['publishLifecycle']>[2], string, Record<string, unknown>]
    > = [
      [finished, 'trade.started', 'active', { target_size: '0.01', size_type: 'base' }],
      [finished, 'trade.paused', 'paused', { reason: 'exchange_maintenance', exchange: 'paradex' }],
      [finished, 'trade.resumed', 'active', {}],
      [finished, 'trade.completed', 'completed', { filled_size: '0.01' }],
      [failed, 'trade.started', 'active', {}],
      [failed, 'trade.failed', 'failed', { failure_reason: 'hedge timeout: 0.002 unhedged' }],
      [canceled, 'trade.started', 'active', {}],
      [canceled, 'trade.canceled', 'canceled', { filled_size: '0' }],
    ];
    const ids: string[] = [];
    for (const [tradeId, event, status, data] of script) {
      ids.push(await harness.publishLifecycle(alice, tradeId, event, status, data));
    }

    const expected = script.map(([tradeId, event, status, data], index) => ({
      type: 'event',
      event,
      event_id: ids[index],
      trade_id: tradeId,
      status,
      timestamp: expect.stringMatching(ISO),
      data,
    }));
    for (const event of expected) {
      await everyTrade.next((message) => message.event_id === event.event_id);
    }
    expect(everyTrade.events()).toEqual(expected);
    await oneTrade.next((message) => message.event === 'trade.completed');
    expect(oneTrade.events()).toEqual(expected.filter((event) => event.trade_id === finished));
  });

  it('answers "trade not found" to a subscription to another user\'s trade, indistinguishable from a missing one, and pushes nothing about it', async () => {
    const alicesTrade = await harness.trade(alice, 'active');
    const watcher = await connect(alice);
    await watcher.subscribe(alicesTrade);
    const intruder = await connect(bob);

    const foreign = await intruder.subscribe(alicesTrade);
    expect(foreign).toEqual({
      type: 'error',
      id: expect.any(String),
      error: 'trade not found',
      code: 'trade_not_found',
      op: 'subscribe',
      params: { trade_id: alicesTrade },
    });
    const missingId = randomUUID();
    const missing = await intruder.subscribe(missingId);
    expect({ ...missing, id: undefined, params: undefined }).toEqual({
      ...foreign,
      id: undefined,
      params: undefined,
    });
    expect((await intruder.subscribe('not-a-uuid')).error).toBe('trade not found');
    expect((await intruder.subscribe()).type).toBe('subscribed');

    const before = intruder.messages.length;
    await harness.publishLifecycle(alice, alicesTrade, 'trade.paused', 'paused');
    await harness.publishLifecycle(alice, alicesTrade, 'trade.resumed', 'active');
    await watcher.next((message) => message.event === 'trade.resumed');
    // Bob's own trade event is the barrier: the notifier handles events in order.
    const bobsTrade = await harness.trade(bob, 'active');
    await harness.publishLifecycle(bob, bobsTrade, 'trade.completed', 'completed');
    await intruder.next((message) => message.trade_id === bobsTrade);
    expect(intruder.messages.slice(before)).toEqual([
      expect.objectContaining({ type: 'event', trade_id: bobsTrade }),
    ]);
  });

  it('stops pushing a trade after unsubscribe, and all trades after unsubscribing from all', async () => {
    const first = await harness.trade(alice, 'active');
    const second = await harness.trade(alice, 'active');
    const client = await connect(alice);
    await client.subscribe(first);
    await client.subscribe();
    client.send({
      op: 'unsubscribe',
      id: 'u1',
      subscription: 'trades',
      params: { trade_id: first },
    });
    expect(await client.next((message) => message.id === 'u1')).toEqual({
      type: 'unsubscribed',
      id: 'u1',
      subscription: 'trades',
      params: { trade_id: first },
    });
    // Still subscribed to all: delivered once, not twice.
    await harness.publishLifecycle(alice, first, 'trade.paused', 'paused');
    await client.next((message) => message.trade_id === first);

    client.send({ op: 'unsubscribe', id: 'u2', subscription: 'trades' });
    await client.next((message) => message.id === 'u2');
    await client.subscribe(second);
    await harness.publishLifecycle(alice, first, 'trade.resumed', 'active');
    await harness.publishLifecycle(alice, second, 'trade.completed', 'completed');
    await client.next((message) => message.trade_id === second);
    expect(client.events().map((event) => [event.trade_id, event.event])).toEqual([
      [first, 'trade.paused'],
      [second, 'trade.completed'],
    ]);
  });

  it('delivers an event once to a socket subscribed both to the trade and to all trades', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const client = await connect(alice);
    await client.subscribe(tradeId);
    await client.subscribe();
    const first = await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused');
    const second = await harness.publishLifecycle(alice, tradeId, 'trade.resumed', 'active');
    await client.next((message) => message.event_id === second);
    expect(client.events().map((event) => event.event_id)).toEqual([first, second]);
  });

  it('drops an event whose payload names another trade than its subject, and a malformed one, and keeps going', async () => {
    const alicesTrade = await harness.trade(alice, 'active');
    const bobsTrade = await harness.trade(bob, 'active');
    const client = await connect(bob);
    await client.subscribe(bobsTrade);
    // Alice's event published on the subject of Bob's trade: never reaches Bob.
    await harness.publishLifecycle(alice, alicesTrade, 'trade.paused', 'paused', {}, bobsTrade);
    harness.nats.publish(
      `${harness.env['NATS_PREFIX']}.events.trades.${bobsTrade}`,
      new TextEncoder().encode('{"not":"an envelope"}'),
    );
    const good = await harness.publishLifecycle(bob, bobsTrade, 'trade.completed', 'completed');
    await client.next((message) => message.event_id === good);
    expect(client.events()).toHaveLength(1);
    expect(harness.logs()).toContain('event rejected');
  });
});

import { join } from 'node:path';
import { eventually, WorkerHarness, type Trader } from '@sts/app-worker-testing';
import { startNotifier, type RunningNotifier } from '../src/bootstrap';
import { TestClient } from './ws-client';

jest.setTimeout(90_000);

const FILL_TYPES = ['maker_fill', 'hedge_filled', 'hedge_outcome'];

/**
 * Issue 34, "Fills pushed live": a trade run by a real worker on the paper
 * venues; clients of the notifier subscribed to fills see the execution log's
 * fill entries with its own sequence numbers, live or replayed from a sequence.
 */
describe('fills pushed over the WebSocket', () => {
  const harness = new WorkerHarness();
  let notifier: RunningNotifier;
  let trader: Trader;
  let stranger: Trader;
  const clients: TestClient[] = [];

  const connect = async (who: Trader): Promise<TestClient> => {
    const client = await TestClient.connect(notifier.url, {
      headers: { 'x-api-key': who.headers['x-api-key'] },
    });
    clients.push(client);
    await client.next((message) => message.type === 'authenticated');
    return client;
  };

  const request = async (client: TestClient, message: Record<string, unknown>): Promise<any> => {
    const id = `r-${Math.random().toString(36).slice(2)}`;
    client.send({ ...message, id });
    return client.next((frame) => frame.id === id);
  };

  const fillsOf = (client: TestClient, tradeId: string) =>
    client.messages.filter((frame) => frame.type === 'fill' && frame.trade_id === tradeId);

  /** The log's fill entries as the socket must show them (GET /api/v1/trades/{id}/events). */
  const loggedFills = async (tradeId: string) =>
    (await harness.events(trader, tradeId))
      .filter((entry) => FILL_TYPES.includes(entry.event_type))
      .map(({ sequence, event_type, created_at, data }) => ({
        type: 'fill',
        trade_id: tradeId,
        sequence,
        event_type,
        created_at,
        data,
      }));

  beforeAll(async () => {
    await harness.start();
    notifier = await startNotifier({
      ...harness.gateway.env,
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(harness.logDir, 'notifier.log'),
    });
    trader = await harness.trader();
    stranger = await harness.trader();
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await notifier?.close();
    await harness.stop();
  });

  it('pushes each fill entry once, in log order, live and replayed from a sequence', async () => {
    const live = await connect(trader);
    expect(await request(live, { op: 'subscribe', subscription: 'fills' })).toEqual({
      type: 'subscribed',
      id: expect.any(String),
      subscription: 'fills',
      params: {},
    });
    const lifecycleOnly = await connect(trader);
    await request(lifecycleOnly, { op: 'subscribe', subscription: 'trades' });
    const strangerFills = await connect(stranger);
    await request(strangerFills, { op: 'subscribe', subscription: 'fills' });

    const tradeId = await harness.createTrade(trader, { target_size: '0.01', target_spread: '5' });
    // The first half fills and is hedged before the late client subscribes.
    await harness.takeFromMaker(await harness.waitForMakerOrder(trader, 'hyperliquid'), '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 1, 15_000);

    const late = await connect(trader);
    expect(
      await request(late, {
        op: 'subscribe',
        subscription: 'fills',
        params: { trade_id: tradeId, from_sequence: 1 },
      }),
    ).toMatchObject({
      type: 'subscribed',
      subscription: 'fills',
      params: { trade_id: tradeId, from_sequence: 1 },
    });
    const replayed = (await loggedFills(tradeId)).length;
    expect(replayed).toBeGreaterThanOrEqual(3);

    // The second half fills while it listens.
    await harness.takeFromMaker(await harness.waitForMakerOrder(trader, 'hyperliquid'), '0.006');
    await harness.waitForStatus(trader, tradeId, 'completed', 15_000);
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome', 2, 15_000);

    const expected = await loggedFills(tradeId);
    expect(expected.length).toBeGreaterThan(replayed);
    expect(new Set(expected.map((fill) => fill.event_type))).toEqual(new Set(FILL_TYPES));
    for (const client of [live, late]) {
      await eventually(
        () => fillsOf(client, tradeId).length >= expected.length,
        'every fill on the socket',
        { timeoutMs: 10_000, last: () => fillsOf(client, tradeId).map((fill) => fill.sequence) },
      );
    }
    // A moment for a duplicate to show up, had one been sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(fillsOf(live, tradeId)).toEqual(expected);
    expect(fillsOf(late, tradeId)).toEqual(expected);
    expect(lifecycleOnly.messages.filter((frame) => frame.type === 'fill')).toEqual([]);
    expect(lifecycleOnly.events((event) => event.trade_id === tradeId).length).toBeGreaterThan(0);
    expect(strangerFills.messages.filter((frame) => frame.type === 'fill')).toEqual([]);

    // Resuming from the last sequence seen + 1 replays nothing more; unsubscribe is symmetric.
    const resumed = await connect(trader);
    const last = expected[expected.length - 1].sequence;
    await request(resumed, {
      op: 'subscribe',
      subscription: 'fills',
      params: { trade_id: tradeId, from_sequence: last },
    });
    await eventually(() => fillsOf(resumed, tradeId).length === 1, 'the last fill replayed');
    expect(fillsOf(resumed, tradeId)).toEqual([expected[expected.length - 1]]);
    expect(
      await request(resumed, {
        op: 'unsubscribe',
        subscription: 'fills',
        params: { trade_id: tradeId },
      }),
    ).toEqual({
      type: 'unsubscribed',
      id: expect.any(String),
      subscription: 'fills',
      params: { trade_id: tradeId },
    });
  });

  it("refuses another user's trade as a missing one, and from_sequence without a trade", async () => {
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000' });
    const client = await connect(stranger);
    const subscribe = { op: 'subscribe', subscription: 'fills' };
    expect(
      await request(client, { ...subscribe, params: { trade_id: tradeId, from_sequence: 1 } }),
    ).toEqual({
      type: 'error',
      id: expect.any(String),
      error: 'trade not found',
      code: 'trade_not_found',
      op: 'subscribe',
      params: { trade_id: tradeId },
    });
    expect(await request(client, { ...subscribe, params: { from_sequence: 1 } })).toMatchObject({
      type: 'error',
      code: 'invalid_request',
    });
    await harness.cancelTrade(trader, tradeId);
  });
});

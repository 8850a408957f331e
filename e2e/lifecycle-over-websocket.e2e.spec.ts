import { join } from 'node:path';
import WebSocket from 'ws';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { eventually, WorkerHarness, type Trader } from '@sts/app-worker-testing';
import { AsyncApiConformance } from '@sts/testing';

jest.setTimeout(90_000);

interface ServerMessage {
  type: string;
  event?: string;
  trade_id?: string;
  status?: string;
  timestamp?: string;
  data?: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * Issue 7 end to end: trades driven through the public API on paper venues by a
 * real worker; a WebSocket client of the notifier sees each lifecycle event.
 */
describe('lifecycle events reach WebSocket clients for trades run end to end', () => {
  const harness = new WorkerHarness();
  let notifier: RunningNotifier;
  let trader: Trader;
  let socket: WebSocket;
  const received: ServerMessage[] = [];

  beforeAll(async () => {
    await harness.start();
    notifier = await startNotifier({
      ...harness.gateway.env,
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(harness.logDir, 'notifier.log'),
    });
    trader = await harness.trader();
    socket = new WebSocket(notifier.url, {
      headers: { 'x-api-key': trader.headers['x-api-key'] },
    });
    socket.on('message', (data) => received.push(JSON.parse(String(data)) as ServerMessage));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ op: 'subscribe', subscription: 'trades', params: {} }));
    await eventually(() => received.some((message) => message.type === 'subscribed'), 'subscribed');
  });

  afterAll(async () => {
    socket?.close();
    await notifier?.close();
    await harness.stop();
  });

  const eventsOf = (tradeId: string) =>
    received.filter((message) => message.type === 'event' && message.trade_id === tradeId);

  const waitForSocketEvent = (tradeId: string, event: string, timeoutMs = 15_000) =>
    eventually(
      () => eventsOf(tradeId).find((message) => message.event === event),
      `${event} of ${tradeId} on the socket`,
      {
        timeoutMs,
        last: () => eventsOf(tradeId).map((message) => message.event),
      },
    );

  it('started, paused, resumed and completed arrive in order with status and timestamp', async () => {
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.002',
      target_spread: '-1000',
    });
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    await waitForSocketEvent(tradeId, 'trade.started');

    await harness.gateway.ops('maintenance', 'set', 'hyperliquid', 'on', '--reason', 'upgrade');
    await waitForSocketEvent(tradeId, 'trade.paused');
    await harness.gateway.ops('maintenance', 'set', 'hyperliquid', 'off');
    await waitForSocketEvent(tradeId, 'trade.resumed');

    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    const completed = await waitForSocketEvent(tradeId, 'trade.completed');

    expect(eventsOf(tradeId).map((message) => message.event)).toEqual([
      'trade.started',
      'trade.paused',
      'trade.resumed',
      'trade.completed',
    ]);
    expect(completed).toMatchObject({
      status: 'completed',
      trade_id: tradeId,
      data: expect.any(Object),
    });
    expect(new Date(completed.timestamp!).toISOString()).toBe(completed.timestamp);
    const maintenance = received.filter(
      (message) => message.type === 'event' && message.event === 'maintenance',
    );
    expect(maintenance.map((message) => [message.exchange, message.enabled])).toEqual(
      expect.arrayContaining([
        ['hyperliquid', true],
        ['hyperliquid', false],
      ]),
    );
    // What the socket said matches what the API says.
    expect((await harness.trade(trader, tradeId)).status).toBe(completed.status);
  });

  it('canceled arrives for a trade canceled while active', async () => {
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000' });
    await harness.waitForMakerOrder(trader, 'hyperliquid');
    await waitForSocketEvent(tradeId, 'trade.started');
    const response = await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    expect(response.status).toBe(202);
    const canceled = await waitForSocketEvent(tradeId, 'trade.canceled');
    expect(canceled.status).toBe('canceled');
  });

  it('failed arrives, with the reason, for a trade whose hedge times out', async () => {
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.sim.rejectNext('paradex', 10_000, 'injected_rejection');
    try {
      await harness.takeFromMaker(order, '0.002');
      const failed = await waitForSocketEvent(tradeId, 'trade.failed', 20_000);
      expect(failed.status).toBe('failed');
      expect(JSON.stringify(failed.data)).toContain('unhedged');
    } finally {
      await harness.sim.rejectNext('paradex', 0);
    }
  });

  it('every frame the socket received is one the AsyncAPI document describes', () => {
    const conformance = new AsyncApiConformance(join(__dirname, '../apps/gateway/asyncapi.json'));
    expect(received.length).toBeGreaterThan(5);
    expect(received.flatMap((frame) => conformance.problemsOf(frame))).toEqual([]);
  });
});

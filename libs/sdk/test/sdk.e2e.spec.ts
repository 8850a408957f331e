import { join } from 'node:path';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { GatewayHarness } from '@sts/app-gateway-testing';
import { AsyncApiConformance } from '@sts/testing';
import { eventually, WorkerHarness, type Trader } from '@sts/app-worker-testing';
import WebSocket from 'ws';
import {
  StsApiError,
  StsClient,
  StsEventStream,
  type StsEvent,
  type TradeWatchUpdate,
} from '../src';

jest.setTimeout(90_000);

const apiKeyOf = (trader: Trader): string => trader.headers['x-api-key']!;

/** A watch update in a word, for a timeout's message: an entry's type, a trade's status and size. */
const updateLabel = (update: TradeWatchUpdate): string =>
  update.type === 'event'
    ? update.event.event_type
    : `${update.type} ${update.trade.status} ${update.trade.filled_size}`;

/** The SDK against a running fleet: gateway, budget, a worker, venue-sim, notifier. */
describe('SDK against the fleet on paper venues', () => {
  const harness = new WorkerHarness();
  let notifier: RunningNotifier;
  let trader: Trader;
  const notifierEnv = (port: string) => ({
    ...harness.gateway.env,
    NOTIFIER_PORT: port,
    NOTIFIER_HOST: '127.0.0.1',
    LOG_FILE: join(harness.logDir, 'notifier.log'),
  });

  beforeAll(async () => {
    await harness.start();
    notifier = await startNotifier(notifierEnv('0'));
    trader = await harness.trader();
  });

  afterAll(async () => {
    await notifier?.close();
    await harness.stop();
  });

  const terms = (overrides: Record<string, unknown> = {}) =>
    harness.gateway.tradeBody(trader.wallet, { target_spread: '-1000', ...overrides }) as never;

  it("reads a market's spread on two venues, the condition judged for a target", async () => {
    const client = new StsClient({ baseUrl: harness.gateway.baseUrl, apiKey: apiKeyOf(trader) });
    const answer = await client.spread('BTC', {
      long_exchange: 'hyperliquid',
      short_exchange: 'paradex',
      target_spread: '-1000',
      spread_condition: 'gte',
    });
    expect(answer).toMatchObject({
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'paradex',
      spread_type: 'absolute',
      condition_met: true,
    });
    expect(Number(answer.long.ask)).toBeGreaterThan(Number(answer.long.bid));
    const refused = await client
      .spread('BTC', { long_exchange: 'hyperliquid', short_exchange: 'hyperliquid' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StsApiError);
    expect(refused).toMatchObject({ status: 400 });
  });

  it('gives every create its own idempotency key, and a create retried after a lost answer returns the same trade', async () => {
    let creates = 0;
    const lossyFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      // The first create reaches the gateway, which makes the trade; its answer is lost.
      if (init?.method === 'POST' && (creates += 1) === 1) {
        throw new TypeError('socket hang up');
      }
      return response;
    };
    const client = new StsClient({
      baseUrl: harness.gateway.baseUrl,
      apiKey: apiKeyOf(trader),
      fetch: lossyFetch,
      retry: { baseDelayMs: 10 },
    });
    const created = await client.createTrade(terms());
    expect(creates).toBe(2);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: expect.any(String), idempotent: true });
    const mine = await client.listTrades();
    expect(mine.filter((trade) => trade.trade_id === created.body.trade_id)).toHaveLength(1);
    expect(mine).toHaveLength(1);

    const second = await client.createTrade(terms());
    expect(second.status).toBe(202);
    expect(second.body.trade_id).not.toBe(created.body.trade_id);
    // Maker on paradex: hyperliquid's cap (2 per wallet) is taken by the two above.
    const keyed = await client.createTrade(terms({ maker_leg: 'short' }), {
      idempotencyKey: 'bot-order-17',
    });
    const again = await client.createTrade(terms({ maker_leg: 'short' }), {
      idempotencyKey: 'bot-order-17',
    });
    expect(again).toEqual({
      status: 200,
      body: expect.objectContaining({ trade_id: keyed.body.trade_id, idempotent: true }),
    });
    for (const trade of await client.listTrades()) {
      await client.cancelTrade(trade.trade_id);
      await harness.waitForStatus(trader, trade.trade_id, 'canceled');
    }
  });

  it('raises typed errors carrying the code', async () => {
    const client = new StsClient({ baseUrl: harness.gateway.baseUrl, apiKey: apiKeyOf(trader) });
    const missing = await client.getTrade('0b6c2b8e-1111-4a4a-9a9a-000000000000').catch((e) => e);
    expect(missing).toBeInstanceOf(StsApiError);
    expect(missing).toMatchObject({ status: 404, code: 'trade_not_found' });
    const same = await client
      .createTrade(terms({ short_exchange: 'hyperliquid' }))
      .catch((e: unknown) => e);
    expect(same).toMatchObject({ status: 400, code: 'same_exchange' });
    const anonymous = new StsClient({ baseUrl: harness.gateway.baseUrl, apiKey: 'sts_bogus' });
    await expect(anonymous.listTrades()).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('keeps a WebSocket across a notifier restart, re-subscribes, and still delivers trade.completed', async () => {
    const stream = new StsEventStream({
      url: notifier.url,
      apiKey: apiKeyOf(trader),
      reconnectBaseMs: 100,
      WebSocket, // Node 20 has no WebSocket of its own
    });
    const events: StsEvent[] = [];
    const reading = (async () => {
      const asyncApi = new AsyncApiConformance(
        join(__dirname, '../../../apps/gateway/asyncapi.json'),
      );
      for await (const event of stream) {
        asyncApi.assert(event as unknown as Record<string, unknown>);
        events.push(event);
      }
    })();
    try {
      const client = new StsClient({ baseUrl: harness.gateway.baseUrl, apiKey: apiKeyOf(trader) });
      const { body } = await client.createTrade(terms({ target_size: '0.002' }));
      stream.subscribe(body.trade_id);
      await stream.subscribed();
      await eventually(
        () => events.some((event) => event.event === 'trade.started'),
        'trade.started',
      );

      const port = String(notifier.port);
      await notifier.close();
      notifier = await startNotifier(notifierEnv(port));
      await eventually(() => stream.connections >= 2, 'the stream reconnected', {
        timeoutMs: 15_000,
      });
      await stream.subscribed();

      const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
      await harness.takeFromMaker(order, '0.002');
      const completed = await eventually(
        () => events.find((event) => event.event === 'trade.completed'),
        'trade.completed on the reconnected stream',
        { timeoutMs: 20_000, last: () => events.map((event) => event.event) },
      );
      expect(completed).toMatchObject({ trade_id: body.trade_id, status: 'completed' });
      expect((await client.getTrade(body.trade_id)).status).toBe('completed');
    } finally {
      stream.close();
      await reading;
    }
  });
  it('follows a trade to its end with watchTrade, woken by the notifier (no polling in between)', async () => {
    const client = new StsClient({
      baseUrl: harness.gateway.baseUrl,
      apiKey: apiKeyOf(trader),
      notifierUrl: notifier.url,
      WebSocket,
    });
    const { body } = await client.createTrade(terms({ target_size: '0.002' }));
    const updates: TradeWatchUpdate[] = [];
    // An interval far beyond the test's time: only the socket's events can move the watch on.
    const watching = (async () => {
      for await (const update of client.watchTrade(body.trade_id, { intervalMs: 600_000 })) {
        updates.push(update);
      }
    })();
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    await watching;
    expect(updates[0]).toMatchObject({ type: 'trade', trade: { trade_id: body.trade_id } });
    expect(updates.at(-1)).toMatchObject({
      type: 'end',
      trade: { status: 'completed', filled_size: '0.002' },
    });
    const logged = updates.flatMap((update) => (update.type === 'event' ? [update.event] : []));
    expect(logged.map((event) => event.event_type)).toEqual(
      expect.arrayContaining(['maker_fill', 'hedge_sent', 'hedge_filled']),
    );
    const sequences = logged.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it('a watch is woken by a fill that changes no status (no polling in between)', async () => {
    const client = new StsClient({
      baseUrl: harness.gateway.baseUrl,
      apiKey: apiKeyOf(trader),
      notifierUrl: notifier.url,
      WebSocket,
    });
    const { body } = await client.createTrade(terms({ target_size: '0.004' }));
    const updates: TradeWatchUpdate[] = [];
    const watching = (async () => {
      for await (const update of client.watchTrade(body.trade_id, { intervalMs: 600_000 })) {
        updates.push(update);
      }
    })();
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await eventually(() => updates.length > 0, 'the first read of the watch');
    // A partial fill: the trade stays active, only its fills' push can wake the watch.
    await harness.takeFromMaker(order, '0.002');
    await eventually(
      () =>
        updates.some(
          (update) => update.type === 'event' && update.event.event_type === 'hedge_filled',
        ),
      'the hedge of the partial fill, read on a fill wake-up',
      { timeoutMs: 10_000, last: () => updates.map(updateLabel) },
    );
    expect(updates).toContainEqual({
      type: 'trade',
      trade: expect.objectContaining({ status: 'active', filled_size: '0.002' }),
    });
    await client.cancelTrade(body.trade_id);
    await watching;
    expect(updates.at(-1)).toMatchObject({ type: 'end', trade: { status: 'canceled' } });
  });
});

describe('SDK retries on 429 as Retry-After says', () => {
  const gateway = new GatewayHarness();
  beforeAll(() => gateway.start({ env: { GATEWAY_RATE_LIMIT_PER_S: '3' } }));
  afterAll(() => gateway.stop());

  it('surfaces rate_limited with retryAfterS when told not to retry, and waits it out when retrying', async () => {
    const impatient = new StsClient({ baseUrl: gateway.baseUrl, retry: { maxRetries: 0 } });
    let refusal: unknown;
    for (let i = 0; i < 10 && !refusal; i += 1) {
      refusal = await impatient.maintenance().then(
        () => undefined,
        (error: unknown) => error,
      );
    }
    expect(refusal).toBeInstanceOf(StsApiError);
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((refusal as StsApiError).retryAfterS).toBeGreaterThanOrEqual(1);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const patient = new StsClient({ baseUrl: gateway.baseUrl, retry: { maxRetries: 5 } });
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < 7; i += 1) {
      answers.push(await patient.maintenance());
    }
    expect(answers.every((entries) => entries[0]?.exchange === '_system')).toBe(true);
    // 7 calls at 3 per second: at least one wait of Retry-After (1 s) in between.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseTradeControl,
  TRADE_CONTROL,
  TRADE_CONTROL_REPLY,
  tradeControlSubject,
} from '@sts/contracts';
// The worker's end-to-end harness: this gateway, the venue simulator, the budget service and workers.
import { WorkerHarness, type Trader } from '@sts/app-worker-testing';
import { GatewayHarness } from './gateway-harness';

jest.setTimeout(60_000);

/**
 * decisions section 4: `validating` and `recovering` are amendable like
 * `pending`. The amendment is stored before any answer; 200 amendment_sent
 * when the owning worker acknowledges within 500 ms, else 202 amendment_persisted.
 */
describe('PATCH of a trade in a passing state (validating, recovering)', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  let nats: NatsConnection;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter', 'extended']);
    nats = await connect({ servers: '127.0.0.1:4222' });
  });
  afterAll(async () => {
    await nats.close();
    await gateway.stop();
  });

  const pairs = [
    ['hyperliquid', 'paradex'],
    ['lighter', 'extended'],
    ['extended', 'lighter'],
    ['paradex', 'hyperliquid'],
  ];
  let next = 0;
  async function tradeIn(status: string): Promise<string> {
    const [long, short] = pairs[next++ % pairs.length];
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { long_exchange: long, short_exchange: short }),
    });
    expect(created.status).toBe(202);
    await gateway.query(`UPDATE trades SET status = $2 WHERE id = $1`, [
      created.body.trade_id,
      status,
    ]);
    return created.body.trade_id;
  }

  const finish = (tradeId: string) =>
    gateway.query(`UPDATE trades SET status = 'completed', completed_at = now() WHERE id = $1`, [
      tradeId,
    ]);

  it.each(['validating', 'recovering'])(
    'stores an amendment of a %s trade and answers 202 amendment_persisted when no worker answers',
    async (status) => {
      const tradeId = await tradeIn(status);
      const response = await gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
        body: { target_size: '0.03', max_slippage: '0.002' },
      });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({
        status: 'amendment_persisted',
        trade_id: tradeId,
        warning: expect.any(String),
      });
      const [row] = await gateway.query(
        `SELECT target_size::text, max_slippage::text, amendment_version, status FROM trades WHERE id = $1`,
        [tradeId],
      );
      expect(row).toEqual({
        target_size: '0.03',
        max_slippage: '0.002',
        amendment_version: 1,
        status,
      });
      await finish(tradeId);
    },
  );

  it.each(['validating', 'recovering'])(
    'answers 200 amendment_sent when the worker owning a %s trade acknowledges',
    async (status) => {
      const tradeId = await tradeIn(status);
      const received: unknown[] = [];
      const subscription = nats.subscribe(tradeControlSubject(gateway.env.NATS_PREFIX, tradeId), {
        callback: (_error, message) => {
          received.push(decodeEnvelope(message.data, TRADE_CONTROL, parseTradeControl).payload);
          message.respond(
            encodeEnvelope(envelope(TRADE_CONTROL_REPLY, { accepted: true, worker_id: 'spec' })),
          );
        },
      });
      try {
        const response = await gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
          headers: trader.headers,
          body: { target_spread: '4' },
        });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ status: 'amendment_sent', trade_id: tradeId });
        expect(received).toEqual([
          expect.objectContaining({ kind: 'amend', trade_id: tradeId, amendment_version: 1 }),
        ]);
      } finally {
        subscription.unsubscribe();
        await finish(tradeId);
      }
    },
  );
});

describe('an amendment stored while the worker validates the trade is in effect once it is active', () => {
  const harness = new WorkerHarness();

  // Leases renewed rarely: a renewal (which also reads a stored amendment) cannot mask a start
  // that missed one.
  beforeAll(() => harness.start({ env: { WORKER_LEASE_TTL_MS: '30000' } }));
  afterAll(() => harness.stop());

  /**
   * A trade held in validating (the maker venue hangs, so the pre-flight, which opens both
   * legs, waits) while `amend` runs; the venue thaws after it.
   */
  async function amendWhileValidating(
    amend: (trader: Trader, tradeId: string) => Promise<void>,
  ): Promise<{ trader: Trader; tradeId: string }> {
    const trader = await harness.trader();
    await harness.sim.freeze('hyperliquid', 'hang');
    try {
      const tradeId = await harness.createTrade(trader, {
        target_size: '0.005',
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, tradeId, 'validating');
      await amend(trader, tradeId);
      return { trader, tradeId };
    } finally {
      await harness.sim.thaw('hyperliquid');
    }
  }

  const chunkStarted = async (trader: Trader, tradeId: string) =>
    (await harness.waitForEvent(trader, tradeId, 'chunk_started')).find(
      (event) => event.event_type === 'chunk_started',
    )?.data;

  it('an amendment stored that no control message brought is in the chunk it starts with', async () => {
    const { trader, tradeId } = await amendWhileValidating(async (_trader, id) => {
      // What PATCH stores when the owning worker does not answer in time (a loaded machine):
      // the row amended, its version one up, and no control message on its way.
      await harness.gateway.query(
        `UPDATE trades SET target_size = 0.008, amendment_version = amendment_version + 1
          WHERE id = $1 AND status = 'validating'`,
        [id],
      );
    });
    expect(await chunkStarted(trader, tradeId)).toMatchObject({ target_size: '0.008' });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(first.size).toBe('0.008');
  });

  it('quotes and fills the amended target_size, not the one it was created with', async () => {
    const { trader, tradeId } = await amendWhileValidating(async (owner, id) => {
      const amended = await harness.gateway.request('PATCH', `/api/v1/trades/${id}`, {
        headers: owner.headers,
        body: { target_size: '0.009' },
      });
      expect([200, 202]).toContain(amended.status);
      expect((await harness.trade(owner, id)).status).toBe('validating');
    });
    await harness.waitForStatus(trader, tradeId, 'active');
    expect(await chunkStarted(trader, tradeId)).toMatchObject({ target_size: '0.009' });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(first.size).toBe('0.009');
    await harness.takeFromMaker(first, '0.009');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done).toMatchObject({ filled_size: '0.009', target_size: '0.009' });
  });
});

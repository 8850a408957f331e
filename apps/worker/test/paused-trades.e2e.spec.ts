import { sleep } from '@sts/platform';
import { LifecycleSockets, type TraderSocket } from './lifecycle-socket';
import { eventually, WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(60_000);

/**
 * Issue 35's untested rows on paused trades, through the public surfaces:
 * status over HTTP, lifecycle events over the notifier's WebSocket, resting
 * orders from the venue simulator's records. Maker on hyperliquid (long),
 * hedge on paradex; a target spread of -1000 keeps an order resting.
 */
describe('paused trades', () => {
  const harness = new WorkerHarness();
  const sockets = new LifecycleSockets(harness);

  beforeAll(async () => {
    await harness.start();
    await sockets.start();
  });

  afterAll(async () => {
    await sockets.stop();
    await harness.stop();
  });

  /** The trader's resting orders on a venue, as the venue recorded them. */
  const restingOn = async (trader: Trader, venue: string) =>
    (await harness.sim.accountOrders(venue, trader.wallet, { status: 'open' })).orders;

  const waitForNothingResting = (trader: Trader, venue: string) =>
    eventually(
      async () => (await restingOn(trader, venue)).length === 0,
      `no resting order of the trader on ${venue} (venue records)`,
    );

  const patch = (trader: Trader, tradeId: string, body: Record<string, unknown>) =>
    harness.gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
      body,
    });

  const maintenance = (scope: string, on: boolean) =>
    on
      ? harness.gateway.ops('maintenance', 'set', scope, 'on', '--reason', `${scope} upgrade`)
      : harness.gateway.ops('maintenance', 'set', scope, 'off');

  /** A running trade with its maker order resting, and the trader's socket. */
  async function restingTrade(
    overrides: Record<string, unknown> = {},
  ): Promise<{ trader: Trader; socket: TraderSocket; tradeId: string; orderId: string }> {
    const trader = await harness.trader();
    const socket = await sockets.connect(trader);
    const tradeId = await harness.createTrade(trader, { target_spread: '-1000', ...overrides });
    const order = await harness.waitForRestingOrder(trader, 'hyperliquid');
    await socket.waitFor(tradeId, 'trade.started');
    return { trader, socket, tradeId, orderId: order.orderId };
  }

  it.each([
    ['_system', 'system-wide maintenance'],
    ['paradex', 'maintenance of the hedge venue'],
  ])('%s: %s pauses the trade (maker order down), its end resumes it', async (scope) => {
    const { trader, socket, tradeId, orderId } = await restingTrade();

    await maintenance(scope, true);
    try {
      await harness.waitForStatus(trader, tradeId, 'paused');
      const paused = await socket.waitFor(tradeId, 'trade.paused');
      expect(paused).toMatchObject({
        status: 'paused',
        data: { reason: 'maintenance', exchange: scope },
      });
      await waitForNothingResting(trader, 'hyperliquid');
      // Paused holds: no order comes back while the maintenance lasts.
      await sleep(600);
      expect(await restingOn(trader, 'hyperliquid')).toEqual([]);
      expect((await harness.trade(trader, tradeId)).status).toBe('paused');
    } finally {
      await maintenance(scope, false);
    }

    await harness.waitForStatus(trader, tradeId, 'active');
    expect(await socket.waitFor(tradeId, 'trade.resumed')).toMatchObject({ status: 'active' });
    const next = await harness.waitForRestingOrder(trader, 'hyperliquid');
    expect(next.orderId).not.toBe(orderId);
    expect(socket.namesOf(tradeId)).toEqual(['trade.started', 'trade.paused', 'trade.resumed']);
    expect(socket.maintenance()).toEqual(
      expect.arrayContaining([
        [scope, true],
        [scope, false],
      ]),
    );
    await harness.cancelTrade(trader, tradeId);
  });

  describe('PATCH of a paused trade', () => {
    it('paused by the kill switch: the amendment is acknowledged, the trade stays paused, and it quotes the new target on resume', async () => {
      const { trader, socket, tradeId } = await restingTrade({ target_size: '0.005' });

      await harness.gateway.ops('kill-switch', 'on', '--reason', 'incident');
      try {
        await harness.waitForStatus(trader, tradeId, 'paused');
        await waitForNothingResting(trader, 'hyperliquid');

        const amended = await patch(trader, tradeId, { target_size: '0.008' });
        expect(amended.status).toBe(200);
        expect(amended.body).toEqual({ status: 'amendment_sent', trade_id: tradeId });
        expect(await harness.trade(trader, tradeId)).toMatchObject({
          status: 'paused',
          target_size: '0.008',
        });
        // Applied on the next quote cycle, and a paused trade has none: nothing rests.
        await sleep(600);
        expect(await restingOn(trader, 'hyperliquid')).toEqual([]);
        expect(socket.namesOf(tradeId)).toEqual(['trade.started', 'trade.paused']);
      } finally {
        await harness.gateway.ops('kill-switch', 'off');
      }

      await harness.waitForStatus(trader, tradeId, 'active');
      const resized = await harness.waitForRestingOrder(trader, 'hyperliquid');
      expect(resized.size).toBe('0.008');
      await harness.cancelTrade(trader, tradeId);
    });

    it('paused by maintenance: blocked with 503 (amendments are blocked during maintenance), nothing changes', async () => {
      const { trader, tradeId } = await restingTrade({ target_size: '0.005' });

      await maintenance('paradex', true);
      try {
        await harness.waitForStatus(trader, tradeId, 'paused');
        const blocked = await patch(trader, tradeId, { target_size: '0.008' });
        expect(blocked.status).toBe(503);
        expect(blocked.body.code).toBe('exchange_maintenance');
        expect(blocked.body.error).toContain('paradex');
        expect(await harness.trade(trader, tradeId)).toMatchObject({
          status: 'paused',
          target_size: '0.005',
        });
      } finally {
        await maintenance('paradex', false);
      }

      await harness.waitForStatus(trader, tradeId, 'active');
      expect((await harness.waitForRestingOrder(trader, 'hyperliquid')).size).toBe('0.005');
      await harness.cancelTrade(trader, tradeId);
    });
  });
});

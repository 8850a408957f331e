import Big from 'big.js';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { tradeCommandsStream } from '@sts/contracts';
import { WORKER_CONSUMER } from '../src/commands/start-commands.consumer';
import { eventually } from './eventually';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(60_000);

describe('amending and canceling running trades', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  const patch = (trader: Trader, tradeId: string, body: Record<string, unknown>) =>
    harness.gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
      body,
    });

  const remove = (trader: Trader, tradeId: string) =>
    harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, { headers: trader.headers });

  it('amend up: the owner acknowledges, re-sizes the order and fills to the new target', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.005',
      target_spread: '-1000',
    });
    const first = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(first.size).toBe('0.005');
    await harness.takeFromMaker(first, '0.003');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');

    const amended = await patch(trader, tradeId, { target_size: '0.009' });
    expect(amended.status).toBe(200);
    expect(amended.body).toEqual({ status: 'amendment_sent', trade_id: tradeId });
    const resized = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.size === '0.006',
    );
    await harness.takeFromMaker(resized, '0.006');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done.filled_size).toBe('0.009');
    expect(done.target_size).toBe('0.009');
  });

  it('amend to filled_size: the maker order comes down, nothing more fills, the status stays active', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    await harness.waitForStatus(trader, tradeId, 'active');

    const amended = await patch(trader, tradeId, { target_size: '0.004' });
    expect(amended.status).toBe(200);
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    const view = await harness.trade(trader, tradeId);
    expect(view).toMatchObject({ status: 'active', filled_size: '0.004', target_size: '0.004' });
    expect(harness.lifecycleOf(tradeId)).toEqual(['trade.started']);

    // Raising it again resumes quoting.
    expect((await patch(trader, tradeId, { target_size: '0.006' })).status).toBe(200);
    const again = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(again.size).toBe('0.002');
    expect((await remove(trader, tradeId)).status).toBe(202);
    await harness.waitForStatus(trader, tradeId, 'canceled');
  });

  it('tightening makes the strategy wait for the spread; loosening posts again', async () => {
    const trader = await harness.trader();
    const maker = await harness.sim.book('hyperliquid', 'BTC', 1);
    const hedge = await harness.sim.book('paradex', 'BTC-USD-PERP', 1);
    const touchSpread = new Big(hedge.bids[0][0]).minus(maker.bids[0][0]);
    // lte: the spread H - P must stay at or below the target; P cannot go above the ask.
    const loose = touchSpread.plus(2);
    const tradeId = await harness.createTrade(trader, {
      target_spread: loose.toFixed(),
      spread_condition: 'lte',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(order.price).toBe(maker.bids[0][0]);

    // Tighter than any price below the ask can give: no valid price, so no order.
    const impossible = new Big(hedge.bids[0][0]).minus(maker.asks[0][0]).minus(5);
    expect((await patch(trader, tradeId, { target_spread: impossible.toFixed() })).status).toBe(
      200,
    );
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    expect((await harness.trade(trader, tradeId)).status).toBe('active');

    expect((await patch(trader, tradeId, { target_spread: loose.toFixed() })).status).toBe(200);
    const back = await harness.waitForMakerOrder(trader, 'hyperliquid');
    expect(back.price).toBe(maker.bids[0][0]);
    expect(back.clientOrderId).not.toBe(order.clientOrderId);
    expect((await remove(trader, tradeId)).status).toBe(202);
    await harness.waitForStatus(trader, tradeId, 'canceled');
  });

  it('cancel while active: quoting halts, the order is canceled, fills stay, status canceled', async () => {
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');

    const canceled = await remove(trader, tradeId);
    expect(canceled.status).toBe(202);
    expect(canceled.body).toEqual({ status: 'cancel_sent', trade_id: tradeId });
    const view = await harness.waitForStatus(trader, tradeId, 'canceled');
    expect(view.filled_size).toBe('0.002');
    await harness.waitForNoOpenOrders(trader, 'hyperliquid');
    const events = await harness.events(trader, tradeId);
    expect(harness.closingEvent(events)).toMatchObject({
      event_type: 'chunk_completed',
      data: { filled_size: '0.002', reason: 'canceled', residual_unhedged: '0' },
    });
    const lifecycle = await harness.waitForLifecycle(tradeId, 'trade.canceled');
    expect(lifecycle.map((e) => e.event)).toEqual(['trade.started', 'trade.canceled']);
    // A second DELETE is a no-op.
    expect((await remove(trader, tradeId)).body).toEqual({
      status: 'cancel_sent',
      trade_id: tradeId,
    });
  });

  it('cancel while pending: canceled at once, and no worker ever runs it', async () => {
    const [worker] = harness.workers.splice(0, 1);
    await worker.close();
    const trader = await harness.trader();
    const tradeId = await harness.createTrade(trader);
    const canceled = await remove(trader, tradeId);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toEqual({ status: 'canceled', trade_id: tradeId });

    const nats = await connect({ servers: '127.0.0.1:4222' });
    try {
      const jsm = await jetstreamManager(nats);
      const stream = tradeCommandsStream(harness.gateway.env['NATS_PREFIX']).name;
      const consumer = () => jsm.consumers.info(stream, WORKER_CONSUMER);
      await eventually(
        async () => (await consumer()).num_pending === 1,
        'the start command queued',
      );
      await harness.addWorker();
      // The start command is taken and dropped: the claim is conditional on pending.
      await eventually(async () => {
        const info = await consumer();
        return info.num_pending === 0 && info.num_ack_pending === 0;
      }, 'the start command consumed');
    } finally {
      await nats.close();
    }
    const [row] = await harness.gateway.query(
      `SELECT status, lease_epoch FROM trades WHERE id = $1`,
      [tradeId],
    );
    expect(row).toEqual({ status: 'canceled', lease_epoch: '0' });
    expect(await harness.events(trader, tradeId)).toEqual([]);
    expect(await harness.openOrders(trader, 'hyperliquid')).toEqual([]);
  });
});

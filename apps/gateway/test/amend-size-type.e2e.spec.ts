import Big from 'big.js';
// The worker's end-to-end harness: this gateway, the venue simulator, the budget service and a worker.
import { eventually, WorkerHarness, type Trader } from '@sts/app-worker-testing';

jest.setTimeout(60_000);

/**
 * decisions section 8: a PATCH that changes `size_type` must carry
 * `target_size`, and the new target is checked against `filled_size` in the
 * new unit. A fill counts as the worker counts it: its size in base units, or
 * price x size in USD at the fill's own price (decisions section 2), so the
 * gateway's check and the worker's filled_size are one number.
 */
describe('PATCH of size_type, checked in the new unit by the gateway and the worker alike', () => {
  const harness = new WorkerHarness();

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  const patch = (trader: Trader, tradeId: string, body: Record<string, unknown>) =>
    harness.gateway.request('PATCH', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
      body,
    });

  /** What the trade's maker fills are worth in USD, each at its own price (from its log). */
  async function loggedNotional(trader: Trader, tradeId: string): Promise<Big> {
    const fills = (await harness.events(trader, tradeId)).filter(
      (event) => event.event_type === 'maker_fill',
    );
    return fills.reduce(
      (sum, fill) => sum.plus(new Big(fill.data.price).times(fill.data.size)),
      new Big(0),
    );
  }

  const amendmentOf = async (tradeId: string) =>
    (
      await harness.gateway.query(`SELECT amendment_version, amendment FROM trades WHERE id = $1`, [
        tradeId,
      ])
    )[0];

  /** A running base trade with 0.004 of its 0.01 filled and hedged. */
  async function partlyFilled(trader: Trader): Promise<string> {
    const tradeId = await harness.createTrade(trader, {
      target_size: '0.01',
      target_spread: '-1000',
    });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    await eventually(
      async () => (await harness.trade(trader, tradeId)).filled_size === '0.004',
      'filled_size 0.004',
    );
    return tradeId;
  }

  it('refuses a size_type change without target_size (400, nothing changed)', async () => {
    const trader = await harness.trader();
    const tradeId = await partlyFilled(trader);
    const refused = await patch(trader, tradeId, { size_type: 'notional' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/target_size/),
      code: 'invalid_request',
    });
    expect(await harness.trade(trader, tradeId)).toMatchObject({
      size_type: 'base',
      target_size: '0.01',
      filled_size: '0.004',
    });
    expect(await amendmentOf(tradeId)).toEqual({ amendment_version: 0, amendment: null });

    // Naming the size_type the trade already has changes nothing: no target needed.
    const same = await patch(trader, tradeId, { size_type: 'base', max_slippage: '0.002' });
    expect(same.status).toBe(200);
    await harness.cancelTrade(trader, tradeId);
  });

  it('checks the new target against filled_size in USD, and the worker fills on in USD', async () => {
    const trader = await harness.trader();
    const tradeId = await partlyFilled(trader);
    const filledUsd = await loggedNotional(trader, tradeId);

    // 0.004 BTC is about 240 USD: a bare-number check (target >= 0.004) would take this.
    const below = await patch(trader, tradeId, {
      size_type: 'notional',
      target_size: filledUsd.minus('0.01').toFixed(),
    });
    expect(below.status).toBe(400);
    expect(below.body).toEqual({
      error: `target_size ${filledUsd.minus('0.01').toFixed()} is below filled_size ${filledUsd.toFixed()}`,
      code: 'invalid_request',
    });
    expect(await harness.trade(trader, tradeId)).toMatchObject({
      size_type: 'base',
      target_size: '0.01',
      filled_size: '0.004',
    });

    const target = filledUsd.plus(150);
    const amended = await patch(trader, tradeId, {
      size_type: 'notional',
      target_size: target.toFixed(),
    });
    expect(amended.status).toBe(200);
    expect(await harness.trade(trader, tradeId)).toMatchObject({
      status: 'active',
      size_type: 'notional',
      target_size: target.toFixed(),
      filled_size: filledUsd.toFixed(),
    });
    // The worker quotes what is left in USD at its quote price, floored to the lot (0.00001).
    const resized = await harness.waitForMakerOrder(trader, 'hyperliquid', (order) =>
      new Big(order.size).eq(new Big(150).div(order.price).round(5, Big.roundDown)),
    );
    await harness.takeFromMaker(resized, resized.size);
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    const expected = filledUsd.plus(new Big(resized.price).times(resized.size));
    expect(done).toMatchObject({ size_type: 'notional', filled_size: expected.toFixed() });
    expect((await loggedNotional(trader, tradeId)).eq(expected)).toBe(true);
  });

  it('checks a change back to base against the base size filled', async () => {
    const trader = await harness.trader();
    const tradeId = await partlyFilled(trader);
    const filledUsd = await loggedNotional(trader, tradeId);
    expect(
      (
        await patch(trader, tradeId, {
          size_type: 'notional',
          target_size: filledUsd.plus(150).toFixed(),
        })
      ).status,
    ).toBe(200);
    await eventually(
      async () => (await harness.trade(trader, tradeId)).filled_size === filledUsd.toFixed(),
      'filled_size in USD',
    );

    const below = await patch(trader, tradeId, { size_type: 'base', target_size: '0.0039' });
    expect(below.status).toBe(400);
    expect(below.body.error).toBe('target_size 0.0039 is below filled_size 0.004');
    const back = await patch(trader, tradeId, { size_type: 'base', target_size: '0.006' });
    expect(back.status).toBe(200);
    expect(await harness.trade(trader, tradeId)).toMatchObject({
      size_type: 'base',
      target_size: '0.006',
      filled_size: '0.004',
    });
    const resized = await harness.waitForMakerOrder(
      trader,
      'hyperliquid',
      (o) => o.size === '0.002',
    );
    await harness.takeFromMaker(resized, '0.002');
    const done = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(done).toMatchObject({ size_type: 'base', filled_size: '0.006', target_size: '0.006' });
  });
});

import Big from 'big.js';
import { WorkerHarness } from './worker-harness';
import { sleep } from '@sts/platform';

jest.setTimeout(60_000);

const sum = (fills: Array<{ size: string }>): string =>
  fills.reduce((total, fill) => total.plus(fill.size), new Big(0)).toFixed();

/**
 * Issue 15, item 3: a trade completed early although what remained still
 * made an acceptable order. Maker on Paradex (BTC lot 0.00001, min notional
 * 100 USD), hedge on Aster (lot 0.001): a partial fill of 0.00366 leaves
 * 0.00134 (about 130 USD), whose coarser-lot part (0.001) is below Paradex's
 * minimum, yet the whole of it hedges with the 0.00066 still waiting.
 */
describe('completing a target the coarser lot cannot make', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start();
  });

  afterAll(() => harness.stop());

  it('quotes the remainder that hedges in whole lots with the waiting residue, and fills the target', async () => {
    const trader = await harness.trader(['paradex', 'aster']);
    const tradeId = await harness.createTrade(trader, {
      long_exchange: 'paradex',
      short_exchange: 'aster',
      maker_leg: 'long',
      target_size: '0.005',
      target_spread: '-1000',
    });
    const first = await harness.waitForMakerOrder(trader, 'paradex');
    expect(first.size).toBe('0.005');
    await harness.takeFromMaker(first, '0.00366');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');

    // A quote cycle runs on the next book move: the remainder must still be quoted then.
    await harness.sim.jumpVenue('paradex', 2, 'BTC-USD-PERP');
    await sleep(500);
    expect((await harness.trade(trader, tradeId)).status).toBe('active');
    const [rest] = await harness.openOrders(trader, 'paradex');
    expect(new Big(rest.size).minus(rest.filledSize).toFixed()).toBe('0.00134');
    await harness.takeFromMaker(rest, '0.00134');
    const completed = await harness.waitForStatus(trader, tradeId, 'completed');
    expect(completed.filled_size).toBe('0.005');
    expect(sum(await harness.sim.fillsOf('paradex', trader.wallet))).toBe('0.005');
    expect(sum(await harness.sim.fillsOf('aster', trader.wallet))).toBe('0.005');
    const events = await harness.events(trader, tradeId);
    expect(harness.closingEvent(events).data).toMatchObject({ residual_unhedged: '0' });
  });
});

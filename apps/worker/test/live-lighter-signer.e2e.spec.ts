import { WorkerHarness } from './worker-harness';

jest.setTimeout(60_000);

/**
 * Lighter's live path needs a signer library ccxt's npm package does not ship
 * (docs/live-venues.md: "Lighter's signer"). A deployment without it refuses a Lighter live
 * trade in pre-flight, saying what is missing, and sends nothing.
 */
describe('Lighter live without its signer', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    // The gateway lists Lighter's markets from the simulator (paper); the
    // worker trades Lighter live, without LIGHTER_SIGNER_WASM / LIGHTER_WASM_EXEC_JS.
    await harness.start({ workers: 0 });
    await harness.addWorker({ VENUE_LIGHTER_MODE: 'live' });
  });

  afterAll(() => harness.stop());

  it('rejects the trade in pre-flight with a failure_reason naming the missing signer', async () => {
    const trader = await harness.liveTrader(['lighter', 'hyperliquid']);
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'lighter',
      short_exchange: 'hyperliquid',
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
    });
    const rejected = await harness.waitForStatus(trader, tradeId, 'rejected', 30_000);
    expect(rejected.failure_reason).toBe(
      "lighter live trading is not set up: the Lighter signer is not installed on this deployment: set LIGHTER_SIGNER_WASM (lighter-signer.wasm) and LIGHTER_WASM_EXEC_JS (Go's wasm_exec.js) to existing files built for ccxt 4.5.84",
    );
    expect(await harness.sim.accountOrders('lighter', trader.wallet)).toEqual({ orders: [] });
  });
});

import { WorkerHarness } from './worker-harness';

jest.setTimeout(120_000);

// Pre-flight margin on the live path reads the market's margin asset only.
// Venues list every asset an account holds, each in its own units (Aster's
// futures balances list 32, Extended's spot balances USDC, WETH and WBTC);
// a wallet with too little of the margin asset is rejected however much of
// the others it holds.

describe('pre-flight margin by asset, live through ccxt against the dialects', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: ['hyperliquid', 'aster', 'extended'], workers: 0 });
    await harness.addWorker();
  });

  afterAll(() => harness.stop());

  // 50 SOL at about 180 USD is 9,000 of notional: 120 USDT of margin on Aster
  // (75x), 180 on Extended (50x), 450 USDC on Hyperliquid (20x).
  const terms = (maker: string, hedge: string) => ({
    market: 'SOL',
    long_exchange: maker,
    short_exchange: hedge,
    maker_leg: 'long',
    target_size: '50',
    target_spread: '-1000',
  });

  it('maker on aster: 20 USDT beside 100,000 ASTER is too little margin', async () => {
    const trader = await harness.liveTrader(['aster', 'hyperliquid'], {
      aster: [{ amount: '20' }, { amount: '100000', asset: 'ASTER' }],
    });
    const tradeId = await harness.createTrade(trader, terms('aster', 'hyperliquid'));
    const rejected = await harness.waitForStatus(trader, tradeId, 'rejected', 20_000);
    expect(rejected.failure_reason).toMatch(
      /^insufficient margin on aster: 20 USDT available, \d+(\.\d+)? required$/,
    );
  });

  it('hedge on extended: 20 USDC beside 1,000 WETH is too little margin', async () => {
    const trader = await harness.liveTrader(['hyperliquid', 'extended'], {
      extended: [{ amount: '20' }, { amount: '1000', asset: 'WETH' }],
    });
    const tradeId = await harness.createTrade(trader, terms('hyperliquid', 'extended'));
    const rejected = await harness.waitForStatus(trader, tradeId, 'rejected', 20_000);
    expect(rejected.failure_reason).toMatch(
      /^insufficient margin on extended: 20 USDC available, \d+(\.\d+)? required$/,
    );
  });
});

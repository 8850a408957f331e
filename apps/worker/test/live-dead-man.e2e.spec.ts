import type { WireOrder } from '@sts/venues';
import { eventually } from './eventually';
import { WorkerHarness, type Trader } from './worker-harness';

jest.setTimeout(150_000);

/** The switch's setting here: Hyperliquid's shortest the client arms (5 s documented, plus transit). */
const TIMEOUT_MS = 10_000;
/** Lighter's shortest scheduled cancel-all as the client arms it (5 minutes, plus 5 s). */
const LIGHTER_FLOOR_MS = 305_000;
/** What the issue allows past the setting for the venue's own cancel to show. */
const SLACK_MS = 5_000;
/** Each venue makes once and hedges once (Lighter's switch, 5 minutes at least, below). */
const PAIRS: Array<[string, string]> = [
  ['hyperliquid', 'extended'],
  ['extended', 'aster'],
  ['aster', 'hyperliquid'],
];
const VENUES = PAIRS.map(([maker]) => maker);

/**
 * When the account's switch last fired. Aster's countdowns are per symbol:
 * its firings are in the dialect's details, not the board's own record.
 */
const firedAtMs = (state: DeadManView): number => {
  const firings = (state.details?.['firings'] ?? []) as Array<{ atMs: number }>;
  const times = [state.lastFiredAtMs ?? 0, ...firings.map((firing) => firing.atMs)];
  const last = Math.max(...times);
  expect(last).toBeGreaterThan(0);
  return last;
};

interface DeadManView {
  details?: Record<string, unknown>;
  armed: boolean;
  cancelsAtMs: number | null;
  lastFiredAtMs: number | null;
  lastCanceled: number;
}

/**
 * Fleet-wide death on live venues: every worker holding trades is killed with
 * SIGKILL while its maker orders rest, and nothing of ours runs after. The
 * venues' own dead-man switches, which each worker kept pushed forward, take
 * every resting order of the account down within the setting (plus 5 s), and
 * nothing fills after: judged by the simulator's own records.
 */
describe('every worker killed on live venues: their dead-man switches cancel what rests', () => {
  const harness = new WorkerHarness();

  beforeAll(async () => {
    await harness.start({ liveDialects: [...VENUES, 'lighter'], workers: 0 });
  });

  afterAll(() => harness.stop());

  const deadMan = async (venue: string, wallet: string): Promise<DeadManView> => {
    const response = await fetch(
      `${harness.sim.url}/control/venues/${venue}/accounts/${wallet.toLowerCase()}/dead-man`,
    );
    return (await response.json()) as DeadManView;
  };

  const openOrders = async (venue: string, trader: Trader): Promise<WireOrder[]> =>
    (await harness.sim.accountOrders(venue, trader.wallet, { status: 'open' })).orders;

  it('cancels every resting order within the setting plus 5 s, and nothing fills after', async () => {
    const trader = await harness.liveTrader(VENUES);
    // Hyperliquid arms scheduleCancel only for an address that has traded $1M.
    const credited = await fetch(`${harness.sim.url}/dialects/hyperliquid/_sim/volume`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: trader.wallet, volume: '2000000' }),
    });
    expect(credited.status).toBe(200);
    const worker = await harness.spawnWorker({ WORKER_DEAD_MAN_TIMEOUT_MS: String(TIMEOUT_MS) });
    const symbols = new Map<string, string>();
    for (const [maker, hedge] of PAIRS) {
      const tradeId = await harness.createTrade(trader, {
        market: 'BTC',
        long_exchange: maker,
        short_exchange: hedge,
        maker_leg: 'long',
        target_size: '0.01',
        target_spread: '-1000',
      });
      await harness.waitForStatus(trader, tradeId, 'active', 20_000);
      symbols.set(maker, (await harness.waitForRestingOrder(trader, maker)).symbol);
    }
    for (const [maker] of PAIRS) {
      await eventually(async () => (await deadMan(maker, trader.wallet)).armed, `${maker} armed`);
    }

    const killedAtMs = Date.now();
    await worker.kill();
    const deadlineMs = killedAtMs + TIMEOUT_MS + SLACK_MS;
    for (const [maker] of PAIRS) {
      await eventually(
        async () => (await openOrders(maker, trader)).length === 0,
        `${maker}'s resting orders canceled by its switch`,
        { timeoutMs: deadlineMs - Date.now() + 1_000, intervalMs: 250 },
      );
      const fired = await deadMan(maker, trader.wallet);
      expect(firedAtMs(fired)).toBeLessThanOrEqual(deadlineMs);
      console.log(`${maker}: its switch fired ${firedAtMs(fired) - killedAtMs} ms after the kill`);
    }

    // Whatever trades through the books now finds nothing of ours.
    for (const [maker] of PAIRS) {
      await harness.sim.trade(maker, symbols.get(maker)!, 'sell', '1');
      const fills = await harness.sim.fillsOf(maker, trader.wallet);
      expect(fills).toEqual([]);
    }
  });

  it('Lighter: its cancel-all, 5 minutes at least, takes the orders down at its time', async () => {
    const trader = await harness.liveTrader(['lighter', 'hyperliquid']);
    const worker = await harness.spawnWorker({ WORKER_DEAD_MAN_TIMEOUT_MS: String(TIMEOUT_MS) });
    const tradeId = await harness.createTrade(trader, {
      market: 'BTC',
      long_exchange: 'lighter',
      short_exchange: 'hyperliquid',
      maker_leg: 'long',
      target_size: '0.01',
      target_spread: '-1000',
    });
    await harness.waitForStatus(trader, tradeId, 'active', 20_000);
    const resting = await harness.waitForRestingOrder(trader, 'lighter');
    const armed = await eventually(async () => {
      const state = await deadMan('lighter', trader.wallet);
      return state.armed ? state : undefined;
    }, 'lighter armed');
    const killedAtMs = Date.now();
    await worker.kill();
    // The setting is raised to Lighter's floor: 5 minutes (documented) and 5 s for transit.
    expect(armed.cancelsAtMs! - killedAtMs).toBeLessThanOrEqual(LIGHTER_FLOOR_MS + SLACK_MS);
    const before = await fetch(`${harness.sim.url}/control/dead-man/elapse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: LIGHTER_FLOOR_MS - 60_000 }),
    });
    expect(before.status).toBe(200);
    expect(await openOrders('lighter', trader)).toHaveLength(1);
    await fetch(`${harness.sim.url}/control/dead-man/elapse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: LIGHTER_FLOOR_MS + SLACK_MS }),
    });
    expect(await openOrders('lighter', trader)).toEqual([]);
    await harness.sim.trade('lighter', resting.symbol, 'sell', '1');
    expect(await harness.sim.fillsOf('lighter', trader.wallet)).toEqual([]);
  });
});

import Big from 'big.js';
import {
  OrderRejectedError,
  PaperVenueClient,
  PostOnlyWouldCrossError,
  type OrderSide,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from './sim-server';
import { SimControl } from './testing/sim-control';

/** The informed venue and the random one, both quoting BTC. */
const INFORMED = 'hyperliquid';
const RANDOM = 'lighter';
const SYMBOL = 'BTC';
const STEP_MS = 100;
/** How far ahead the informed takers see, and how long after a fill the markout is read. */
const HORIZON_MS = 10_000;
const HORIZON_STEPS = HORIZON_MS / STEP_MS;
/** Simulated time the maker quotes (then one horizon more to mark the last fills out). */
const QUOTED_STEPS = 1_200;
/** The maker's quote sits inside the house's touch (0.8 bps), this far from the mid. */
const QUOTE_OFFSET_BPS = 0.4;

interface MakerFill {
  step: number;
  side: OrderSide;
}

/**
 * A maker quoting one small bid and one small ask inside the house's touch
 * of one venue, refreshed every step at the venue's mark: each step's fills
 * are the takers' (and, rarely, a jump through the quote), and the mark the
 * venue publishes each step is the mid they are marked out against.
 */
class TouchMaker {
  readonly mids: number[] = [];
  readonly fills: MakerFill[] = [];
  private readonly live: Partial<Record<OrderSide, string>> = {};
  private ids = 0;
  private tick!: Big;
  private size!: string;

  constructor(
    private readonly sim: RunningVenueSim,
    readonly venue: string,
    readonly client: PaperVenueClient,
  ) {}

  async start(): Promise<void> {
    // Registered, markets loaded, no socket: every order goes over HTTP, one at a time.
    await this.client.connectForReads();
    const market = (await this.client.markets()).find((m) => m.entry.symbol === SYMBOL)!;
    this.tick = new Big(market.entry.tick_size);
    // The smallest order both the lot and the notional minimum allow: any taker fills it whole.
    const lot = new Big(market.entry.lot_size);
    const minNotional = new Big(market.entry.min_notional ?? '0').times(1.5);
    const bySize = new Big(market.entry.min_size).div(lot).round(0, Big.roundUp);
    const byNotional = minNotional
      .div(await this.mark())
      .div(lot)
      .round(0, Big.roundUp);
    const lots = bySize.gt(byNotional) ? bySize : byNotional;
    this.size = lots.times(lot).toFixed();
  }

  /** After step `step`: records the mid, books what filled since the last refresh, quotes anew. */
  async refresh(step: number): Promise<void> {
    const mid = await this.mark();
    this.mids[step] = mid.toNumber();
    // The side moving away from the other first, so the new quote never meets the old one.
    const rose = step > 0 && this.mids[step] > this.mids[step - 1];
    for (const side of rose ? (['sell', 'buy'] as const) : (['buy', 'sell'] as const)) {
      const price = this.quotePrice(side, mid);
      const clientOrderId = `${this.venue}-${side}-${(this.ids += 1)}`;
      const next = { symbol: SYMBOL, side, price, size: this.size, clientOrderId };
      const target = this.live[side];
      this.live[side] = undefined;
      if (target) {
        const { canceled, placed } = await this.client.replace({
          target: { clientOrderId: target },
          next,
          expectedFilledSize: '0',
        });
        if (new Big(canceled.order!.filledSize).gt(0)) {
          this.fills.push({ step, side });
        }
        if (placed) {
          this.live[side] = clientOrderId;
          continue;
        }
      }
      await this.place(next);
    }
  }

  /** Signed so that positive is good for the maker, in bps of the mid at the fill. */
  markouts(horizonSteps: number): number[] {
    return this.fills
      .filter((fill) => this.mids[fill.step + horizonSteps] !== undefined)
      .map(({ step, side }) => {
        const move = (this.mids[step + horizonSteps] - this.mids[step]) / this.mids[step];
        return (side === 'buy' ? move : -move) * 10_000;
      });
  }

  private async place(next: Parameters<PaperVenueClient['placePostOnly']>[0]): Promise<void> {
    try {
      await this.client.placePostOnly(next);
      this.live[next.side] = next.clientOrderId;
    } catch (error) {
      // No room inside the touch this step (a jump through the quote); the next may have it.
      if (!(error instanceof OrderRejectedError || error instanceof PostOnlyWouldCrossError)) {
        throw error;
      }
    }
  }

  private quotePrice(side: OrderSide, mid: Big): string {
    const offset = mid.times(QUOTE_OFFSET_BPS).div(10_000);
    const raw = side === 'buy' ? mid.minus(offset) : mid.plus(offset);
    const ticks = raw.div(this.tick).round(0, side === 'buy' ? Big.roundDown : Big.roundUp);
    return ticks.times(this.tick).toFixed();
  }

  private async mark(): Promise<Big> {
    const response = await fetch(`${this.sim.url}/venues/${this.venue}/markets`);
    const { markets } = (await response.json()) as {
      markets: Array<{ symbol: string; mark_price: string }>;
    };
    return new Big(markets.find((market) => market.symbol === SYMBOL)!.mark_price);
  }
}

const mean = (values: number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

describe('informed takers', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  const clients: PaperVenueClient[] = [];

  const makerOn = (venue: string): TouchMaker => {
    const client = new PaperVenueClient({
      venue,
      baseUrl: `${sim.url}/venues/${venue}`,
      credentials: { apiKey: `mk-${venue}`, apiSecret: 'mk-secret', wallet: '0xmarkout' },
    });
    clients.push(client);
    return new TouchMaker(sim, venue, client);
  };

  beforeAll(async () => {
    sim = await startVenueSim({
      seed: 60,
      tickMs: 0,
      rateLimits: { [INFORMED]: 1_000_000, [RANDOM]: 1_000_000 },
    });
    control = new SimControl(sim.url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sim.stop();
  });

  it('are off until set, and are set per venue through /control, all or nothing', async () => {
    expect(await control.takerFlow(INFORMED)).toEqual({
      informed_taker_share: 0,
      informed_horizon_ms: 10_000,
    });
    await expect(
      control.setTakerFlow(INFORMED, { informed_taker_share: 0.5, informed_horizon_ms: 150 }),
    ).rejects.toThrow(/HTTP 400/);
    await expect(control.setTakerFlow(INFORMED, { informed_taker_share: 1.5 })).rejects.toThrow(
      /HTTP 400/,
    );
    await expect(control.setTakerFlow('nowhere', { informed_taker_share: 1 })).rejects.toThrow(
      /HTTP 404/,
    );
    expect(await control.takerFlow(INFORMED)).toMatchObject({ informed_taker_share: 0 });
    expect(
      await control.setTakerFlow(INFORMED, {
        informed_taker_share: 1,
        informed_horizon_ms: HORIZON_MS,
      }),
    ).toEqual({ informed_taker_share: 1, informed_horizon_ms: HORIZON_MS });
    const { venues } = (await control.state()) as { venues: Array<Record<string, unknown>> };
    expect(venues.find((venue) => venue['id'] === INFORMED)).toMatchObject({
      informed_taker_share: 1,
    });
    expect(venues.find((venue) => venue['id'] === RANDOM)).toMatchObject({
      informed_taker_share: 0,
    });
  });

  it("pick off a maker: its mid moves against the maker's fills with informed takers, not with random ones", async () => {
    await control.setTakerFlow(INFORMED, {
      informed_taker_share: 1,
      informed_horizon_ms: HORIZON_MS,
    });
    await control.reset();
    // A reset keeps the venue's flow settings, and the other venue's takers stay random.
    expect(await control.takerFlow(INFORMED)).toMatchObject({ informed_taker_share: 1 });
    expect(await control.takerFlow(RANDOM)).toMatchObject({ informed_taker_share: 0 });
    const makers = [makerOn(INFORMED), makerOn(RANDOM)];
    for (const maker of makers) {
      await maker.start();
      await maker.refresh(0);
    }
    for (let step = 1; step <= QUOTED_STEPS + HORIZON_STEPS; step += 1) {
      await control.step(1);
      for (const maker of makers) {
        await maker.refresh(step);
      }
    }

    const [informed, random] = makers.map((maker) => {
      const at = (seconds: number): number => mean(maker.markouts((seconds * 1_000) / STEP_MS));
      const fills = maker.markouts(HORIZON_STEPS);
      return {
        venue: maker.venue,
        share: maker === makers[0] ? 1 : 0,
        fills: fills.length,
        buys: maker.fills.filter((fill) => fill.side === 'buy').length,
        markout_1s_bps: at(1),
        markout_10s_bps: at(10),
        stdev_10s_bps: Math.sqrt(mean(fills.map((bps) => (bps - at(10)) ** 2))),
      };
    });
    // The figures this spec stands on, for the reader of the test output.
    console.log(
      `maker markouts on ${SYMBOL}, ${QUOTED_STEPS / 10} s quoted, informed horizon ${HORIZON_MS / 1_000} s\n` +
        [informed, random]
          .map((row) =>
            Object.entries(row)
              .map(([key, value]) =>
                typeof value === 'number' && !Number.isInteger(value)
                  ? `${key}=${value.toFixed(2)}`
                  : `${key}=${value}`,
              )
              .join(' '),
          )
          .join('\n'),
    );

    expect(informed.fills).toBeGreaterThan(100);
    expect(random.fills).toBeGreaterThan(100);
    expect(informed.markout_10s_bps).toBeLessThan(-1.5);
    expect(Math.abs(random.markout_10s_bps)).toBeLessThan(0.75);
  }, 180_000);
});

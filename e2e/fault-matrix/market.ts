import Big from 'big.js';
import type { SimControl } from '@sts/app-venue-sim';
import { delay } from './processes';

/** A venue pair the trades run on: one leg rests as maker, the other hedges. */
export interface Pair {
  name: string;
  maker: {
    venue: string;
    symbol: string;
    /** The outside taker's side that fills the maker order. */
    takerSide: 'buy' | 'sell';
    /**
     * A basis jump that re-prices the maker order without the house trading
     * through it (a jump the other way ends on partial fills of any size,
     * which the hedge venue's lot may not be able to hedge).
     */
    safeJumpBps: number;
  };
  hedge: { venue: string; symbol: string };
  body: Record<string, unknown>;
}

export const PAIRS: Pair[] = [
  {
    name: 'hyperliquid>paradex',
    maker: { venue: 'hyperliquid', symbol: 'BTC', takerSide: 'sell', safeJumpBps: 2 },
    hedge: { venue: 'paradex', symbol: 'BTC-USD-PERP' },
    body: { long_exchange: 'hyperliquid', short_exchange: 'paradex', maker_leg: 'long' },
  },
  {
    name: 'lighter>aster',
    maker: { venue: 'lighter', symbol: 'BTC', takerSide: 'buy', safeJumpBps: -2 },
    hedge: { venue: 'aster', symbol: 'BTCUSDT' },
    body: { long_exchange: 'aster', short_exchange: 'lighter', maker_leg: 'short' },
  },
];

/** Taker sizes are multiples of this, so every maker fill stays hedgeable on the other venue. */
const SIZE_STEP = new Big('0.005');

/** A control call that does not answer in 5 s counts as a failure, never stalls the driver. */
function bounded<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('control call did not answer in 5 s')), 5_000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A small seeded generator (LCG): the market is driven the same way on every run. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * The market during a fault: outside takers that fill the maker orders on
 * both pairs, and basis jumps that make the trades re-quote. Venues in
 * `frozen` are left alone (a frozen venue's control calls would only hang).
 */
export class MarketDriver {
  readonly frozen = new Set<string>();
  takerTrades = 0;
  /** Net basis jumps per hedge venue (bps) this driver has made. */
  private readonly drift = new Map<string, number>();
  failures = 0;
  private running = false;
  /** One stream for the whole run: each fault continues where the last one left the market. */
  private readonly random: () => number;
  private loop?: Promise<void>;

  constructor(
    private readonly sim: SimControl,
    seed: number,
  ) {
    this.random = seeded(seed);
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.takerTrades = 0;
    this.failures = 0;
    const random = this.random;
    this.loop = (async () => {
      while (this.running) {
        const pair = PAIRS[Math.floor(random() * PAIRS.length)];
        const roll = random();
        // Mostly small takers; one in ten sweeps deeper, as far as a second maker order of a
        // trade would rest (an overfill shows only if someone takes it).
        const sweep = random() < 0.1;
        const size = SIZE_STEP.times(
          sweep ? 10 + Math.floor(random() * 20) : 1 + Math.floor(random() * 8),
        ).toFixed();
        let hedgeJump = Math.round((random() - 0.5) * 6);
        // The cross-venue spread wanders but stays near its start (a run of faults drives
        // hundreds of jumps; the basis only reverts on simulation steps, and none are taken).
        const drift = this.drift.get(pair.hedge.venue) ?? 0;
        if (Math.abs(drift + hedgeJump) > 6) {
          hedgeJump = -hedgeJump;
        }
        try {
          if (roll < 0.65) {
            if (!this.frozen.has(pair.maker.venue)) {
              await bounded(
                this.sim.trade(pair.maker.venue, pair.maker.symbol, pair.maker.takerSide, size),
              );
              this.takerTrades += 1;
            }
          } else if (roll < 0.82) {
            if (!this.frozen.has(pair.hedge.venue)) {
              await bounded(this.sim.jumpVenue(pair.hedge.venue, hedgeJump));
              this.drift.set(pair.hedge.venue, drift + hedgeJump);
            }
          } else if (!this.frozen.has(pair.maker.venue) && !this.frozen.has(pair.hedge.venue)) {
            // The maker re-prices; the hedge venue moves with it, so the spread stays where it was.
            await bounded(this.sim.jumpVenue(pair.maker.venue, pair.maker.safeJumpBps));
            await bounded(this.sim.jumpVenue(pair.hedge.venue, pair.maker.safeJumpBps));
          }
        } catch {
          this.failures += 1;
        }
        await delay(40);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

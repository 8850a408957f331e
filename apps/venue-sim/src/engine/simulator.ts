import type { AssetSpec } from '../config/assets';
import type { VenueProfile } from '../config/market-spec';
import { PriceProcess } from './price-process';
import { RANDOM_FLOW, type InformedFlow } from './trade-flow';
import { SimError, type EngineSink } from './types';
import { VenueEngine } from './venue-engine';
import type { MarketState } from './market-state';

export interface SimulatorOptions {
  seed: number;
  venues: readonly VenueProfile[];
  assets: readonly AssetSpec[];
  now: () => number;
  sink: EngineSink;
  /** Incremented on every reset so order and fill ids never repeat within a process. */
  epoch?: number;
  /** Multiplies every volatility (0 freezes prices; tests and benches may liven them). */
  volScale?: number;
  /** The share of a venue's takers that know the fair price's coming move (default: none). */
  informedFlow?: (venue: string) => InformedFlow;
}

export interface JumpCommand {
  bps: number;
  /** Moves this asset's fair price on every venue ... */
  asset?: string;
  /** ... or, with `venue`, only that venue's basis (one symbol, or all its markets). */
  venue?: string;
  symbol?: string;
}

/**
 * The whole simulated world: one shared price process and the venues that
 * quote off it. `step()` advances it one tick; same seed and same inputs give
 * the same books and fills.
 */
export class Simulator {
  readonly venues = new Map<string, VenueEngine>();
  readonly prices: PriceProcess;
  readonly frozen = new Set<string>();
  steps = 0;

  constructor(readonly options: SimulatorOptions) {
    this.prices = new PriceProcess(
      options.seed,
      options.assets,
      options.venues.flatMap((venue) =>
        venue.markets.map((market) => ({
          venue: venue.id,
          symbol: market.symbol,
          asset: market.asset,
          meanBps: market.basisMeanBps,
          stdBps: venue.basisStdBps,
        })),
      ),
      options.volScale ?? 1,
    );
    for (const profile of options.venues) {
      const engine = new VenueEngine(profile, {
        seed: options.seed,
        epoch: options.epoch ?? 1,
        now: options.now,
        sink: options.sink,
        initialMid: (spec) =>
          this.prices.mid(profile.id, spec.symbol, spec.asset, spec.priceMultiplier),
        informedFlow: () => options.informedFlow?.(profile.id) ?? RANDOM_FLOW,
        fairMoveAhead: (asset, steps) => this.prices.fairMoveAhead(asset, steps),
      });
      this.venues.set(profile.id, engine);
      engine.requote((market) => this.midOf(profile.id, market));
    }
  }

  venue(id: string): VenueEngine {
    const venue = this.venues.get(id);
    if (!venue) {
      throw new SimError('unknown_market', `unknown venue ${id}`);
    }
    return venue;
  }

  step(count = 1): void {
    for (let i = 0; i < count; i += 1) {
      this.steps += 1;
      this.prices.step();
      for (const [id, venue] of this.venues) {
        // A frozen venue's book stands still while the world moves on.
        if (!this.frozen.has(id)) {
          venue.tick((market) => this.midOf(id, market));
        }
      }
    }
  }

  jump(command: JumpCommand): void {
    if (command.venue) {
      const venue = this.venue(command.venue);
      const symbols = command.symbol
        ? [venue.market(command.symbol).spec.symbol]
        : [...venue.markets.keys()];
      for (const symbol of symbols) {
        this.prices.jumpBasis(venue.id, symbol, command.bps);
      }
    } else if (command.asset && this.options.assets.some((spec) => spec.asset === command.asset)) {
      this.prices.jumpAsset(command.asset, command.bps);
    } else {
      throw new SimError('unknown_market', 'a jump needs a known asset or a venue');
    }
    for (const [id, venue] of this.venues) {
      if (!this.frozen.has(id)) {
        venue.requote((market) => this.midOf(id, market));
      }
    }
  }

  private midOf(venueId: string, market: MarketState): number {
    return this.prices.mid(
      venueId,
      market.spec.symbol,
      market.spec.asset,
      market.spec.priceMultiplier,
    );
  }
}

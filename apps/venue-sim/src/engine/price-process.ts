import type { AssetSpec } from '../config/assets';
import { Rng } from './rng';

/** Simulated time one step stands for, whatever the real tick interval. */
export const NOMINAL_STEP_MS = 100;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Mean reversion of a basis per step: a dislocation halves in about 7 s of simulated time. */
const BASIS_REVERSION = 0.01;

export interface BasisSpec {
  venue: string;
  symbol: string;
  asset: string;
  meanBps: number;
  stdBps: number;
}

interface BasisState extends BasisSpec {
  bps: number;
  rng: Rng;
  sigma: number;
}

/**
 * One fair price per asset (a log-normal random walk) shared by every venue,
 * and one mean-reverting basis per venue market (Ornstein-Uhlenbeck, in bps):
 * a venue's mid is fair x (1 + basis), so cross-venue spreads widen and
 * narrow around each pair's mean. Floats are fine here: prices are rounded to
 * whole ticks before they reach a book.
 */
export class PriceProcess {
  private readonly fair = new Map<string, { price: number; sigma: number; rng: Rng }>();
  private readonly bases = new Map<string, BasisState>();

  constructor(
    seed: number,
    assets: readonly AssetSpec[],
    bases: readonly BasisSpec[],
    volScale = 1,
  ) {
    const stepFraction = Math.sqrt(NOMINAL_STEP_MS / YEAR_MS);
    for (const asset of assets) {
      this.fair.set(asset.asset, {
        price: asset.initialPrice,
        sigma: asset.annualVol * stepFraction * volScale,
        rng: Rng.derive(seed, `fair:${asset.asset}`),
      });
    }
    for (const basis of bases) {
      const rng = Rng.derive(seed, `basis:${basis.venue}:${basis.symbol}`);
      const sigma = basis.stdBps * Math.sqrt(2 * BASIS_REVERSION - BASIS_REVERSION ** 2) * volScale;
      // Start each basis somewhere in its stationary range so venues differ from the first tick.
      const bps = basis.meanBps + basis.stdBps * rng.normal();
      this.bases.set(key(basis.venue, basis.symbol), { ...basis, bps, rng, sigma });
    }
  }

  step(): void {
    for (const state of this.fair.values()) {
      state.price *= Math.exp(state.sigma * state.rng.normal() - state.sigma ** 2 / 2);
    }
    for (const state of this.bases.values()) {
      state.bps += BASIS_REVERSION * (state.meanBps - state.bps) + state.sigma * state.rng.normal();
    }
  }

  fairPrice(asset: string): number {
    const state = this.fair.get(asset);
    if (!state) {
      throw new Error(`unknown asset ${asset}`);
    }
    return state.price;
  }

  basisBps(venue: string, symbol: string): number {
    return this.bases.get(key(venue, symbol))?.bps ?? 0;
  }

  /** Mid of one venue market for one contract unit (`multiplier` base units). */
  mid(venue: string, symbol: string, asset: string, multiplier: number): number {
    return this.fairPrice(asset) * (1 + this.basisBps(venue, symbol) / 10_000) * multiplier;
  }

  /** Moves an asset's fair price on every venue at once. */
  jumpAsset(asset: string, bps: number): void {
    const state = this.fair.get(asset);
    if (!state) {
      throw new Error(`unknown asset ${asset}`);
    }
    state.price *= 1 + bps / 10_000;
  }

  /** Moves one venue market's basis; it then reverts toward its mean. */
  jumpBasis(venue: string, symbol: string, bps: number): void {
    const state = this.bases.get(key(venue, symbol));
    if (!state) {
      throw new Error(`unknown market ${venue}:${symbol}`);
    }
    state.bps += bps;
  }
}

const key = (venue: string, symbol: string): string => `${venue}|${symbol}`;

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

interface FairState {
  price: number;
  sigma: number;
  rng: Rng;
  /**
   * Shocks of the coming steps, drawn ahead of time from the asset's own
   * stream when an informed taker looks ahead: the same numbers the steps
   * would have drawn, so looking ahead never changes the path.
   */
  ahead: number[];
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
  private readonly fair = new Map<string, FairState>();
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
        ahead: [],
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
      state.price *= Math.exp(logReturn(state, state.ahead.shift() ?? state.rng.normal()));
    }
    for (const state of this.bases.values()) {
      state.bps += BASIS_REVERSION * (state.meanBps - state.bps) + state.sigma * state.rng.normal();
    }
  }

  fairPrice(asset: string): number {
    return this.fairState(asset).price;
  }

  /**
   * The fair price's coming move over the next `steps` steps, as a log
   * return: what an informed taker knows. The path is committed as it is
   * read, so the steps then take exactly this move (price jumps from
   * /control aside, which nobody foresees).
   */
  fairMoveAhead(asset: string, steps: number): number {
    const state = this.fairState(asset);
    while (state.ahead.length < steps) {
      state.ahead.push(state.rng.normal());
    }
    let move = 0;
    for (let i = 0; i < steps; i += 1) {
      move += logReturn(state, state.ahead[i]);
    }
    return move;
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
    this.fairState(asset).price *= 1 + bps / 10_000;
  }

  /** Moves one venue market's basis; it then reverts toward its mean. */
  jumpBasis(venue: string, symbol: string, bps: number): void {
    const state = this.bases.get(key(venue, symbol));
    if (!state) {
      throw new Error(`unknown market ${venue}:${symbol}`);
    }
    state.bps += bps;
  }

  private fairState(asset: string): FairState {
    const state = this.fair.get(asset);
    if (!state) {
      throw new Error(`unknown asset ${asset}`);
    }
    return state;
  }
}

/** One step of the log-normal walk for a standard normal shock (drift keeps the mean price). */
const logReturn = (state: FairState, shock: number): number =>
  state.sigma * shock - state.sigma ** 2 / 2;

const key = (venue: string, symbol: string): string => `${venue}|${symbol}`;

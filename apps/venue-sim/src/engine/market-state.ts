import Big from 'big.js';
import type { MarketSpec } from '../config/market-spec';
import { OrderBook, type RestingOrder, type Side } from './order-book';
import { Rng } from './rng';
import { Units } from './units';

/** Target house size per price level, per side. */
export interface Ladder {
  buy: Map<number, number>;
  sell: Map<number, number>;
}

/** Everything the venue keeps for one market. */
export class MarketState {
  readonly book = new OrderBook();
  readonly price: Units;
  readonly lot: Units;
  readonly minLots: number;
  readonly minNotional?: Big;
  readonly levelStepTicks: number;
  /** The house's resting order at each price it quotes. */
  readonly house: Record<Side, Map<number, RestingOrder>> = { buy: new Map(), sell: new Map() };
  ladder: Ladder = { buy: new Map(), sell: new Map() };
  readonly houseRng: Rng;
  readonly flowRng: Rng;
  /** Which takers are informed (drawn only while a venue has informed takers). */
  readonly informedRng: Rng;
  /** Current mid of one contract unit (float; only for the simulation itself). */
  mid: number;
  volume24hUsd: number;
  openInterestUsd: number;
  private participantSeq = 0;

  constructor(
    readonly venue: string,
    readonly spec: MarketSpec,
    seed: number,
    initialMid: number,
  ) {
    this.price = new Units(spec.tickSize);
    this.lot = new Units(spec.lotSize);
    const minLots = this.lot.toSteps(spec.minSize);
    if (minLots === null) {
      throw new Error(`${venue} ${spec.symbol}: min size is not a multiple of the lot`);
    }
    this.minLots = minLots;
    this.minNotional = spec.minNotional ? new Big(spec.minNotional) : undefined;
    this.mid = initialMid;
    const tickValue = this.price.toFloat(1);
    this.levelStepTicks = Math.max(
      1,
      Math.round((spec.levelStepBps * initialMid) / 10_000 / tickValue),
    );
    this.houseRng = Rng.derive(seed, `house:${venue}:${spec.symbol}`);
    this.flowRng = Rng.derive(seed, `flow:${venue}:${spec.symbol}`);
    this.informedRng = Rng.derive(seed, `informed:${venue}:${spec.symbol}`);
    const statsRng = Rng.derive(seed, `stats:${venue}:${spec.symbol}`);
    this.volume24hUsd = Math.round(spec.volume24hUsd * (0.9 + 0.2 * statsRng.next()));
    this.openInterestUsd = Math.round(spec.openInterestUsd * (0.9 + 0.2 * statsRng.next()));
  }

  /** Ids of the simulator's own orders (house quotes, trade flow). */
  nextParticipantOrderId(prefix: string): string {
    this.participantSeq += 1;
    return `${prefix}-${this.spec.symbol}-${this.participantSeq}`;
  }

  markPrice(): Big {
    // Mark = mid rounded to the tick, so PnL and margin stay on exact decimals.
    return this.price.toBig(Math.max(1, Math.round(this.mid / this.price.toFloat(1))));
  }
}

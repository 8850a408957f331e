import Big from 'big.js';
import {
  type BookTouch,
  compare,
  hedgeReferenceFrom,
  isCrossedOrLocked,
  type LegRules,
  type MakerLeg,
  REDUCE_ONLY_MINIMUM,
  signOf,
  type TradeMarket,
  type VenueId,
} from '@sts/domain';
import type { BookUpdate, VenueMarket } from '@sts/venues';

/** One leg's market on its venue: the venue symbol orders go to, and its rules. */
export interface LegMarket {
  venue: VenueId;
  symbol: string;
  rules: LegRules;
  maxLeverage?: number;
  /** The market's quote (settlement) asset: what its fees are paid in. */
  quote?: string;
  /**
   * The asset the venue margins the market in: the only balance its margin
   * comes from (always set from the venue's market; a leg without one has no margin).
   */
  marginAsset?: string;
}

export const legMarketOf = (venue: VenueId, market: VenueMarket): LegMarket => ({
  venue,
  symbol: market.entry.symbol,
  rules: {
    tickSize: new Big(market.entry.tick_size),
    lotSize: new Big(market.entry.lot_size),
    minSize: new Big(market.entry.min_size),
    ...(market.entry.min_notional !== undefined
      ? { minNotional: new Big(market.entry.min_notional) }
      : {}),
    reduceOnlyMinimum: REDUCE_ONLY_MINIMUM[venue],
  },
  maxLeverage: market.entry.max_leverage,
  quote: market.quote,
  marginAsset: market.marginAsset,
});

interface SideState {
  bid?: string;
  ask?: string;
  touch: BookTouch | null;
  fresh: boolean;
}

/**
 * What the trade sees of both books: the maker venue's touch and the hedge
 * reference H. Prices are parsed only when the touch changes, so the deeper
 * levels moving costs nothing. A book is stale while its feed is down: no
 * quote is made on it, but the last H still prices a hedge (a fresher one
 * comes with the retry).
 */
export class MarketView {
  private readonly maker: SideState = { touch: null, fresh: false };
  private readonly hedge: SideState = { touch: null, fresh: false };
  private hedgeReferenceValue: Big | null = null;
  private tradeMarketValue?: TradeMarket;

  constructor(
    readonly makerLeg: MakerLeg,
    readonly makerMarket: LegMarket,
    readonly hedgeMarket: LegMarket,
  ) {}

  /** Both legs' rules by side (fixed for the trade's life). */
  get tradeMarket(): TradeMarket {
    this.tradeMarketValue ??=
      this.makerLeg === 'long'
        ? { long: this.makerMarket.rules, short: this.hedgeMarket.rules }
        : { long: this.hedgeMarket.rules, short: this.makerMarket.rules };
    return this.tradeMarketValue;
  }

  /** True when the maker touch changed (or the book was stale until now). */
  applyMakerBook(update: BookUpdate): boolean {
    return applyTouch(this.maker, update);
  }

  /** True when H changed (or the hedge book was stale until now). */
  applyHedgeBook(update: BookUpdate): boolean {
    const wasFresh = this.hedge.fresh;
    if (!applyTouch(this.hedge, update)) {
      return false;
    }
    const reference = this.hedge.touch ? hedgeReferenceFrom(this.makerLeg, this.hedge.touch) : null;
    const changed =
      !wasFresh ||
      reference === null ||
      this.hedgeReferenceValue === null ||
      compare(reference, this.hedgeReferenceValue) !== 0;
    if (reference !== null) {
      this.hedgeReferenceValue = reference;
    }
    return changed;
  }

  markMakerStale(): void {
    this.maker.fresh = false;
  }

  markHedgeStale(): void {
    this.hedge.fresh = false;
  }

  /** The last known H, fresh or not; null before the first hedge book. */
  hedgeReference(): Big | null {
    return this.hedgeReferenceValue;
  }

  /** Inputs of a quote, or null when a book is stale, missing, crossed or locked. */
  quoteInputs(): { makerTouch: BookTouch; hedgeReference: Big } | null {
    const { touch } = this.maker;
    if (
      !this.maker.fresh ||
      !this.hedge.fresh ||
      touch === null ||
      this.hedgeReferenceValue === null
    ) {
      return null;
    }
    if (isCrossedOrLocked(touch) || signOf(this.hedgeReferenceValue) <= 0) {
      return null;
    }
    return { makerTouch: touch, hedgeReference: this.hedgeReferenceValue };
  }

  /** The maker venue's last touch, fresh or not; null before its first book (the residual's unwind). */
  makerTouch(): BookTouch | null {
    return this.maker.touch;
  }

  /** The maker venue's mid from a book that is fresh (null when stale or none: a markout is never guessed). */
  freshMakerMid(): Big | null {
    return this.maker.fresh ? this.makerMid() : null;
  }

  /** The maker venue's mid, for margin estimates. */
  makerMid(): Big | null {
    const touch = this.maker.touch;
    return touch ? touch.bestBid.plus(touch.bestAsk).div(2) : null;
  }
}

/** True when the touch changed, or the side was stale: either way the trade must look again. */
function applyTouch(side: SideState, update: BookUpdate): boolean {
  const wasFresh = side.fresh;
  side.fresh = true;
  const bid = update.bestBid ?? undefined;
  const ask = update.bestAsk ?? undefined;
  if (wasFresh && bid === side.bid && ask === side.ask && side.touch !== null) {
    return false;
  }
  side.bid = bid;
  side.ask = ask;
  side.touch = touchOf(update);
  return true;
}

/** One update reaches every trade on the market: its touch is parsed once (Big values are never mutated). */
const touches = new WeakMap<BookUpdate, BookTouch | null>();

function touchOf(update: BookUpdate): BookTouch | null {
  let touch = touches.get(update);
  if (touch === undefined) {
    touch =
      update.bestBid !== null && update.bestAsk !== null
        ? { bestBid: new Big(update.bestBid), bestAsk: new Big(update.bestAsk) }
        : null;
    touches.set(update, touch);
  }
  return touch;
}

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
  spreadAchieved,
  type SpreadType,
  type TradeMarket,
  unitsOf,
  type VenueId,
} from '@sts/domain';
import type { BookLevel, BookUpdate, VenueMarket } from '@sts/venues';

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
 * The orders of the trade's maker account as the public book may show them:
 * the trade's own (its `MakerOrderLedger`, requests in flight included) and
 * the account's other trades' (`AccountRestingOrders`).
 */
export interface OwnOrders {
  anyResting(): boolean;
  /** What they may have resting at a price on the maker side. */
  restingAt(price: Big): Big;
  /** Changes whenever what `anyResting` and `restingAt` answer may have changed. */
  revision(): number;
  /**
   * Sets `out` to a bound of `restingAt(price)` (level `level` of `update`'s
   * maker side, whose size is `size`) in whole units of `out.scale`, a scale
   * that holds `size` too, allocating nothing; false when it cannot tell
   * (`restingAt` decides then).
   */
  restingBound(update: BookUpdate, level: number, price: Big, size: Big, out: UnitsBound): boolean;
}

/** A bound of a size as a whole number of `10^-scale` units. */
export interface UnitsBound {
  units: number;
  scale: number;
}

const NO_ORDERS: OwnOrders = {
  anyResting: () => false,
  restingAt: () => new Big(0),
  revision: () => 0,
  restingBound: () => false,
};

/**
 * What the trade sees of both books: the maker venue's touch and the hedge
 * reference H. Prices are parsed only when the touch changes, so the deeper
 * levels moving costs nothing. A book is stale while its feed is down: no
 * quote is made on it, but the last H still prices a hedge (a fresher one
 * comes with the retry).
 *
 * The maker touch the trade quotes on is the others': when the trade's own
 * order is all there is at the best price of its side, that side's touch is
 * the next level. Joining a touch that is only itself, the quote would stay
 * where it is while everyone else steps away, and be run over. Mids (the
 * markouts, margin) are the others' too: an aggressive quote alone inside
 * the spread would otherwise pull the mid it is marked against toward itself.
 */
export class MarketView {
  private readonly maker: SideState = { touch: null, fresh: false };
  private readonly hedge: SideState = { touch: null, fresh: false };
  private hedgeReferenceValue: Big | null = null;
  private tradeMarketValue?: TradeMarket;
  private lastMakerBook: BookUpdate | null = null;
  private own: OwnOrders = NO_ORDERS;
  /** The own orders' revision `ownAny` and the level bound were worked out at. */
  private ownRevision = -1;
  private ownAny = false;
  /**
   * The best maker-side price `bestBound` is for: while the own orders stay
   * as they were (same revision), a book update that only resizes that level
   * is told from it with one comparison.
   */
  private boundPrice: string | undefined;
  private readonly bestBound: UnitsBound = { units: 0, scale: 0 };
  private readonly deeperBound: UnitsBound = { units: 0, scale: 0 };

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

  /** The coarser of the two legs' ticks (what a spread in ticks counts in). */
  get coarserTickSize(): Big {
    const maker = this.makerMarket.rules.tickSize;
    const hedge = this.hedgeMarket.rules.tickSize;
    return maker.gt(hedge) ? maker : hedge;
  }

  /**
   * The spread a maker order at the maker touch would capture against H now,
   * in `spreadType` units, or null when a book is stale, missing or crossed.
   */
  spreadAtTouch(spreadType: SpreadType): Big | null {
    const inputs = this.quoteInputs();
    if (inputs === null) {
      return null;
    }
    const { makerTouch, hedgeReference } = inputs;
    return spreadAchieved({
      makerLeg: this.makerLeg,
      makerPrice: this.makerLeg === 'long' ? makerTouch.bestBid : makerTouch.bestAsk,
      hedgePrice: hedgeReference,
      spreadType,
      coarserTickSize: this.coarserTickSize,
    });
  }

  /** The maker account's orders, read at each maker book to tell their size from the others'. */
  followOwnOrders(own: OwnOrders): void {
    this.own = own;
  }

  /** True when the maker touch changed (or the book was stale until now). */
  applyMakerBook(update: BookUpdate): boolean {
    this.lastMakerBook = update;
    const bid = update.bestBid ?? undefined;
    const ask = update.bestAsk ?? undefined;
    return this.makerLeg === 'long'
      ? applyTouch(this.maker, update, this.othersBest(update, update.bids, bid), ask)
      : applyTouch(this.maker, update, bid, this.othersBest(update, update.asks, ask));
  }

  /**
   * The best price of the maker side's levels not counting the account's own
   * orders: the first level larger than what they may have resting at its
   * price (an old order still on the book while its replacement lands
   * counts too, and the account's other trades). When every level the feed
   * keeps is the account's, the public best stands in.
   */
  private othersBest(update: BookUpdate, levels: BookLevel[], best?: string): string | undefined {
    if (best === undefined) {
      return best;
    }
    const revision = this.own.revision();
    if (revision !== this.ownRevision) {
      this.ownRevision = revision;
      this.ownAny = this.own.anyResting();
      this.boundPrice = undefined;
    }
    if (!this.ownAny) {
      return best;
    }
    const parsed = parsedLevelsOf(levels);
    for (let i = 0; i < levels.length; i += 1) {
      const price = parsed.prices[i];
      const size = parsed.sizes[i];
      if (this.surelyAboveOwn(update, levels, i, size)) {
        return levels[i].price;
      }
      const own = this.own.restingAt(price);
      if (signOf(own) === 0 || compare(size, own) > 0) {
        return levels[i].price;
      }
    }
    return best;
  }

  /**
   * Level `i`'s size surely exceeds what the account may have resting at its
   * price (`OwnOrders.restingBound`): the others have some size there. The
   * best level's bound is kept while the own orders and that price stay.
   */
  private surelyAboveOwn(update: BookUpdate, levels: BookLevel[], i: number, size: Big): boolean {
    const best = i === 0;
    const bound = best ? this.bestBound : this.deeperBound;
    if (!best || levels[0].price !== this.boundPrice) {
      const price = parsedLevelsOf(levels).prices[i];
      const known = this.own.restingBound(update, i, price, size, bound);
      if (best) {
        this.boundPrice = known ? levels[0].price : undefined;
      }
      if (!known) {
        return false;
      }
    }
    const units = unitsOf(size, bound.scale);
    return units !== null && units > bound.units;
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
    return this.lastMakerBook ? touchOf(this.lastMakerBook) : null;
  }

  /** The maker venue's mid from a book that is fresh (null when stale or none: a markout is never guessed). */
  freshMakerMid(): Big | null {
    return this.maker.fresh ? this.makerMid() : null;
  }

  /** The hedge venue's mid from a book that is fresh (null when stale or none): a hedge's arrival price. */
  freshHedgeMid(): Big | null {
    const touch = this.hedge.touch;
    return this.hedge.fresh && touch ? touch.bestBid.plus(touch.bestAsk).div(2) : null;
  }

  /** The maker venue's mid of the others' touch, for markouts and margin estimates. */
  makerMid(): Big | null {
    const touch = this.maker.touch;
    return touch ? touch.bestBid.plus(touch.bestAsk).div(2) : null;
  }
}

/**
 * True when the touch changed, or the side was stale: either way the trade
 * must look again. `bid` and `ask` are the update's own unless the trade's
 * order was left out of one of them.
 */
function applyTouch(
  side: SideState,
  update: BookUpdate,
  bid = update.bestBid ?? undefined,
  ask = update.bestAsk ?? undefined,
): boolean {
  const wasFresh = side.fresh;
  side.fresh = true;
  if (wasFresh && bid === side.bid && ask === side.ask && side.touch !== null) {
    return false;
  }
  side.bid = bid;
  side.ask = ask;
  const published = bid === (update.bestBid ?? undefined) && ask === (update.bestAsk ?? undefined);
  side.touch = published ? touchOf(update) : touchFrom(bid, ask);
  return true;
}

/** A touch made of prices other than the update's own best (Big values are never mutated). */
function touchFrom(bid?: string, ask?: string): BookTouch | null {
  return bid !== undefined && ask !== undefined
    ? { bestBid: new Big(bid), bestAsk: new Big(ask) }
    : null;
}

/** A side's levels of one update as decimals. */
interface ParsedLevels {
  prices: Big[];
  sizes: Big[];
}

/** One update reaches every trade on the market: each side's levels are parsed once. */
const parsedLevels = new WeakMap<BookLevel[], ParsedLevels>();
/** The levels parsed last: the trades one update reaches ask one after the other. */
let lastLevels: BookLevel[] | null = null;
let lastParsed: ParsedLevels | null = null;

function parsedLevelsOf(levels: BookLevel[]): ParsedLevels {
  if (levels === lastLevels && lastParsed !== null) {
    return lastParsed;
  }
  let parsed = parsedLevels.get(levels);
  if (parsed === undefined) {
    parsed = { prices: [], sizes: [] };
    for (const level of levels) {
      parsed.prices.push(new Big(level.price));
      parsed.sizes.push(new Big(level.size));
    }
    parsedLevels.set(levels, parsed);
  }
  lastLevels = levels;
  lastParsed = parsed;
  return parsed;
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

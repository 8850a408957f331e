import type Big from 'big.js';
import { type BookTouch, compare, touchQuote, touchQuoteHolds } from '@sts/domain';
import type { TradeView } from '../trade-view';

/** What quote keeping reads of its trade. */
export type QuotedTrade = Pick<TradeView, 'open' | 'terms' | 'filledSize' | 'record' | 'guard'>;
import type { RestingOrder } from './maker-orders';

/** What a quote cycle decided on: the books and the trade as they were. */
export interface QuoteBasis {
  makerTouch: BookTouch;
  hedgeReference: Big;
  amendmentVersion: number;
  filledSize: Big;
}

/**
 * The maker order the last quote cycle kept, with what it was decided on.
 * Most book moves a trade sees cannot change such a quote; recognising them
 * here spares the trade a step, which matters when one move wakes hundreds.
 */
export interface KeptQuote extends QuoteBasis {
  order: RestingOrder;
  /** The size it has left, which the cycle wanted too. */
  size: Big;
  /** A default quote the condition holds back behind the touch (below the bid for a long maker). */
  behindTouch: boolean;
  /** At the touch price, which only the maker touch decides while the condition allows it. */
  atTouch: boolean;
}

/** The books and trade a quote cycle is deciding on now, or null when it cannot quote. */
export function quoteBasis(trade: QuotedTrade): QuoteBasis | null {
  const inputs = trade.open?.legs.market.quoteInputs();
  if (!inputs) {
    return null;
  }
  return {
    makerTouch: inputs.makerTouch,
    hedgeReference: inputs.hedgeReference,
    amendmentVersion: trade.terms.amendmentVersion,
    filledSize: trade.filledSize,
  };
}

/**
 * The order a cycle settled on (kept, or placed at the price and size it
 * wanted), decided on `basis`; null when no book move could be told apart
 * from one that matters.
 */
export function keptQuote(
  trade: QuotedTrade,
  order: RestingOrder,
  size: Big,
  basis: QuoteBasis,
): KeptQuote | null {
  const market = trade.open?.legs.market;
  if (!market) {
    return null;
  }
  const mode = trade.record.quoteMode;
  const touchPrice = touchQuote(mode, {
    makerLeg: market.makerLeg,
    market: market.tradeMarket,
    makerTouch: basis.makerTouch,
  });
  if (touchPrice === null) {
    return null;
  }
  const fromTouch = compare(order.price, touchPrice);
  const behindTouch =
    mode === 'default' && (market.makerLeg === 'long' ? fromTouch < 0 : fromTouch > 0);
  const atTouch = fromTouch === 0;
  if (!behindTouch && !atTouch) {
    return null;
  }
  // Each field named: a spread of `basis` with fields added makes an object four times the
  // size, and a kept quote lives across scavenges (docs/perf/worker.md).
  return {
    makerTouch: basis.makerTouch,
    hedgeReference: basis.hedgeReference,
    amendmentVersion: basis.amendmentVersion,
    filledSize: basis.filledSize,
    order,
    size,
    behindTouch,
    atTouch,
  };
}

/** The kept order still rests as it was, on the same terms and fills. */
function unchanged(kept: KeptQuote, trade: QuotedTrade): boolean {
  return (
    trade.open?.makerOrders.resting === kept.order &&
    kept.order.fate === 'open' &&
    trade.terms.amendmentVersion === kept.amendmentVersion &&
    compare(trade.filledSize, kept.filledSize) === 0
  );
}

/**
 * Whether a move of the maker touch could change the kept quote. Not when the
 * default quote is held back behind the touch by the condition and nothing
 * else changed (same H), and the new touch still leaves that price behind it
 * on the book: the default quote is then that same price and size.
 */
export function makerTouchMatters(kept: KeptQuote, trade: QuotedTrade): boolean {
  if (!kept.behindTouch) {
    return true;
  }
  const inputs = trade.open?.legs.market.quoteInputs();
  if (!inputs || inputs.hedgeReference !== kept.hedgeReference || !unchanged(kept, trade)) {
    return true;
  }
  const price = kept.order.price;
  const { bestBid, bestAsk } = inputs.makerTouch;
  return trade.record.makerLeg === 'long'
    ? !(compare(bestBid, price) >= 0 && compare(bestAsk, price) > 0)
    : !(compare(bestAsk, price) <= 0 && compare(bestBid, price) < 0);
}

/**
 * Whether a move of H could change the kept quote. Not when it rests at the
 * touch price, the touch and everything else are as they were, quoting is not
 * held by the fast-move guard, and the price and size still meet the
 * condition, worst_spread and the venues' minimums at the new H (domain:
 * touchQuoteHolds): the quote is then that same order.
 */
export function hedgeMoveMatters(kept: KeptQuote, trade: QuotedTrade, nowMs: number): boolean {
  if (!kept.atTouch) {
    return true;
  }
  const market = trade.open?.legs.market;
  const inputs = market?.quoteInputs();
  if (
    !market ||
    !inputs ||
    inputs.makerTouch !== kept.makerTouch ||
    !unchanged(kept, trade) ||
    trade.guard.held(nowMs)
  ) {
    return true;
  }
  return !touchQuoteHolds(
    trade.record.quoteMode,
    { price: kept.order.price, size: kept.size },
    {
      makerLeg: market.makerLeg,
      market: market.tradeMarket,
      makerTouch: inputs.makerTouch,
      hedgeReference: inputs.hedgeReference,
      terms: trade.terms.spread,
      ...(trade.record.worstSpread !== undefined ? { worstSpread: trade.record.worstSpread } : {}),
    },
  );
}

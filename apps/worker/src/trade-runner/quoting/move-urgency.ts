import { RestingQuoteCheck, type RequoteUrgency } from '@sts/domain';
import type { MarketView } from '../market-view';
import type { QuotedTrade } from './kept-quote';

/**
 * How urgent a book move made the trade's re-quote, on the books as they are
 * now (`requoteUrgency` of the domain, through a `RestingQuoteCheck`
 * compiled once per amendment of the terms: a move that wakes hundreds of
 * trades costs each a few comparisons). A resting order is `at_risk` too
 * while the fast-move guard holds quoting, or while the books cannot be
 * quoted on (stale, crossed or locked): it must come down either way.
 */
export class MoveUrgency {
  private check: RestingQuoteCheck | null = null;
  private checkedVersion = -1;

  constructor(private readonly trade: QuotedTrade) {}

  of(nowMs: number): RequoteUrgency {
    const trade = this.trade;
    const market = trade.open?.legs.market;
    const resting = trade.open?.makerOrders.resting;
    if (!market || !resting) {
      return 'routine';
    }
    const inputs = market.quoteInputs();
    if (!inputs || trade.guard.held(nowMs)) {
      return 'at_risk';
    }
    return this.compiled(market).urgency(resting.price, inputs.makerTouch, inputs.hedgeReference);
  }

  private compiled(market: MarketView): RestingQuoteCheck {
    const { trade } = this;
    const version = trade.terms.amendmentVersion;
    if (this.check === null || this.checkedVersion !== version) {
      this.check = new RestingQuoteCheck(trade.record.quoteMode, {
        makerLeg: market.makerLeg,
        market: market.tradeMarket,
        terms: trade.terms.spread,
        ...(trade.record.worstSpread !== undefined
          ? { worstSpread: trade.record.worstSpread }
          : {}),
      });
      this.checkedVersion = version;
    }
    return this.check;
  }
}

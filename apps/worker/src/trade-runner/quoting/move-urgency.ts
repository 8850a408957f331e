import { requoteUrgency, type RequoteUrgency } from '@sts/domain';
import type { QuotedTrade } from './kept-quote';

/**
 * How urgent a book move made the trade's re-quote, on the books as they are
 * now (`requoteUrgency` of the domain). A resting order is `at_risk` too
 * while the fast-move guard holds quoting, or while the books cannot be
 * quoted on (stale, crossed or locked): it must come down either way.
 */
export function moveUrgency(trade: QuotedTrade, nowMs: number): RequoteUrgency {
  const market = trade.open?.legs.market;
  const resting = trade.open?.makerOrders.resting;
  if (!market || !resting) {
    return 'routine';
  }
  const inputs = market.quoteInputs();
  if (!inputs || trade.guard.held(nowMs)) {
    return 'at_risk';
  }
  return requoteUrgency(trade.record.quoteMode, resting.price, {
    makerLeg: market.makerLeg,
    market: market.tradeMarket,
    makerTouch: inputs.makerTouch,
    hedgeReference: inputs.hedgeReference,
    terms: trade.terms.spread,
    ...(trade.record.worstSpread !== undefined ? { worstSpread: trade.record.worstSpread } : {}),
  });
}

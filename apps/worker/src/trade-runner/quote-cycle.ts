import type Big from 'big.js';
import { compare, differenceEquals, requoteAction } from '@sts/domain';
import type { LoopControl } from './loop-control';
import type { MakerTakedown } from './maker-takedown';
import type { OpenTrade } from './open-trade';
import { desiredQuote } from './quoting/desired-quote';
import { keptQuote, quoteBasis, type QuoteBasis, type QuotedTrade } from './quoting/kept-quote';
import type { MakerOutcome, RestingOrder } from './quoting/maker-orders';
import type { TradeView } from './trade-view';
import type { BatchKind } from '../venue-sessions/order-batcher';

/** What a quote cycle reads and tells of its trade. */
export type QuotingTrade = QuotedTrade &
  Pick<TradeView, 'budget' | 'fillsSinceAmendment' | 'now' | 'requoteTiming' | 'reachTarget'>;

type Wanted = { price: Big; size: Big };

/**
 * One quote cycle: first whatever the maker ledger says is unsettled (a
 * lost answer, fills the venue reported that the trade has not counted),
 * then the order that should rest now versus the one that does.
 */
export async function quoteCycle(
  trade: QuotingTrade,
  open: OpenTrade,
  loop: LoopControl,
  takedown: MakerTakedown,
): Promise<void> {
  const orders = open.makerOrders;
  const obligation = orders.ledger.obligation(Date.now());
  switch (obligation.kind) {
    case 'settle':
      return obligationMet(loop, await orders.settle(obligation.order));
    case 'settle_at':
      loop.wakeIn(Math.max(1, obligation.atMs - Date.now()));
      return;
    case 'read_fills':
      return takedown.readUncountedFills();
    case 'cancel':
      return obligationMet(loop, await orders.cancel(obligation.order));
    case 'quote':
      break;
  }
  // Out of budget: decide when a request can go, on the book as it is then: once a
  // token is due, or once the account opens a batch of the request's kind, which the
  // request rides in unpaid (its first request is a cancel where an order rests).
  const budgetWait = trade.budget.maker.msUntilAvailable();
  const kind: BatchKind = orders.resting ? 'cancel' : 'place';
  if (budgetWait > 0 && !open.legs.makerBatchOpen(kind)) {
    trade.requoteTiming.holdForBudget();
    loop.wakeIn(Math.min(budgetWait, 60_000));
    loop.wakeWhen((signal) => open.legs.makerBatchWindow(kind, signal));
    return;
  }
  const wanted = wantedQuote(trade, open, loop);
  if (wanted === 'target_reached') {
    return;
  }
  return requote(trade, open, loop, wanted);
}

/** The order that should rest now (null: none), or the news that the target is reached. */
function wantedQuote(
  trade: QuotingTrade,
  open: OpenTrade,
  loop: LoopControl,
): Wanted | null | 'target_reached' {
  const now = trade.now();
  // No maker order while the guard holds quoting, while a hedge's fate is in doubt, or while
  // a cumulative request budget could not pay for the hedges of a resting maker.
  const desired =
    trade.guard.held(now) || open.hedger.inDoubt || quotaHeld(open, loop)
      ? ({ kind: 'none' } as const)
      : desiredQuote(open.legs.market, trade.terms, trade.filledSize, {
          quoteMode: trade.record.quoteMode,
          worstSpread: trade.record.worstSpread,
          unhedgedResidue: open.hedger.waiting,
        });
  if (desired.kind === 'too_small' && trade.fillsSinceAmendment > 0) {
    // A fill left nothing that can make one more order: the target is reached.
    trade.reachTarget();
    loop.stepAgain();
    return 'target_reached';
  }
  const holdUntil = trade.guard.holdUntil();
  if (holdUntil !== null && holdUntil > now) {
    loop.wakeIn(Math.ceil(holdUntil - now) + 1);
  }
  return desired.kind === 'order' ? desired : null;
}

/**
 * The accounts' cumulative budgets hold quoting (`QuotaGate`). Where an
 * account keeps one the cycle looks again every report period, held or not:
 * a report can tell the budget spent while nothing else wakes the trade.
 */
function quotaHeld(open: OpenTrade, loop: LoopControl): boolean {
  const recheckMs = open.quotaGate.recheckMs;
  if (recheckMs === null) {
    return false;
  }
  loop.wakeIn(recheckMs);
  return open.quotaGate.held() !== null;
}

/** Places, keeps, moves or takes down the maker order so that `wanted` rests. */
async function requote(
  trade: QuotingTrade,
  open: OpenTrade,
  loop: LoopControl,
  wanted: Wanted | null,
): Promise<void> {
  const orders = open.makerOrders;
  const basis = wanted && quoteBasis(trade);
  const resting = orders.resting;
  let action = requoteAction(resting?.price ?? null, wanted?.price ?? null);
  if (action.kind === 'keep' && resting && wanted && !restsAsWanted(resting, wanted)) {
    action = { kind: 'replace', price: wanted.price };
  }
  if (action.kind === 'none' || action.kind === 'keep') {
    trade.requoteTiming.settled();
    if (action.kind === 'keep' && resting && wanted && basis) {
      loop.keep(keptQuote(trade, resting, wanted.size, basis));
    }
    return;
  }
  if (action.kind === 'cancel' || !wanted) {
    return loop.handle(await orders.cancel());
  }
  if (action.kind === 'place') {
    const outcome = await orders.place(wanted.price, wanted.size);
    keepPlaced(trade, open, loop, outcome, wanted, basis);
    return loop.handle(outcome);
  }
  // One request where the venue amends in one; else a cancel now and a placement next step.
  const atOnce = open.legs.makerClient.replaceRequestCost === 1;
  const outcome = atOnce ? await orders.replace(wanted.price, wanted.size) : await orders.cancel();
  if (outcome.kind === 'done' && orders.resting === null) {
    loop.stepAgain();
  }
  if (atOnce) {
    keepPlaced(trade, open, loop, outcome, wanted, basis);
  }
  return loop.handle(outcome);
}

/**
 * The order this cycle placed rests as wanted: it is the kept quote, so the
 * book moves that cannot change it wake nothing (else the first one after
 * every re-quote would cost a step that only finds the order right).
 */
function keepPlaced(
  trade: QuotingTrade,
  open: OpenTrade,
  loop: LoopControl,
  outcome: MakerOutcome,
  wanted: Wanted,
  basis: QuoteBasis | null,
): void {
  const order = open.makerOrders.resting;
  if (
    outcome.kind === 'done' &&
    basis &&
    order &&
    order.fate === 'open' &&
    restsAsWanted(order, wanted)
  ) {
    loop.keep(keptQuote(trade, order, wanted.size, basis));
  }
}

/** An obligation of the ledger was met: the next step sees what it leaves (another, or a quote). */
function obligationMet(loop: LoopControl, outcome: MakerOutcome): void {
  if (outcome.kind === 'done') {
    loop.stepAgain();
  }
  loop.handle(outcome);
}

/** The order rests at the wanted price with the wanted size left. */
function restsAsWanted(order: RestingOrder, wanted: Wanted): boolean {
  return (
    compare(order.price, wanted.price) === 0 &&
    differenceEquals(order.size, order.seenFilled, wanted.size)
  );
}

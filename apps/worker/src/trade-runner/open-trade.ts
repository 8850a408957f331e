import type Big from 'big.js';
import {
  decimalsOf,
  hedgeSide,
  makerSide,
  type Side,
  type SpreadType,
  unitsOf,
  type VenueRegistry,
} from '@sts/domain';
import type { Logger } from '@sts/platform';
import type { MonotonicClock } from '../clock';
import type { LogEntry } from '@sts/contracts';
import type { TradeRecord } from '../trades/trade-record';
import { AccountLevelTotals } from './account-level-totals';
import { Hedger } from './hedging/hedger';
import { MarkoutSampler } from './markout-sampler';
import { MakerOrders } from './quoting/maker-orders';
import { QuotaGate } from './quoting/quota-gate';
import type { TradeBudget } from './trade-budget';
import type { OwnOrders } from './market-view';
import type { TradeLegs } from './trade-legs';
import type { TradeServices } from './trade-services';

/** A trade whose venues are open: its legs, its hedging and its maker orders. */
export interface OpenTrade {
  readonly legs: TradeLegs;
  readonly hedger: Hedger;
  readonly makerOrders: MakerOrders;
  /** Whether the accounts' cumulative request budgets let the trade rest a maker order. */
  readonly quotaGate: QuotaGate;
  /** The maker fills' markouts at 1, 10 and 60 s. */
  readonly markouts: MarkoutSampler;
}

/** What the hedger and the maker orders are told by, and tell, their trade. */
export interface OpenTradeHooks {
  maxSlippage(): Big;
  spreadType(): SpreadType;
  mayTouchVenue(): boolean;
  untilTrusted(): Promise<boolean>;
  /** Entries the hedger logs as its IOCs answer: TradeState.apply. */
  apply(entries: LogEntry[]): void;
  venueHalted(exchange: string): void;
  wake(): void;
  makerRequestSent(waitedForBudget: boolean): void;
}

export interface OpenTradeInputs {
  tradeId: string;
  epoch: string;
  record: TradeRecord;
  venues: VenueRegistry;
  answerTimes: TradeServices['answerTimes'];
  unboundedRequestWaitMs: number;
  budget: TradeBudget;
  clock: MonotonicClock;
  signal: AbortSignal;
  log: Logger;
}

/** Builds the parts that trade on the open legs. */
export function openTrade(
  legs: TradeLegs,
  inputs: OpenTradeInputs,
  hooks: OpenTradeHooks,
): OpenTrade {
  const { record, budget } = inputs;
  const { makerMarket, hedgeMarket } = legs.market;
  const hedger = new Hedger({
    tradeId: inputs.tradeId,
    makerLeg: record.makerLeg,
    venue: {
      client: legs.hedgeClient,
      leg: hedgeMarket,
      side: hedgeSide(record.makerLeg),
      timeoutMs: inputs.venues[record.hedgeExchange].hedgeTimeoutMs,
      unboundedRequestWaitMs: inputs.unboundedRequestWaitMs,
      answerExpectedMs: () => inputs.answerTimes.expectedMs(record.hedgeExchange),
    },
    market: legs.market,
    coarserTickSize: legs.market.coarserTickSize,
    maxSlippage: () => hooks.maxSlippage(),
    spreadType: () => hooks.spreadType(),
    bucket: budget.hedge,
    clock: inputs.clock,
    mayTouchVenue: () => hooks.mayTouchVenue(),
    untilTrusted: () => hooks.untilTrusted(),
    emit: (entries) => hooks.apply(entries),
    onVenueHalted: () => hooks.venueHalted(record.hedgeExchange),
    onDoubtChanged: () => hooks.wake(),
    logger: inputs.log,
  });
  const makerOrders = new MakerOrders({
    tradeId: inputs.tradeId,
    epoch: inputs.epoch,
    client: legs.makerClient,
    leg: makerMarket,
    side: makerSide(record.makerLeg),
    bucket: budget.maker,
    signal: inputs.signal,
    nextBatchWindow: (kind, signal) => legs.makerBatchWindow(kind, signal),
    onRequestSent: (waited) => hooks.makerRequestSent(waited),
  });
  legs.market.followOwnOrders(accountOrdersOf(legs, makerOrders, makerSide(record.makerLeg)));
  const markouts = new MarkoutSampler({
    makerSide: makerSide(record.makerLeg),
    mid: () => legs.market.freshMakerMid(),
    apply: (entries) => hooks.apply(entries),
    now: () => Date.now(),
  });
  return { legs, hedger, makerOrders, quotaGate: new QuotaGate(legs, inputs.log), markouts };
}

/**
 * The maker account's orders as the trade's book sees them: its own from its
 * ledger (requests in flight included), the account's other trades' from the
 * account's order stream (the ones its ledger knows are counted once).
 */
function accountOrdersOf(legs: TradeLegs, orders: MakerOrders, side: Side): OwnOrders {
  const { ledger } = orders;
  const symbol = legs.market.makerMarket.symbol;
  const thisTrades = (clientOrderId: string): boolean => ledger.find(clientOrderId) !== undefined;
  const accountTotals = new AccountLevelTotals(
    legs.makerAccountOrders,
    legs.makerClient,
    symbol,
    side,
  );
  const lotPlaces = decimalsOf(legs.market.makerMarket.rules.lotSize);
  return {
    anyResting: () =>
      ledger.current !== null || legs.makerAccountOrders.anyResting(symbol, side, thisTrades),
    restingAt: (price) =>
      ledger
        .restingAt(price)
        .plus(legs.makerAccountOrders.restingAt(symbol, side, price, thisTrades)),
    revision: () => ledger.revision + accountTotals.revision,
    // The trade's own ledger plus everything the account's stream shows there (its own orders
    // counted twice at most): a bound on restingAt, in whole units of one scale.
    restingBound: (update, level, price, size, out) => {
      const account = accountTotals.at(update, level, price);
      const scale = Math.max(decimalsOf(size), decimalsOf(account), lotPlaces);
      const accountUnits = unitsOf(account, scale);
      const ownUnits = ledger.restingUnitsAt(price, scale);
      if (accountUnits === null || ownUnits === null) {
        return false;
      }
      out.units = accountUnits + ownUnits;
      out.scale = scale;
      return true;
    },
  };
}

import Big from 'big.js';
import { marginAssetOf, type VenueProfile } from '../config/market-spec';
import { Account } from './accounts';
import type { DeskVenue } from './desk-venue';
import { FUNDING_AMOUNT_DP, FundingBook, type FundingPayment } from './funding-book';
import { applyLadder, targetLadder } from './house-liquidity';
import { MarketState } from './market-state';
import type { MatchResult } from './matching';
import type { Side } from './order-book';
import { OrderDesk } from './order-desk';
import { OrderRegistry } from './order-registry';
import {
  runTradeFlow,
  takeFromOrder,
  takeLiquidity,
  type FairMoveAhead,
  type InformedFlow,
} from './trade-flow';
import { SimError, type EngineSink } from './types';

export interface VenueEngineOptions {
  seed: number;
  /** Ids carry the run's epoch so they never repeat across a reset. */
  epoch: number;
  now: () => number;
  sink: EngineSink;
  initialMid: (spec: VenueProfile['markets'][number]) => number;
  /** Who the venue's takers are, read every tick (a control setting may change it). */
  informedFlow: () => InformedFlow;
  fairMoveAhead: FairMoveAhead;
}

/**
 * One simulated venue: its markets' books, the house quotes and trade flow
 * that move them, and the accounts trading on it (through `desk`). Pure and
 * synchronous: the wire layer calls it and forwards what it publishes.
 */
export class VenueEngine implements DeskVenue {
  readonly markets = new Map<string, MarketState>();
  readonly accounts = new Map<string, Account>();
  readonly registry = new OrderRegistry();
  readonly desk: OrderDesk;
  readonly funding: FundingBook;

  constructor(
    readonly profile: VenueProfile,
    private readonly options: VenueEngineOptions,
  ) {
    for (const spec of profile.markets) {
      this.markets.set(
        spec.symbol,
        new MarketState(profile.id, spec, options.seed, options.initialMid(spec)),
      );
    }
    this.desk = new OrderDesk(this, options.epoch, options.now, options.sink);
    this.funding = new FundingBook(options.epoch);
    this.settleDueFunding();
  }

  get id(): string {
    return this.profile.id;
  }

  market(symbol: string): MarketState {
    const market = this.markets.get(symbol);
    if (!market) {
      throw new SimError('unknown_market', `unknown market ${symbol}`);
    }
    return market;
  }

  account(accountId: string): Account {
    let account = this.accounts.get(accountId);
    if (!account) {
      account = new Account(accountId);
      this.accounts.set(accountId, account);
    }
    return account;
  }

  marks(): Map<string, Big> {
    return new Map(
      [...this.markets.values()].map((market) => [market.spec.symbol, market.markPrice()]),
    );
  }

  /** One step of the market: new mids, house re-quotes, then other traders' orders. */
  tick(midOf: (market: MarketState) => number): void {
    for (const market of this.markets.values()) {
      market.mid = midOf(market);
      const settle = (result: MatchResult): void => this.desk.settle(market, result);
      applyLadder(market, targetLadder(market, this.profile.levels), settle);
      runTradeFlow(
        market,
        {
          profile: this.profile,
          informed: this.options.informedFlow(),
          fairMoveAhead: this.options.fairMoveAhead,
        },
        settle,
      );
    }
    this.publishBooks();
    this.settleDueFunding();
  }

  /**
   * Settles one market's funding now (or at `timeMs`): every account holding
   * a position pays (long, rate > 0) or receives its size times the mark
   * times the rate (the market's current rate unless `rate` is given).
   */
  settleFunding(symbol: string, timeMs = this.options.now(), rate?: Big): FundingPayment[] {
    const market = this.market(symbol);
    const applied = rate ?? this.funding.rateOf(market.spec);
    const markPrice = market.markPrice();
    const settled: FundingPayment[] = [];
    for (const account of this.accounts.values()) {
      const position = account.positions.get(market.spec.symbol);
      if (!position || position.size.eq(0)) {
        continue;
      }
      const amount = position.size
        .times(markPrice)
        .times(applied)
        .neg()
        .round(FUNDING_AMOUNT_DP, Big.roundHalfEven);
      account.settleFunding(amount);
      settled.push(
        this.funding.record({
          accountId: account.id,
          symbol: market.spec.symbol,
          timeMs,
          rate: applied,
          size: position.size,
          markPrice,
          amount,
          asset: marginAssetOf(this.profile, market.spec),
        }),
      );
    }
    return settled;
  }

  /** Settles each market whose funding interval the clock has just left. */
  private settleDueFunding(): void {
    const nowMs = this.options.now();
    for (const market of this.markets.values()) {
      const dueMs = this.funding.dueSettlement(market.spec, nowMs);
      if (dueMs !== null) {
        this.settleFunding(market.spec.symbol, dueMs);
      }
    }
  }

  /** Re-quotes at once after a price jump, without random flow. */
  requote(midOf: (market: MarketState) => number): void {
    for (const market of this.markets.values()) {
      market.mid = midOf(market);
      applyLadder(market, targetLadder(market, this.profile.levels), (result) =>
        this.desk.settle(market, result),
      );
    }
    this.publishBooks();
  }

  /** A taker order from outside (control endpoint): trades through resting orders. */
  injectTrade(symbol: string, side: Side, size: string, limitPrice?: string): string {
    const market = this.market(symbol);
    const lots = market.lot.toSteps(size);
    if (lots === null) {
      throw new SimError(
        'invalid_order',
        `size ${size} is not a multiple of the lot`,
        'invalid_size',
      );
    }
    let limitTicks: number;
    if (limitPrice !== undefined) {
      const ticks = market.price.toSteps(limitPrice);
      if (ticks === null) {
        throw new SimError('invalid_order', `price ${limitPrice} is off tick`, 'invalid_tick');
      }
      limitTicks = ticks;
    } else {
      limitTicks = side === 'buy' ? Number.MAX_SAFE_INTEGER : 1;
    }
    const filled = takeLiquidity(market, side, lots, limitTicks, (result) =>
      this.desk.settle(market, result),
    );
    this.publishBooks();
    return market.lot.format(filled);
  }

  /**
   * An outside taker fills `size` of one resting order alone, wherever it is
   * in its queue (control endpoint): a spec's fill that moves nothing else.
   */
  fillOrder(symbol: string, orderId: string, size: string): string {
    const market = this.market(symbol);
    const lots = market.lot.toSteps(size);
    if (lots === null || lots <= 0) {
      throw new SimError(
        'invalid_order',
        `size ${size} is not a positive multiple of the lot`,
        'invalid_size',
      );
    }
    const filled = takeFromOrder(market, orderId, lots, (result) =>
      this.desk.settle(market, result),
    );
    if (filled === 0) {
      throw new SimError('unknown_order', `no resting order ${orderId} on ${symbol}`);
    }
    this.publishBooks();
    return market.lot.format(filled);
  }

  publishBooks(): void {
    const tsMs = this.options.now();
    for (const market of this.markets.values()) {
      const delta = market.book.drainDelta();
      if (delta) {
        this.options.sink.book(this.id, market.spec.symbol, delta, tsMs);
      }
    }
  }
}

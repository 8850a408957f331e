import Big from 'big.js';
import type { DeskVenue } from './desk-venue';
import { HOUSE } from './house-liquidity';
import type { MarketState } from './market-state';
import { matchIncoming, wouldCross, type MatchResult } from './matching';
import type { RestingOrder } from './order-book';
import { FLOW } from './trade-flow';
import {
  SimError,
  type CancelCommand,
  type EngineFill,
  type EngineOrder,
  type EngineSink,
  type PlaceCommand,
  type PlaceOutcome,
  type ReplaceOutcome,
} from './types';
import { validatePlacement } from './order-validation';

/** Book owner of an account's orders; never collides with the simulator's own participants. */
export const ownerOf = (accountId: string): string => `a:${accountId}`;
const isAccountOwner = (owner: string): boolean => owner !== HOUSE && owner !== FLOW;

/**
 * Accounts' orders on one venue: placement (post-only and IOC), cancel, and
 * the bookkeeping of every fill (order state, position, fees, events).
 */
export class OrderDesk {
  private orderSeq = 0;
  private fillSeq = 0;

  constructor(
    private readonly venue: DeskVenue,
    private readonly epoch: number,
    private readonly now: () => number,
    private readonly sink: EngineSink,
  ) {}

  /**
   * A client order id is the order's identity for the whole run: sending it
   * again with the same parameters returns the known order (`duplicate`),
   * with other parameters it is refused.
   */
  place(accountId: string, command: PlaceCommand): PlaceOutcome {
    const known = this.venue.registry.byClientOrderId(accountId, command.clientOrderId);
    if (known) {
      return this.duplicate(known, command);
    }
    const market = this.venue.market(command.symbol);
    const { priceTicks, lots } = validatePlacement(this.venue, accountId, market, command);
    if (command.type === 'post_only' && wouldCross(market.book, command.side, priceTicks)) {
      throw new SimError('post_only_would_cross', 'post-only order would cross the book');
    }
    const takeLots = command.reduceOnly
      ? Math.min(lots, this.reducibleLots(accountId, market, command))
      : lots;
    const tsMs = this.now();
    this.orderSeq += 1;
    const order: EngineOrder = {
      orderId: `o-${this.epoch}-${this.orderSeq}`,
      clientOrderId: command.clientOrderId,
      accountId,
      symbol: command.symbol,
      side: command.side,
      type: command.type,
      priceTicks,
      sizeLots: lots,
      ...(command.reduceOnly ? { reduceOnly: true as const } : {}),
      filledLots: 0,
      filledValue: new Big(0),
      status: 'open',
      createdAtMs: tsMs,
      updatedAtMs: tsMs,
    };
    this.venue.registry.add(order);
    const fills: EngineFill[] = [];
    if (command.type === 'post_only') {
      market.book.rest({
        orderId: order.orderId,
        owner: ownerOf(accountId),
        side: order.side,
        priceTicks,
        remainingLots: lots,
      });
      this.venue.registry.markOpen(order);
      this.sink.order(this.venue.id, order);
    } else {
      const result = matchIncoming(market.book, {
        owner: ownerOf(accountId),
        side: order.side,
        limitTicks: priceTicks,
        lots: takeLots,
      });
      this.settle(market, result, order, fills);
      if (order.filledLots < order.sizeLots) {
        order.status = 'canceled';
      }
      order.updatedAtMs = tsMs;
      this.sink.order(this.venue.id, order);
    }
    this.venue.publishBooks();
    return { order, fills, duplicate: false };
  }

  cancel(accountId: string, command: CancelCommand): EngineOrder {
    const order = this.find(accountId, command);
    if (order.status !== 'open' && order.status !== 'partially_filled') {
      throw new SimError(
        'order_not_open',
        `order ${order.orderId} is ${order.status}`,
        order.status,
        order,
      );
    }
    this.venue.market(order.symbol).book.cancel(order.orderId);
    this.close(order, 'canceled', this.now());
    this.venue.publishBooks();
    return order;
  }

  /**
   * Cancels the target and places `next` in the same instant (nothing can
   * trade in between). `next` keeps the target's market and side and is
   * post-only; it is placed only when the target was open and, if
   * `expectedFilledSize` is given, had filled exactly that much. A refusal of
   * `next` after the cancel is reported, not thrown: the cancel stands.
   */
  replace(
    accountId: string,
    target: CancelCommand,
    next: PlaceCommand,
    expectedFilledSize?: string,
  ): ReplaceOutcome {
    const order = this.find(accountId, target);
    if (next.symbol !== order.symbol || next.side !== order.side || next.type !== 'post_only') {
      throw new SimError(
        'invalid_order',
        'a replacement is post-only, on the market and side of the order it replaces',
      );
    }
    if (order.status !== 'open' && order.status !== 'partially_filled') {
      return { canceled: order, wasOpen: false };
    }
    this.cancel(accountId, { orderId: order.orderId });
    const filled = this.venue.market(order.symbol).lot.toBig(order.filledLots);
    if (expectedFilledSize !== undefined && !filled.eq(expectedFilledSize)) {
      return { canceled: order, wasOpen: true };
    }
    try {
      return { canceled: order, wasOpen: true, placed: this.place(accountId, next) };
    } catch (error) {
      if (error instanceof SimError) {
        return { canceled: order, wasOpen: true, placeError: error };
      }
      throw error;
    }
  }

  find(accountId: string, command: CancelCommand): EngineOrder {
    const order =
      'orderId' in command
        ? this.venue.registry.get(accountId, command.orderId)
        : this.venue.registry.byClientOrderId(accountId, command.clientOrderId);
    if (!order) {
      throw new SimError('unknown_order', 'unknown order');
    }
    return order;
  }

  /**
   * Books the result of one incoming order: fills of resting account orders
   * (maker), of the incoming account order when there is one (taker), and
   * account orders canceled by self-trade prevention.
   */
  settle(
    market: MarketState,
    result: MatchResult,
    taker?: EngineOrder,
    takerFills?: EngineFill[],
  ): void {
    const tsMs = this.now();
    for (const match of result.matches) {
      if (isAccountOwner(match.maker.owner)) {
        const maker = this.venue.registry.orderById(match.maker.orderId);
        if (maker) {
          this.fill(market, maker, match.priceTicks, match.lots, 'maker', tsMs);
        }
      }
      if (taker) {
        takerFills?.push(this.fill(market, taker, match.priceTicks, match.lots, 'taker', tsMs));
      }
    }
    for (const canceled of result.selfTradeCanceled) {
      this.closeResting(canceled, tsMs);
    }
  }

  private fill(
    market: MarketState,
    order: EngineOrder,
    priceTicks: number,
    lots: number,
    liquidity: 'maker' | 'taker',
    tsMs: number,
  ): EngineFill {
    const price = market.price.toBig(priceTicks);
    const size = market.lot.toBig(lots);
    const feeBps =
      liquidity === 'maker' ? this.venue.profile.makerFeeBps : this.venue.profile.takerFeeBps;
    const fee = price.times(size).times(feeBps).div(10_000).round(8);
    order.filledLots += lots;
    order.filledValue = order.filledValue.plus(price.times(size));
    order.updatedAtMs = tsMs;
    const fullyFilled = order.filledLots === order.sizeLots;
    this.fillSeq += 1;
    const fill: EngineFill = {
      fillId: `f-${this.epoch}-${this.fillSeq}`,
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      accountId: order.accountId,
      symbol: order.symbol,
      side: order.side,
      priceTicks,
      lots,
      liquidity,
      fee,
      orderFullyFilled: fullyFilled,
      tsMs,
    };
    this.venue.registry.recordFill(fill);
    this.venue.account(order.accountId).applyFill(order.symbol, order.side, price, size, fee);
    this.sink.fill(this.venue.id, fill);
    if (liquidity === 'maker') {
      if (fullyFilled) {
        this.close(order, 'filled', tsMs);
      } else {
        order.status = 'partially_filled';
        this.sink.order(this.venue.id, order);
      }
    } else if (fullyFilled) {
      order.status = 'filled';
    }
    return fill;
  }

  private closeResting(resting: RestingOrder, tsMs: number): void {
    const order = this.venue.registry.orderById(resting.orderId);
    if (order) {
      this.close(order, 'canceled', tsMs);
    }
  }

  private close(order: EngineOrder, status: 'filled' | 'canceled', tsMs: number): void {
    order.status = status;
    order.updatedAtMs = tsMs;
    this.venue.registry.markClosed(order);
    this.sink.order(this.venue.id, order);
  }

  /**
   * What a reduce-only order may take: the account's position on the other
   * side, in lots. None (a flat account, or a position on the order's own
   * side) refuses the order, as venues refuse a reduce-only order that would
   * open or add to a position.
   */
  private reducibleLots(accountId: string, market: MarketState, command: PlaceCommand): number {
    if (command.type !== 'ioc') {
      throw new SimError('invalid_order', 'a reduce-only order must be an IOC', 'reduce_only_ioc');
    }
    const position = this.venue.account(accountId).positions.get(command.symbol)?.size;
    const reduces =
      position !== undefined && (command.side === 'sell' ? position.gt(0) : position.lt(0));
    const lots = reduces
      ? position.abs().div(market.spec.lotSize).round(0, Big.roundDown).toNumber()
      : 0;
    if (lots <= 0) {
      throw new SimError(
        'rejected',
        `reduce-only ${command.side} would open or add to the position`,
        'reduce_only',
      );
    }
    return lots;
  }

  private duplicate(known: EngineOrder, command: PlaceCommand): PlaceOutcome {
    const market = this.venue.market(known.symbol);
    const same =
      known.symbol === command.symbol &&
      known.side === command.side &&
      known.type === command.type &&
      (known.reduceOnly ?? false) === (command.reduceOnly ?? false) &&
      market.price.toSteps(command.price) === known.priceTicks &&
      market.lot.toSteps(command.size) === known.sizeLots;
    if (!same) {
      throw new SimError(
        'duplicate_client_order_id',
        `client order id ${command.clientOrderId} is already used by order ${known.orderId}`,
        'duplicate_client_order_id',
        known,
      );
    }
    return { order: known, fills: this.venue.registry.fillsOf(known.orderId), duplicate: true };
  }
}

import Big from 'big.js';
import fc from 'fast-check';
import pino from 'pino';
import {
  OrderFateUnknownError,
  OrderRejectedError,
  UnknownOrderError,
  VenueNetworkError,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueClient,
  type VenueFill,
  type VenueOrder,
} from '@sts/venues';
import type { LogEntry } from '@sts/contracts';
import type { MarketView } from '../../src/trade-runner/market-view';
import { Hedger } from '../../src/trade-runner/hedging/hedger';
import { MIN_ANSWER_EXPECTED_MS } from '../../src/venue-sessions/venue-answer-times';
import { FATE_AFTER_TIMEOUT_MS } from '../../src/trade-runner/hedging/hedge-ioc';

/**
 * A model hedge venue for property tests on a fake clock: it fills, refuses,
 * loses answers (before or after executing the IOC), holds requests
 * (executed only within their lifetime, as a venue with order expiry does),
 * queues IOCs it took (a look-up shows them open until executed) and fails
 * look-ups, as a generated script says.
 */
export const SETTLE_MARGIN_MS = 250;
export const LOT = new Big('0.001');

export type IocFate =
  | { kind: 'fill'; permille: number }
  | { kind: 'reject' }
  | { kind: 'lost_after'; permille: number; afterMs: number }
  | { kind: 'lost_before' }
  | { kind: 'held'; permille: number; heldMs: number }
  /** The answer is lost at once; the request, still on its way, executes later if not expired. */
  | { kind: 'lost_then_late'; permille: number; heldMs: number }
  /**
   * The venue takes the IOC into its queue (a look-up shows it open, nothing
   * filled) and executes it `heldMs` later; the answer is lost at once, or
   * (`named`) the client's wait ends with the venue naming the order unclosed.
   */
  | { kind: 'queued'; permille: number; heldMs: number; named: boolean };

export interface Script {
  fates: IocFate[];
  /** Look-ups that fail with a network error before one is answered, in turn. */
  lookUpFailures: number[];
  makerFills: Array<{ atMs: number; lots: number }>;
}

const permille = fc.integer({ min: 0, max: 1000 });
const fate: fc.Arbitrary<IocFate> = fc.oneof(
  fc.record({ kind: fc.constant('fill' as const), permille }),
  fc.record({ kind: fc.constant('reject' as const) }),
  fc.record({
    kind: fc.constant('lost_after' as const),
    permille,
    afterMs: fc.integer({ min: 1, max: 2_000 }),
  }),
  fc.record({ kind: fc.constant('lost_before' as const) }),
  fc.record({
    kind: fc.constant('held' as const),
    permille,
    heldMs: fc.integer({ min: 1, max: 4_000 }),
  }),
  fc.record({
    kind: fc.constant('lost_then_late' as const),
    permille,
    heldMs: fc.integer({ min: 1, max: 4_000 }),
  }),
  // Held at most FATE_AFTER_TIMEOUT_MS: the look-up then sees it close even
  // when it was sent just before the hedge timed out. One held longer than
  // that past the timeout ends the hedge on what its fills showed then (the
  // hedge-series spec), and a later fill of it is the trade ending's to read back.
  fc.record({
    kind: fc.constant('queued' as const),
    permille,
    heldMs: fc.integer({ min: 1, max: FATE_AFTER_TIMEOUT_MS }),
    named: fc.boolean(),
  }),
);
export const script: fc.Arbitrary<Script> = fc.record({
  fates: fc.array(fate, { minLength: 1, maxLength: 30 }),
  lookUpFailures: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 10 }),
  makerFills: fc.array(
    fc.record({ atMs: fc.integer({ min: 0, max: 5_000 }), lots: fc.integer({ min: 1, max: 9 }) }),
    { minLength: 1, maxLength: 5 },
  ),
});

/** The hedge venue: IOCs by client order id, filled as the script says, with expiry. */
export class ModelHedgeVenue {
  readonly orders = new Map<string, VenueOrder>();
  private next = 0;
  private lookUps = 0;

  constructor(private readonly script: Script) {}

  get filled(): Big {
    let total = new Big(0);
    for (const order of this.orders.values()) {
      total = total.plus(order.filledSize);
    }
    return total;
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    const fate = this.script.fates[this.next % this.script.fates.length];
    this.next += 1;
    const lifetimeMs = request.lifetimeMs ?? 5_000;
    const settlesByMs = Date.now() + lifetimeMs + SETTLE_MARGIN_MS;
    const lost = (afterMs: number): Promise<OrderAck> =>
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new VenueNetworkError('model', 'answer lost', undefined, settlesByMs)),
          afterMs,
        ),
      );
    switch (fate.kind) {
      case 'fill':
        return Promise.resolve(this.execute(request, fate.permille));
      case 'reject':
        return Promise.reject(new OrderRejectedError('model', 'injected_rejection'));
      case 'lost_after':
        this.execute(request, fate.permille);
        return lost(Math.min(fate.afterMs, lifetimeMs));
      case 'lost_before':
        return lost(lifetimeMs);
      case 'lost_then_late':
        if (fate.heldMs < lifetimeMs) {
          setTimeout(() => this.execute(request, fate.permille), fate.heldMs);
        }
        return lost(1);
      case 'queued': {
        const queued = this.queue(request);
        setTimeout(() => this.execute(request, fate.permille, queued), fate.heldMs);
        return Promise.reject(
          fate.named
            ? new OrderFateUnknownError('model', queued.orderId, 'still queued', settlesByMs)
            : new VenueNetworkError('model', 'answer lost', undefined, settlesByMs),
        );
      }
      case 'held':
        if (fate.heldMs >= lifetimeMs) {
          return lost(lifetimeMs);
        }
        return new Promise((resolve) =>
          setTimeout(() => resolve(this.execute(request, fate.permille)), fate.heldMs),
        );
    }
  }

  order(target: { clientOrderId: string }): Promise<VenueOrder> {
    const failures =
      this.script.lookUpFailures[this.lookUps % (this.script.lookUpFailures.length || 1)] ?? 0;
    this.lookUps += 1;
    // Decided when asked: two look-ups in flight at once must not share one fate (they would
    // then fail together forever, a venue no hedge could ever settle with).
    const fails = failures > 0 && this.lookUps % (failures + 1) !== 0;
    return new Promise((resolve, reject) =>
      setTimeout(() => {
        if (fails) {
          reject(new VenueNetworkError('model', 'look-up lost'));
          return;
        }
        const order = this.orders.get(target.clientOrderId);
        if (order) {
          resolve(order);
        } else {
          reject(new UnknownOrderError('model'));
        }
      }, 20),
    );
  }

  /** The venue's fills of the account since a time: one per order that filled. */
  fillsSince(sinceMs: number): Promise<VenueFill[]> {
    const fills = [...this.orders.values()]
      .filter((order) => new Big(order.filledSize).gt(0) && order.updatedAtMs >= sinceMs)
      .map((order) => ({
        exchange: 'model',
        symbol: order.symbol,
        market: order.market,
        side: order.side,
        price: order.price,
        size: order.filledSize,
        orderId: order.orderId,
        clientOrderId: order.clientOrderId,
        fullyFilled: order.status === 'filled',
        timestampMs: order.updatedAtMs,
        fillId: `fill-${order.orderId}`,
        liquidity: 'taker' as const,
      }));
    return new Promise((resolve) => setTimeout(() => resolve(fills), 20));
  }

  /** An IOC the venue holds queued: open, nothing filled, until executed. */
  private queue(request: PlaceOrderRequest): VenueOrder {
    const order = this.orderOf(request, new Big(0), 'open');
    this.orders.set(request.clientOrderId, order);
    return order;
  }

  private execute(request: PlaceOrderRequest, permille: number, queued?: VenueOrder): OrderAck {
    const known = this.orders.get(request.clientOrderId);
    if (known && known !== queued) {
      return { order: known, fills: [], duplicate: true };
    }
    const size = new Big(request.size);
    const filled = size.times(permille).div(1000).div(LOT).round(0, Big.roundDown).times(LOT);
    const order = {
      ...this.orderOf(request, filled, filled.gt(0) ? 'filled' : 'canceled'),
      ...(queued ? { orderId: queued.orderId } : {}),
    };
    this.orders.set(request.clientOrderId, order);
    return { order, fills: [], duplicate: false };
  }

  private orderOf(
    request: PlaceOrderRequest,
    filled: Big,
    status: VenueOrder['status'],
  ): VenueOrder {
    return {
      exchange: 'model',
      symbol: request.symbol,
      market: 'BTC',
      orderId: `o${this.orders.size + 1}`,
      clientOrderId: request.clientOrderId,
      side: request.side,
      type: 'ioc',
      price: request.price,
      size: request.size,
      filledSize: filled.toFixed(),
      ...(filled.gt(0) ? { averagePrice: request.price } : {}),
      status,
      createdAtMs: Date.now(),
      updatedAtMs: Date.now(),
    };
  }
}

export const MODEL_HEDGE_TIMEOUT_MS = 3_000;

/** What a model hedger is told by its trade (the rest is fixed: paradex, H 100, lot 0.001). */
export interface ModelHedgerHooks {
  emit(entries: LogEntry[]): void;
  mayTouchVenue?(): boolean;
  untilTrusted?(): Promise<boolean>;
}

/** A trade's hedger on the model venue, as a worker builds it (open-trade.ts). */
export function modelHedger(venue: ModelHedgeVenue, hooks: ModelHedgerHooks): Hedger {
  return new Hedger({
    tradeId: '7f0e1b9a-0000-4000-8000-000000000001',
    makerLeg: 'long',
    venue: {
      client: venue as unknown as VenueClient,
      leg: {
        venue: 'paradex',
        symbol: 'BTC-USD-PERP',
        rules: { tickSize: new Big('0.1'), lotSize: LOT, minSize: LOT },
      },
      side: 'sell',
      timeoutMs: MODEL_HEDGE_TIMEOUT_MS,
      unboundedRequestWaitMs: 60_000,
      answerExpectedMs: () => MIN_ANSWER_EXPECTED_MS,
    },
    market: {
      hedgeReference: () => new Big(100),
      freshHedgeMid: () => new Big('100.05'),
    } as unknown as MarketView,
    coarserTickSize: new Big('0.1'),
    maxSlippage: () => new Big('0.001'),
    spreadType: () => 'absolute',
    bucket: null,
    clock: { now: () => Date.now() },
    mayTouchVenue: hooks.mayTouchVenue ?? (() => true),
    untilTrusted: hooks.untilTrusted ?? (() => Promise.resolve(true)),
    emit: (entries) => hooks.emit(entries),
    onVenueHalted: () => undefined,
    onDoubtChanged: () => undefined,
    logger: pino({ level: 'silent' }),
  });
}

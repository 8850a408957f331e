import Big from 'big.js';
import type { TokenBucket } from '@sts/budget-client';
import {
  formatDecimal,
  makerClientOrderId,
  MakerOrderLedger,
  matchClientOrderId,
  tradeTag,
  type LedgerOrder,
  type Side,
} from '@sts/domain';
import {
  UnknownOrderError,
  VenueNetworkError,
  isVenueError,
  type PlaceOrderRequest,
  type VenueClient,
  type VenueFill,
  type VenueOrder,
} from '@sts/venues';
import type { LegMarket } from '../market-view';
import { QuotingSpells } from './quoting-spells';
import { paidFrom } from '../../venue-sessions/paid-requests';
import type { BatchKind } from '../../venue-sessions/order-batcher';
import {
  isClosed,
  makerRefusal,
  makerRequestFailed,
  reportOf,
  type MakerOutcome,
} from './maker-outcomes';

/** A maker order as the trade knows it (its fate, fills seen, what the venue said). */
export type RestingOrder = LedgerOrder;

export type { MakerOutcome } from './maker-outcomes';

export interface MakerOrdersContext {
  tradeId: string;
  /** The lease epoch: quote numbers start at epoch x 1e6, so no two workers reuse a client order id. */
  epoch: string;
  client: VenueClient;
  leg: LegMarket;
  side: Side;
  bucket: TokenBucket;
  signal: AbortSignal;
  /**
   * When the maker account's next batch of a kind opens: a request whose
   * bucket is empty goes in it unpaid, paid by the batch's own weight
   * (`BatchWindows`). Absent or null: it waits for its own token.
   */
  nextBatchWindow?: (kind: BatchKind, signal: AbortSignal) => Promise<void> | null;
  /**
   * Called the moment a placement or cancel has been handed to the venue
   * client; `waitedForBudget` when it first had to wait for a token.
   */
  onRequestSent?: (waitedForBudget: boolean) => void;
}

const QUOTES_PER_EPOCH = 1_000_000;

/** Tokens a maker request paid in advance: 1, or 0 riding in a batch another request pays for. */
type Paid = 0 | 1;

/**
 * Places, replaces, cancels and looks up the trade's maker orders, one
 * request at a time, each paid for from the maker bucket (it waits when the
 * bucket is empty). What each request and each stream message says goes to
 * the ledger (`@sts/domain` MakerOrderLedger), which holds every order's
 * fate: an answer lost leaves its orders unknown until a look-up by client
 * order id settles them, and nothing is decided from them before. Times
 * given to the ledger are epoch ms (Date.now()), not the worker's monotonic
 * clock: a lost request's expiry is judged by the venue on the wall clock.
 */
export class MakerOrders {
  readonly ledger = new MakerOrderLedger();
  /** This owner's quoting as `quoting` entries (with each maker fill, at a handover, at the end). */
  readonly spells: QuotingSpells;
  private quoteCount = 0;
  private readonly tag: string;

  constructor(private readonly context: MakerOrdersContext) {
    this.tag = tradeTag(context.tradeId);
    this.spells = new QuotingSpells({ exchange: context.leg.venue, side: context.side }, () =>
      this.ledger.activity(),
    );
  }

  /** The order the quote cycle manages: the newest one not known to be closed. */
  get resting(): RestingOrder | null {
    return this.ledger.current;
  }

  /** Posts a new maker order (post-only). Only when the ledger says `quote` with no current order. */
  async place(price: Big, size: Big): Promise<MakerOutcome> {
    const paying = this.pay('place');
    const paid = paying === false ? 1 : await paying;
    const clientOrderId = this.nextClientOrderId();
    this.ledger.placing(clientOrderId, price, size);
    try {
      const placing = this.send(
        () => this.context.client.placePostOnly(this.placement(clientOrderId, price, size)),
        paid,
      );
      const waited = paying !== false;
      this.context.onRequestSent?.(waited);
      const ack = await placing;
      this.ledger.report(clientOrderId, reportOf(ack.order));
      return { kind: 'done' };
    } catch (error) {
      return this.failed([clientOrderId], error);
    }
  }

  /** Takes an order off the book (by default the current one). */
  async cancel(order: RestingOrder | null = this.resting): Promise<MakerOutcome> {
    if (!order) {
      return { kind: 'done' };
    }
    const paying = this.pay('cancel');
    const paid = paying === false ? 1 : await paying;
    if (order.fate !== 'open') {
      this.unused(paid);
      return { kind: 'done' };
    }
    const { clientOrderId } = order;
    this.ledger.cancelling(clientOrderId);
    try {
      const canceling = this.send(
        () => this.context.client.cancel({ clientOrderId, symbol: this.context.leg.symbol }),
        paid,
      );
      const waited = paying !== false;
      this.context.onRequestSent?.(waited);
      const result = await canceling;
      this.closedBy(clientOrderId, result.order);
      return { kind: 'done' };
    } catch (error) {
      return this.failed([clientOrderId], error);
    }
  }

  /**
   * Moves the current order to `price` and `size` in one venue request: the
   * venue cancels it and places the new one only if it had filled exactly
   * what this trade has seen, so an unseen fill is never quoted over.
   */
  async replace(price: Big, size: Big): Promise<MakerOutcome> {
    const previous = this.resting;
    if (!previous || previous.fate !== 'open') {
      return this.cancel();
    }
    // A replace's first request is its cancel: it rides in a cancel batch.
    const paying = this.pay('cancel');
    const paid = paying === false ? 1 : await paying;
    if (this.resting !== previous || previous.fate !== 'open') {
      this.unused(paid);
      return { kind: 'done' };
    }
    const clientOrderId = this.nextClientOrderId();
    this.ledger.placing(clientOrderId, price, size, previous.clientOrderId);
    try {
      const replacing = this.send(
        () =>
          this.context.client.replace({
            target: { clientOrderId: previous.clientOrderId, symbol: this.context.leg.symbol },
            next: this.placement(clientOrderId, price, size),
            expectedFilledSize: formatDecimal(previous.seenFilled),
          }),
        paid,
      );
      const waited = paying !== false;
      this.context.onRequestSent?.(waited);
      const result = await replacing;
      const canceled = result.canceled.order;
      this.ledger.replaced(
        previous.clientOrderId,
        reportOf(canceled ?? { status: 'canceled', filledSize: '0' }),
        clientOrderId,
        result.placed ? reportOf(result.placed.order) : null,
      );
      if (!canceled) {
        this.closedBy(previous.clientOrderId, undefined);
      }
      if (!result.placed && result.placeError) {
        return makerRefusal(this.context.leg.venue, result.placeError);
      }
      return { kind: 'done' };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        // The venue does not know the order it was asked to replace: neither rests.
        this.ledger.refused(clientOrderId);
        this.ledger.notFound(previous.clientOrderId, Date.now());
        return { kind: 'done' };
      }
      return this.failed([previous.clientOrderId, clientOrderId], error);
    }
  }

  /** An order whose answer was lost: ask the venue for it by its client order id. */
  async settle(order: RestingOrder): Promise<MakerOutcome> {
    const paying = this.pay(null);
    if (paying !== false) {
      await paying;
    }
    try {
      const found = await this.send(() =>
        this.context.client.order({
          clientOrderId: order.clientOrderId,
          symbol: this.context.leg.symbol,
        }),
      );
      this.ledger.report(order.clientOrderId, reportOf(found));
      return { kind: 'done' };
    } catch (error) {
      if (error instanceof UnknownOrderError) {
        // Proves nothing until the request can no longer arrive (the ledger says when).
        this.ledger.notFound(order.clientOrderId, Date.now());
        return { kind: 'done' };
      }
      return makerRequestFailed(this.context.leg.venue, error);
    }
  }

  /**
   * The venue closed an order (canceled, or no longer open). Without the
   * venue's copy of it (some venues answer a cancel with none) what it filled
   * is not known: it is looked up before anything is decided.
   */
  private closedBy(clientOrderId: string, order: VenueOrder | undefined): void {
    if (order) {
      this.ledger.report(clientOrderId, { ...reportOf(order), closed: true });
      return;
    }
    const now = Date.now();
    this.ledger.answerLost([clientOrderId], now, now);
  }

  /** A maker fill of this trade (stream, read-back or reconciliation). */
  onFill(fill: VenueFill): void {
    this.ledger.fill(fill.clientOrderId, new Big(fill.size));
  }

  /** An order update of this trade: a closed order rests no more (filled, canceled by the venue). */
  onOrder(order: VenueOrder): void {
    if (isClosed(order)) {
      this.ledger.report(order.clientOrderId, reportOf(order));
    }
  }

  /** Is this venue order one of this trade's maker orders? */
  isMakerOrder(venueClientOrderId: string): boolean {
    return matchClientOrderId(venueClientOrderId, this.context.tradeId)?.kind === 'maker';
  }

  /**
   * Is this venue order a maker order of the trade placed under an earlier
   * lease (a dead worker's, landing late)? Its quote number is below this
   * lease's; an id the venue keeps only in part (Lighter) was not placed by
   * this process, whose client maps its own back whole.
   */
  placedByEarlierOwner(venueClientOrderId: string): boolean {
    const parsed = matchClientOrderId(venueClientOrderId, this.context.tradeId);
    if (parsed?.kind !== 'maker') {
      return false;
    }
    return 'partial' in parsed || parsed.quoteNumber < this.firstQuoteNumber;
  }

  private get firstQuoteNumber(): number {
    return Number(this.context.epoch) * QUOTES_PER_EPOCH;
  }

  /**
   * Takes a token: at once when the bucket has one (false, and nothing is
   * awaited, so the request goes out in the same turn as the decision to send
   * it), else a promise of what was paid: 1 once the bucket let it through,
   * or 0 when a batch of `kind` opened first on the account, in which the
   * request rides unpaid (the batch pays its own weight).
   */
  private pay(kind: BatchKind | null): false | Promise<Paid> {
    const { bucket, signal, nextBatchWindow } = this.context;
    if (bucket.take()) {
      return false;
    }
    if (!kind || !nextBatchWindow || signal.aborted) {
      return bucket.waitFor(1, signal).then(() => 1 as const);
    }
    return this.tokenOrRide(kind, nextBatchWindow);
  }

  /**
   * The first of the trade's own token (1) and the account's next batch of
   * `kind` (0: a ride); the other wait is dropped, and a token taken as the
   * batch opened goes back.
   */
  private tokenOrRide(
    kind: BatchKind,
    nextBatchWindow: NonNullable<MakerOrdersContext['nextBatchWindow']>,
  ): Promise<Paid> {
    const { bucket, signal } = this.context;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      signal.removeEventListener('abort', onAbort);
      stop.abort();
    };
    const window = nextBatchWindow(kind, stop.signal);
    if (!window) {
      done();
      return bucket.waitFor(1, signal).then(() => 1 as const);
    }
    let rode = false;
    const token = bucket.waitFor(1, stop.signal).then(() => {
      if (rode) {
        bucket.refund(1);
      }
      return 1 as const;
    });
    const ride = window.then(() => {
      rode = true;
      return 0 as const;
    });
    token.catch(() => undefined);
    ride.catch(() => undefined);
    return Promise.race([token, ride]).finally(done);
  }

  /** A token taken for a request the trade then did not send goes back. */
  private unused(paid: Paid): void {
    if (paid === 1) {
      this.context.bucket.refund(1);
    }
  }

  /**
   * A request paid `paid` tokens in advance (0: it rides in a batch another
   * request pays for): any further request the client sends for it waits for its own.
   */
  private send<T>(call: () => Promise<T>, paid: Paid = 1): Promise<T> {
    return paidFrom(this.context.bucket, paid, this.context.client, call);
  }

  /** The next client order id of this lease. */
  private nextClientOrderId(): string {
    const quoteNumber = this.firstQuoteNumber + this.quoteCount;
    this.quoteCount += 1;
    return makerClientOrderId(this.tag, quoteNumber);
  }

  private placement(clientOrderId: string, price: Big, size: Big): PlaceOrderRequest {
    return {
      symbol: this.context.leg.symbol,
      side: this.context.side,
      price: formatDecimal(price),
      size: formatDecimal(size),
      clientOrderId,
    };
  }

  /**
   * A request failed. Refused as a whole (the venue answered no): the orders
   * are as they were. No answer: each is unknown until a look-up settles it.
   */
  private failed(clientOrderIds: readonly string[], error: unknown): MakerOutcome {
    const [first, newest] = [clientOrderIds[0], clientOrderIds[clientOrderIds.length - 1]];
    if (error instanceof UnknownOrderError) {
      // A cancel of an order the venue does not know: it rests nowhere.
      this.ledger.notFound(first, Date.now());
      return { kind: 'done' };
    }
    if (isVenueError(error) && error.code !== 'network') {
      this.ledger.refused(newest);
      return makerRefusal(this.context.leg.venue, error);
    }
    const settlesByMs = error instanceof VenueNetworkError ? error.settlesByMs : undefined;
    this.ledger.answerLost(clientOrderIds, Date.now(), settlesByMs);
    return { kind: 'wait', ms: 0 };
  }
}

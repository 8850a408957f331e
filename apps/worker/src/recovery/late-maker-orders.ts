import type { TokenBucket } from '@sts/budget-client';
import { sleep, type Logger } from '@sts/platform';
import { isResting, UnknownOrderError, type VenueClient, type VenueOrder } from '@sts/venues';
import type { MakerOrders } from '../trade-runner/quoting/maker-orders';
import { paidAtOnce } from '../venue-sessions/paid-requests';

/** How often the maker account's open orders are read while a takeover watches for late orders. */
export const LATE_ORDER_SCAN_MS = 5_000;

/**
 * How often once the trade runs again: the account stream tells of a late
 * order first; this read is the backstop, and a venue may weigh it heavily
 * (Lighter's active orders: 300 of an address's 24,000 a minute).
 */
export const LATE_ORDER_BACKGROUND_SCAN_MS = 30_000;

export interface LateMakerOrdersDeps {
  client: VenueClient;
  bucket: TokenBucket | null;
  symbol: string;
  makerOrders: Pick<MakerOrders, 'placedByEarlierOwner'>;
  signal: AbortSignal;
  log: Logger;
  /** Told of each late order cancelled (metrics). */
  onCanceled(): void;
}

/**
 * A dead worker's maker placements that may still land on the maker venue
 * after a takeover (their request outlives the worker). Until the venue's
 * bound for them has passed, the trade's new owner cancels every one it
 * sees: on the account stream's first word of it (`onOrder`) and in a read
 * of the open orders every few seconds (`scan`), for a stream that says
 * nothing of an order it has not acted on yet. What one filled before its
 * cancel reaches the trade as any maker fill does (the feed routes the
 * trade's fills whatever lease placed the order) and is hedged there.
 */
export class LateMakerOrders {
  private canceledCount = 0;
  private readonly canceling = new Set<string>();
  private untilMs = 0;

  constructor(private readonly deps: LateMakerOrdersDeps) {}

  /** How many late orders were canceled (counted in recovery_completed while it runs). */
  get canceled(): number {
    return this.canceledCount;
  }

  /** Late orders are cancelled on sight until `untilMs` (epoch ms), whether or not `watchUntil` runs. */
  guardUntil(untilMs: number): void {
    this.untilMs = Math.max(this.untilMs, untilMs);
  }

  /** Whether orders are still watched for. */
  private get watching(): boolean {
    return Date.now() < this.untilMs && !this.deps.signal.aborted;
  }

  /** An order update of the trade: a resting one of an earlier lease is canceled now. */
  onOrder(order: VenueOrder): void {
    if (this.watching && this.isLate(order)) {
      void this.cancel(order);
    }
  }

  /** Reads the open orders once and cancels the late ones. */
  private async scan(): Promise<void> {
    const { client, bucket, symbol } = this.deps;
    const open = await paidAtOnce(bucket, client, () => client.openOrders(symbol));
    await Promise.all(
      open.filter((order) => this.isLate(order)).map((order) => this.cancel(order)),
    );
  }

  /**
   * Watches until `untilMs` (epoch ms): a scan every `everyMs` and the
   * stream's updates meanwhile, then a last scan once the bound is past.
   */
  async watchUntil(untilMs: number, everyMs = LATE_ORDER_SCAN_MS): Promise<void> {
    this.guardUntil(untilMs);
    const { signal, log } = this.deps;
    while (!signal.aborted) {
      const leftMs = untilMs - Date.now();
      await sleep(Math.max(0, Math.min(everyMs, leftMs)));
      if (signal.aborted) {
        return;
      }
      try {
        await this.scan();
      } catch (error) {
        log.warn({ err: error }, 'late maker orders: open orders unread; reading again');
        continue;
      }
      if (Date.now() >= untilMs) {
        return;
      }
    }
  }

  private isLate(order: VenueOrder): boolean {
    return isResting(order) && this.deps.makerOrders.placedByEarlierOwner(order.clientOrderId);
  }

  private async cancel(order: VenueOrder): Promise<void> {
    const { client, bucket, symbol, log } = this.deps;
    if (this.canceling.has(order.clientOrderId)) {
      return;
    }
    this.canceling.add(order.clientOrderId);
    try {
      const result = await paidAtOnce(bucket, client, () =>
        client.cancel(
          order.orderId
            ? { orderId: order.orderId, symbol }
            : { clientOrderId: order.clientOrderId, symbol },
        ),
      );
      if (result.outcome !== 'canceled') {
        return;
      }
      this.canceledCount += 1;
      this.deps.onCanceled();
      log.warn(
        { client_order_id: order.clientOrderId, order_id: order.orderId },
        "a dead worker's maker order landed late: canceled",
      );
    } catch (error) {
      if (!(error instanceof UnknownOrderError)) {
        log.warn(
          { err: error, client_order_id: order.clientOrderId },
          'late maker order cancel failed',
        );
      }
    } finally {
      this.canceling.delete(order.clientOrderId);
    }
  }
}

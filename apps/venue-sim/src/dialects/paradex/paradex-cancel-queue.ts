import type { VenueEngine } from '../../engine/venue-engine';

/** One cancel the venue has answered 204 for and not yet acted on. */
interface QueuedCancel {
  account: string;
  orderId: string;
}

/**
 * Paradex's cancels are queued: `DELETE /orders/{id}` "Queues a cancellation
 * ... Returns a 204 No Content status code with no response body which means
 * the order has been queued for cancellation. Confirmation of cancellation
 * will be sent via websocket or can be retried from GET /orders/:id"
 * (https://docs.paradex.trade/api/prod/orders/cancel). So the order is still
 * on the book after the 204, and a fill can land before it closes.
 *
 * The queue is acted on, in the order the cancels came, before the venue
 * serves the next private request (so a look-up after the 204 sees the
 * order closed, as the venue's confirmation promises), and soon after any
 * book change (the world moving, another trader's trade): with the clock in
 * manual time nothing else closes the order, so a test can trade against it
 * between the 204 and the close.
 */
export class ParadexCancelQueue {
  private readonly queued: QueuedCancel[] = [];
  private scheduled = false;

  constructor(
    private readonly venue: () => VenueEngine,
    private readonly frozen: () => boolean,
    /** Closes the order now, if it is still open (it may have filled meanwhile). */
    private readonly cancelNow: (venue: VenueEngine, account: string, orderId: string) => void,
  ) {}

  /** Queues a cancel (a second one of the same order changes nothing). */
  add(account: string, orderId: string): void {
    if (!this.queued.some((item) => item.orderId === orderId && item.account === account)) {
      this.queued.push({ account, orderId });
    }
  }

  /** Acts on every queued cancel now (called in a request's engine step). */
  settle(venue: VenueEngine): void {
    while (this.queued.length > 0) {
      const { account, orderId } = this.queued.shift()!;
      this.cancelNow(venue, account, orderId);
    }
  }

  /** After a book change: acts on the queue once the engine's current step is over. */
  soon(): void {
    if (this.queued.length === 0 || this.scheduled) {
      return;
    }
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // A frozen venue's engine stands still: the queue waits for the thaw's next request.
      if (!this.frozen()) {
        this.settle(this.venue());
      }
    });
  }
}

import Big from 'big.js';

interface TrackedOrder {
  clientOrderId: string;
  amount?: string;
  filled: Big;
}

const FILL_MEMORY = 50_000;
const REPORTED_MEMORY = 10_000;

/**
 * What the live client remembers about its own orders: our client order id
 * behind the venue's encoded one, each order's size and how much of it has
 * filled (ccxt trades do not say whether they completed the order), and the
 * fill ids already delivered (ccxt may hand a trade over twice).
 */
export class OrderTracker {
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly byClientId = new Map<string, string>();
  private readonly decoded = new Map<string, string>();
  private readonly seenFills = new Set<string>();
  private readonly fillOrder: string[] = [];
  private readonly reportedFilled = new Map<string, Big>();

  /** `decodeFallback`: our id behind a venue id this tracker never saw encoded, where it can tell. */
  constructor(
    private readonly decodeFallback: (venueId: string) => string | undefined = () => undefined,
  ) {}

  rememberEncoding(clientOrderId: string, encoded: string | number): void {
    this.decoded.set(String(encoded), clientOrderId);
  }

  /** Our id for the venue's client order id (the venue's own when we never encoded it). */
  decode(venueClientOrderId: string | undefined): string {
    if (!venueClientOrderId) {
      return '';
    }
    return (
      this.decoded.get(venueClientOrderId) ??
      this.decodeFallback(venueClientOrderId) ??
      venueClientOrderId
    );
  }

  track(orderId: string, clientOrderId: string, amount?: string): void {
    const existing = this.orders.get(orderId);
    if (existing) {
      existing.amount ??= amount;
      if (!existing.clientOrderId) {
        existing.clientOrderId = clientOrderId;
      }
    } else {
      this.orders.set(orderId, { clientOrderId, amount, filled: new Big(0) });
    }
    if (clientOrderId) {
      this.byClientId.set(clientOrderId, orderId);
    }
  }

  orderIdOf(clientOrderId: string): string | undefined {
    return this.byClientId.get(clientOrderId);
  }

  clientOrderIdOf(orderId: string): string {
    return this.orders.get(orderId)?.clientOrderId ?? '';
  }

  /** Records a fill once; false when it was already seen. */
  firstSighting(fillId: string): boolean {
    if (this.seenFills.has(fillId)) {
      return false;
    }
    this.seenFills.add(fillId);
    this.fillOrder.push(fillId);
    if (this.fillOrder.length > FILL_MEMORY) {
      this.seenFills.delete(this.fillOrder.shift()!);
    }
    return true;
  }

  /** The order's size as placed, when known. */
  /**
   * Records the filled size an order update reports; true when it grew since
   * the last update (kept apart from the fills counted by `addFill`).
   */
  filledGrew(orderId: string, filledSize: string): boolean {
    const last = this.reportedFilled.get(orderId) ?? new Big(0);
    const now = new Big(filledSize);
    if (now.lte(last)) {
      return false;
    }
    this.reportedFilled.set(orderId, now);
    if (this.reportedFilled.size > REPORTED_MEMORY) {
      this.reportedFilled.delete(this.reportedFilled.keys().next().value as string);
    }
    return true;
  }

  amountOf(orderId: string): string | undefined {
    return this.orders.get(orderId)?.amount;
  }

  /** Adds a fill to its order; true when the order is now complete. */
  addFill(orderId: string, size: string): boolean {
    const order = this.orders.get(orderId);
    if (!order) {
      return false;
    }
    order.filled = order.filled.plus(size);
    return order.amount !== undefined && order.filled.gte(order.amount);
  }
}

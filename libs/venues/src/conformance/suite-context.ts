import type { BookUpdate } from '../model/book';
import type { VenueMarket } from '../model/market';
import type { VenueClient } from '../venue-client';
import type { ConformanceHarness, ConformanceSetup } from './conformance-harness';
import Big from 'big.js';
import type { OrderAck, PlaceOrderRequest } from '../model/orders';
import { clientOrderIds, EventLog, minimumSize, minus, plus, times } from './conformance-tools';

/**
 * What every conformance case works with: the harness, one connected client
 * (the `main` account) with its event log, the market under test and an
 * order size that meets its minimums. Filled in `beforeAll`.
 */
export class SuiteContext {
  harness!: ConformanceHarness;
  client!: VenueClient;
  log!: EventLog;
  market!: VenueMarket;
  size!: string;
  readonly nextId = clientOrderIds('cf');

  constructor(private readonly setup: ConformanceSetup) {}

  get capabilities(): ConformanceSetup['capabilities'] {
    return this.setup.capabilities;
  }

  async open(): Promise<void> {
    this.harness = await this.setup.start();
    this.client = await this.harness.createClient('main');
    this.log = new EventLog(this.client);
    const markets = await this.client.markets();
    const market = markets.find((candidate) => candidate.entry.symbol === this.harness.symbol);
    if (!market) {
      throw new Error(`the venue does not list ${this.harness.symbol}`);
    }
    this.market = market;
    await this.client.subscribeBook(this.harness.symbol);
    this.size = this.harness.orderSize ?? minimumSize(market, (await this.book()).bestAsk!);
  }

  async cancelOpenOrders(): Promise<void> {
    for (const order of await this.client.openOrders(this.harness.symbol)) {
      await this.client.cancel({ orderId: order.orderId });
    }
  }

  async close(): Promise<void> {
    this.log?.stop();
    await this.client?.close();
    await this.setup.stop();
  }

  /**
   * The latest two-sided book of the market under test, once the stream has
   * been quiet for a moment: a case's previous action may still have an
   * update in flight (a busy live book is taken as it is after 500 ms).
   */
  readonly book = async (): Promise<BookUpdate> => {
    const symbol = this.harness.symbol;
    await this.log.quiet('book', 25, 500);
    const latest = this.log.latestBook(symbol);
    if (latest && latest.bestBid && latest.bestAsk) {
      return latest;
    }
    return this.log.waitFor(
      'book',
      (update) => update.symbol === symbol && !!update.bestBid && !!update.bestAsk,
    );
  };

  readonly tick = (): string => this.market.entry.tick_size;

  /** A post-only buy of the market under test (size: the case size) with a fresh client order id. */
  readonly buyRequest = (price: string, size: string = this.size): PlaceOrderRequest => ({
    symbol: this.harness.symbol,
    side: 'buy',
    price,
    size,
    clientOrderId: this.nextId(),
  });

  /** Places `buyRequest(price, size)`. */
  readonly placeBuy = (price: string, size: string = this.size): Promise<OrderAck> =>
    this.client.placePostOnly(this.buyRequest(price, size));

  /**
   * The best bid an order can join: one tick inside the spread when there is
   * room, else the best bid itself; `ahead` is the size queued before it.
   */
  readonly bidAtTop = async (): Promise<{ price: string; ahead: string }> => {
    const top = await this.book();
    const inside = plus(top.bestBid!, this.tick());
    if (new Big(inside).lt(top.bestAsk!)) {
      return { price: inside, ahead: '0' };
    }
    return { price: top.bestBid!, ahead: top.bids[0].size };
  };

  /** A bid price far enough from the touch never to fill during a case. */
  readonly farBid = async (): Promise<string> =>
    minus((await this.book()).bestBid!, times(this.tick(), 50));
}

/** A case that needs a capability the venue under test may lack is skipped, not passed. */
export const itWhen = (available: boolean): jest.It => (available ? it : it.skip);

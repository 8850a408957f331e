import { ofTrade, type SimRecords, type TradeUnderTest, type Violation } from './checks';
import { delay } from './processes';

/**
 * Samples the venue's open orders of every trade's maker account while the
 * fault runs and after: a trade must never rest two maker orders at once (the
 * venue could fill both, beyond the target), whether or not a taker happens
 * to take the second one in the run.
 */
export class MakerOrderWatch {
  private running = false;
  private loop?: Promise<void>;
  samples = 0;
  /** False when the simulator has no open-orders read-out (older builds). */
  supported = true;
  private readonly seen = new Map<string, Violation>();

  constructor(
    private readonly sim: SimRecords,
    private readonly trades: TradeUnderTest[],
  ) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running && this.supported) {
        for (const trade of this.trades) {
          if (!trade.pair || this.seen.has(trade.tradeId)) {
            continue;
          }
          try {
            const orders = await this.sim.openOrders(trade.pair.maker.venue, trade.trader.wallet);
            if (orders === null) {
              this.supported = false;
              break;
            }
            const makers = ofTrade(
              orders as Array<{ client_order_id: string }>,
              trade.tradeId,
              'maker',
            );
            if (makers.length > 1) {
              this.seen.set(trade.tradeId, {
                invariant: 'two_open_maker_orders',
                tradeId: trade.tradeId,
                wallet: trade.trader.wallet,
                detail: `${makers.length} maker orders of the trade open at once on ${trade.pair.maker.venue}`,
                evidence: { at: new Date().toISOString(), open_orders: makers },
              });
            }
          } catch {
            // the venue may be frozen: the next sample tries again
          }
        }
        this.samples += 1;
        await delay(100);
      }
    })();
  }

  async stop(): Promise<Violation[]> {
    this.running = false;
    await this.loop;
    return [...this.seen.values()];
  }
}

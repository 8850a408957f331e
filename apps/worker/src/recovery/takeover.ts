import { formatDecimal } from '@sts/domain';
import { sleep } from '@sts/platform';
import { logEntry } from '@sts/contracts';
import { readTradeLog } from '../execution-log/trade-log';
import type { Acquisition } from '../lease/lease.repository';
import type { OpenTrade } from '../trade-runner/open-trade';
import type { RunnerServices } from '../trade-runner/runner-services';
import type { TradeState } from '../trade-runner/trade-state';
import { untrustedTailMs } from '../trade-runner/lease-trust';
import { untilVenuesAnswer } from '../trade-runner/until-venues-answer';
import {
  LATE_ORDER_BACKGROUND_SCAN_MS,
  LATE_ORDER_SCAN_MS,
  LateMakerOrders,
} from './late-maker-orders';
import { reconcileTrade, tradeMakerFills, type Reconciliation } from './reconcile-trade';

/**
 * When a dead worker's order requests can no longer land, per leg (epoch
 * ms): each venue's request life (`VenueClient.orderRequestLifetimeMs`)
 * from when the dead worker stopped trusting its lease (a fifth of the TTL
 * before it expired), `WORKER_UNBOUNDED_REQUEST_WAIT_MS` where a
 * venue bounds none; and, where the maker venue bounds none, how long its
 * late maker orders are still watched for after the trade runs again.
 */
export interface DeadWorkerBounds {
  hedgeSettledAtMs: number;
  makerSettledAtMs: number;
  makerWatchUntilMs: number;
}

export type TakeoverServices = Pick<
  RunnerServices,
  'db' | 'leaseTtlMs' | 'unboundedRequestWaitMs' | 'lateOrderWatchMs' | 'metrics'
>;

export function deadWorkerBounds(
  open: OpenTrade,
  services: TakeoverServices,
  expiredMsAgo: number | null,
  now = Date.now(),
): DeadWorkerBounds {
  if (expiredMsAgo === null) {
    return { hedgeSettledAtMs: now, makerSettledAtMs: now, makerWatchUntilMs: now };
  }
  // The dead worker sent nothing once it stopped trusting its lease, a little before it expired.
  const stoppedAt = now - expiredMsAgo - untrustedTailMs(services.leaseTtlMs);
  const unbounded = services.unboundedRequestWaitMs;
  const maker = open.legs.makerClient.orderRequestLifetimeMs;
  const hedge = open.legs.hedgeClient.orderRequestLifetimeMs;
  const makerSettledAtMs = stoppedAt + (maker ?? unbounded);
  return {
    hedgeSettledAtMs: stoppedAt + (hedge ?? unbounded),
    makerSettledAtMs,
    makerWatchUntilMs:
      maker === null ? Math.max(makerSettledAtMs, stoppedAt + services.lateOrderWatchMs) : 0,
  };
}

/**
 * A trade whose worker died, taken over leg by leg. Its hedges go first:
 * once no request of the dead worker can still land on the hedge venue,
 * its orders come off both books, both accounts' fills are read back and
 * set against the log, and what is unhedged is hedged. The maker venue's
 * requests may live longer: until they cannot land, the trade's maker
 * orders of the dead lease are cancelled wherever they show up, their
 * fills are hedged as they come (the feed), and once the bound has passed
 * the maker fills are read once more. Only then recovery_completed; where
 * the maker venue bounds nothing, the watch for late orders goes on behind
 * the running trade for `WORKER_LATE_ORDER_WATCH_MS`.
 */
export class Takeover {
  private fillsFound = 0;

  constructor(
    private readonly trade: TradeState,
    private readonly services: TakeoverServices,
    private readonly acquisition: Acquisition,
  ) {}

  async run(): Promise<void> {
    const trade = this.trade;
    const open = await untilVenuesAnswer(trade, 'open the venues', () => trade.openLegs());
    const bounds = deadWorkerBounds(open, this.services, this.acquisition.previousExpiredMsAgo);
    await this.until(bounds.hedgeSettledAtMs, 'the hedge venue');
    // The start's replay: the dead worker's log, folded, is what the venues are set against.
    trade.replay(await readTradeLog(this.services.db, trade.tradeId));
    const reconciliation = await untilVenuesAnswer(trade, 'reconcile with the venues', () =>
      reconcileTrade({
        record: trade.record,
        legs: open.legs,
        makerBucket: trade.budget.maker,
        hedgeBucket: trade.budget.hedge,
        ledger: trade.ledger,
      }),
    );
    const late = this.lateOrders(open);
    late.guardUntil(Math.max(bounds.makerSettledAtMs, bounds.makerWatchUntilMs));
    const hedgedBefore = await this.hedgeWhatIsSeen(open, reconciliation, late);
    if (bounds.makerSettledAtMs > Date.now()) {
      this.trade.log.info(
        { wait_ms: Math.round(bounds.makerSettledAtMs - Date.now()) },
        "hedged; watching for the dead worker's maker orders until they can no longer land",
      );
      await late.watchUntil(bounds.makerSettledAtMs);
      await this.readMakerFillsAgain(open);
    }
    await open.hedger.idle();
    await this.complete(reconciliation, late, hedgedBefore, open);
    this.watchBehindTheTrade(late, bounds);
  }

  /**
   * Where the maker venue bounds nothing, late orders are watched for behind
   * the running trade; elsewhere the maker account's open orders are read
   * once more a moment after the trade runs again, a backstop for a read
   * that missed a dead lease's order (seen once on Paradex, not reproduced).
   */
  private watchBehindTheTrade(late: LateMakerOrders, bounds: DeadWorkerBounds): void {
    if (bounds.makerWatchUntilMs > Date.now()) {
      void late.watchUntil(bounds.makerWatchUntilMs, LATE_ORDER_BACKGROUND_SCAN_MS);
    } else {
      void late.watchUntil(Date.now() + LATE_ORDER_SCAN_MS);
    }
  }

  /**
   * The first pass: the venues' view restored into the hedger (once, before
   * anything is hedged), the trade listening, and what is unhedged hedged.
   * Returns what was hedged before the takeover hedged anything.
   */
  private async hedgeWhatIsSeen(
    open: OpenTrade,
    reconciliation: Reconciliation,
    late: LateMakerOrders,
  ) {
    const trade = this.trade;
    const hedger = open.hedger;
    // What the venues showed and the log lacked goes through the same door as any entry.
    const applied = reconciliation.entries.length > 0 ? trade.apply(reconciliation.entries) : null;
    trade.countFillsFromStart();
    hedger.restore(trade.ledger.makerFills, trade.ledger.hedged);
    trade.listen(late);
    open.markouts.resume(trade.ledger);
    await applied;
    const hedgedBefore = hedger.hedged;
    const started = hedger.hedgeUnhedged(`recovery-${trade.epoch}`);
    if (started?.sent) {
      void trade.apply([started.sent]);
    }
    // A fill between the reconciliation's read and the stream's first message.
    await this.readMakerFillsAgain(open);
    return hedgedBefore;
  }

  /** The maker account's fills of the trade not seen yet, each taken as the stream's would be (hedged, logged). */
  private async readMakerFillsAgain(open: OpenTrade): Promise<void> {
    const trade = this.trade;
    const fills = await untilVenuesAnswer(trade, 'read the maker fills', () =>
      tradeMakerFills(open.legs, trade.budget.maker, trade.record),
    );
    for (const fill of fills) {
      if (!trade.ledger.fillIds.has(fill.fillId)) {
        this.fillsFound += 1;
        trade.onMakerFill(fill);
      }
    }
  }

  private lateOrders(open: OpenTrade): LateMakerOrders {
    const trade = this.trade;
    return new LateMakerOrders({
      client: open.legs.makerClient,
      bucket: trade.budget.maker,
      symbol: open.legs.market.makerMarket.symbol,
      makerOrders: open.makerOrders,
      signal: trade.abort.signal,
      log: trade.log,
      onCanceled: () =>
        this.services.metrics.recordLateMakerOrderCanceled(trade.record.makerExchange),
    });
  }

  /** recovery_completed, then active (or paused); a failed re-hedge leaves the failing to the loop. */
  private async complete(
    reconciliation: Reconciliation,
    late: LateMakerOrders,
    hedgedBefore: OpenTrade['hedger']['hedged'],
    open: OpenTrade,
  ): Promise<void> {
    const trade = this.trade;
    const completed = logEntry('recovery_completed', {
      previous_worker_id: this.acquisition.previousOwner,
      open_orders_canceled: reconciliation.openOrdersCanceled + late.canceled,
      fills_reconciled: reconciliation.fillsReconciled + this.fillsFound,
      rehedged_size: formatDecimal(open.hedger.hedged.minus(hedgedBefore)),
    });
    if (trade.ending?.kind === 'failed') {
      await trade.apply([completed]);
      return;
    }
    const halt = trade.halt;
    await trade.changeStatus(halt ? 'paused' : 'active', {
      entries: [completed],
      eventData: halt ? { reason: halt.reason, exchange: halt.exchange } : {},
    });
    trade.log.info({ status: trade.status, ...completed.data }, 'trade recovered');
    await trade.refreshTerms();
  }

  /**
   * A dead worker's last requests may still be on their way to `venue`
   * (held by a slow network or a hanging venue): until they can no longer
   * take effect, its open orders and fills are not the whole truth. It sent
   * nothing after its lease expired.
   */
  private async until(atMs: number, venue: string): Promise<void> {
    const waitMs = atMs - Date.now();
    if (waitMs <= 0) {
      return;
    }
    this.trade.log.info(
      { wait_ms: Math.round(waitMs) },
      `waiting until the dead worker's order requests can no longer land on ${venue}`,
    );
    await sleep(waitMs);
  }
}

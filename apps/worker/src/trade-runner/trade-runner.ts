import type { TradeControl } from '@sts/contracts';
import { isTerminalTradeStatus } from '@sts/domain';
import { withTimeout, type Logger } from '@sts/platform';
import { LeaseLostError, TradeJournal } from '../execution-log/trade-journal';
import type { Acquisition, Lease, RenewedLease } from '../lease/lease.repository';
import type { TradeExposure } from '../metrics/worker-metrics';
import type { LoadedTrade } from '../trades/trade-record';
import { FastMoveWatch } from './fast-move-watch';
import type { Halt, RunnerServices } from './runner-services';
import { TradeBudget } from './trade-budget';
import { openTradeLegs } from './trade-legs';
import { TradeStart } from './trade-start';
import { trustFrom, type LeaseTrust } from './lease-trust';
import { TradeState } from './trade-state';

const sameHalt = (a: Halt | null, b: Halt | null): boolean =>
  a === b || (a !== null && b !== null && a.reason === b.reason && a.exchange === b.exchange);

/**
 * One trade on this worker, from the moment its lease is acquired until it
 * ends here (terminal status, hand-over, or a lost lease). Until its row is
 * loaded there is only the lease; then the TradeState, whole, and its start
 * (TradeStart) by how it came.
 */
export class TradeRunner {
  readonly tradeId: string;
  readonly lease: Lease;
  readonly closed: Promise<void>;
  /** True once the lease was given up cleanly (hand-over or end). */
  released = false;
  private trade: TradeState | null = null;
  private closing = false;
  /** A cancel that arrived before the row was loaded. */
  private cancelBeforeLoad = false;
  private readonly trust: LeaseTrust;
  /** The trade was woken for the lease's doubt since its last renewal (once per doubt). */
  private doubtSeen = false;
  private readonly log: Logger;
  private readonly resolveClosed: () => void;

  constructor(
    private readonly services: RunnerServices,
    private readonly acquisition: Acquisition,
    private readonly correlationId: string,
    acquiredAtMs: number,
  ) {
    this.lease = acquisition.lease;
    this.tradeId = this.lease.tradeId;
    this.trust = trustFrom(acquiredAtMs, services.leaseTtlMs);
    this.log = services.logger.child({ trade_id: this.tradeId, correlation_id: correlationId });
    let resolve: () => void = () => undefined;
    this.closed = new Promise((done) => (resolve = done));
    this.resolveClosed = resolve;
  }

  start(): void {
    this.services.metrics.recordLeaseAcquired(this.acquisition.kind);
    void this.run();
  }

  /** What the worker's metrics read at scrape time (no trade id leaves here). */
  exposure(): TradeExposure | null {
    const trade = this.trade;
    if (!trade || this.ended) {
      return null;
    }
    return {
      status: trade.status,
      market: trade.record.market,
      hedgeExchange: trade.record.hedgeExchange,
      unhedgedSize: trade.open ? trade.open.hedger.outstanding.toNumber() : 0,
    };
  }

  private async run(): Promise<void> {
    try {
      const loaded = await this.services.reader.load(this.tradeId);
      if (this.closing) {
        return;
      }
      const trade = this.build(loaded);
      this.trade = trade;
      trade.log.info(
        { acquisition: this.acquisition.kind, status: trade.status, epoch: this.lease.epoch },
        'trade acquired',
      );
      const outcome = await new TradeStart(trade, this.services, this.acquisition).run();
      if (outcome === 'ended') {
        return void this.close(true);
      }
      trade.startRunning();
    } catch (error) {
      if (!(error instanceof LeaseLostError) && !this.closing) {
        this.log.error(
          { err: error },
          'trade could not start here; its lease will expire for another attempt',
        );
      }
      void this.close(false);
    }
  }

  /** The trade's state, whole: its journal, budgets and guard, from the loaded row. */
  private build(loaded: LoadedTrade): TradeState {
    const { services, log } = this;
    const { record } = loaded;
    const journal = new TradeJournal(
      services.db,
      {
        tradeId: this.tradeId,
        userId: record.userId,
        workerId: services.workerId,
        epoch: this.lease.epoch,
        natsPrefix: services.natsPrefix,
        correlationId: this.correlationId,
      },
      {
        onLeaseLost: () => this.onLeaseLost(),
        onOutboxWritten: (written) => services.kickOutbox(written),
        onLogged: (entries) => services.metrics.recordEntries(entries, record.market),
        logger: log,
      },
    );
    const budget = new TradeBudget(
      this.tradeId,
      record.rateBudget,
      record.hedgeRateBudget,
      services.budget,
      log,
    );
    budget.follow();
    return new TradeState({
      services: {
        ...services,
        openLegs: (tradeRecord, books, legBudgets) =>
          openTradeLegs(services, tradeRecord, books, legBudgets),
      },
      lease: this.lease,
      trust: this.trust,
      log,
      loaded: { ...loaded, cancelRequested: loaded.cancelRequested || this.cancelBeforeLoad },
      journal,
      budget,
      guard: new FastMoveWatch(record.guard, record.makerLeg),
      halt: services.haltFor([record.makerExchange, record.hedgeExchange]),
      onEnded: () => void this.closeOnceMarked(),
    });
  }

  get userId(): string {
    return this.trade?.record.userId ?? '';
  }

  /** Until when (monotonic ms) this worker trusts its lease. */
  get leaseValidUntil(): number {
    return this.trust.validUntilMs;
  }

  /** From when (monotonic ms) the lease is in doubt: no maker order may rest. */
  get leaseQuoteUntil(): number {
    return this.trust.quoteUntilMs;
  }

  onLeaseRenewed(trust: LeaseTrust, renewed: RenewedLease): void {
    const now = this.services.clock.now();
    const held = this.trust.quoteUntilMs <= now;
    Object.assign(this.trust, trust);
    if (trust.quoteUntilMs > now) {
      this.doubtSeen = false;
    }
    const trade = this.trade;
    if (!trade || trade.phase.kind === 'closed') {
      return;
    }
    if (held && trust.quoteUntilMs > now) {
      // Proven again: what the doubt or a lapse held back (a quote, a take-down) is done now.
      trade.log.info('lease proven again after a renewal was held up');
      trade.wake();
    }
    if (renewed.amendmentVersion > trade.terms.amendmentVersion) {
      trade
        .refreshTerms(renewed.amendmentVersion)
        .catch((error: unknown) => trade.log.warn({ err: error }, 'could not read the amendment'));
    }
    if (renewed.cancelRequested) {
      trade.requestCancel();
    }
  }

  /**
   * The lease went unproven for too long (lease-trust.ts): the trade is woken
   * once, takes its maker side down and stops quoting until a renewal.
   */
  onLeaseInDoubt(): void {
    const trade = this.trade;
    if (this.doubtSeen || !trade || trade.phase.kind === 'closed') {
      return;
    }
    this.doubtSeen = true;
    trade.log.warn('lease unproven: quoting stopped, maker side coming down');
    this.services.metrics.recordLeaseFenced();
    trade.wake();
  }

  onLeaseLost(): void {
    if (this.closing) {
      return;
    }
    this.log.warn('lease lost: another worker owns this trade now; touching nothing more');
    // Its queued writes are the next owner's to rebuild: refused as the fence would, not lost.
    void this.close(false, new LeaseLostError(this.tradeId));
  }

  async onControl(control: TradeControl): Promise<boolean> {
    if (!this.trade) {
      if (control.kind === 'cancel') {
        this.cancelBeforeLoad = true;
      }
      return control.kind === 'cancel';
    }
    return this.trade.onControl(control);
  }

  onMaintenanceChanged(): void {
    const trade = this.trade;
    if (!trade || trade.phase.kind === 'closed') {
      return;
    }
    const halt = this.services.haltFor([trade.record.makerExchange, trade.record.hedgeExchange]);
    if (sameHalt(halt, trade.halt)) {
      return;
    }
    trade.operatorHalted(halt);
  }

  /**
   * The lease was given up for another worker to resume the trade: it had
   * not ended (an ended trade lingering for its marks is released, never
   * announced, so no worker is started on it).
   */
  get awaitsSuccessor(): boolean {
    return this.released && this.trade !== null && !this.ended;
  }

  /** The trade reached a terminal status: the runner lingers only for its marks, live no more. */
  get ended(): boolean {
    return this.trade !== null && isTerminalTradeStatus(this.trade.status);
  }

  /**
   * Graceful shutdown: stop quoting, take the maker order down, let hedges
   * finish, and give the lease up so another worker resumes without a
   * recovery. A trade that does not go quiet in time keeps its lease, which
   * then expires: the next worker recovers it.
   */
  async handOver(graceMs: number): Promise<void> {
    const trade = this.trade;
    if (this.closing) {
      return;
    }
    if (trade && isTerminalTradeStatus(trade.status)) {
      await this.close(true); // ended, its book open only for marks: they stay null
      return;
    }
    if (trade?.phase.kind === 'ending') {
      await withTimeout(this.closed, graceMs).catch(() => this.close(false));
      return;
    }
    if (!trade || trade.phase.kind === 'starting' || trade.phase.kind === 'closed') {
      await this.close(false);
      return;
    }
    trade.handOver();
    const quiet = await withTimeout(async () => {
      await trade.loop.settled();
      await trade.loop.quiesce();
      return true;
    }, graceMs).catch(() => false);
    // A trade that failed meanwhile keeps its lease: the next worker recovers it.
    const { phase } = trade;
    const handedOver = quiet && phase.kind === 'handing_over' && phase.ending?.kind !== 'failed';
    if (handedOver) {
      await this.logQuotingSpell(trade);
    }
    await this.close(handedOver);
  }

  /** The quoting this owner did since its last spell, before the next owner counts its own. */
  private async logQuotingSpell(trade: TradeState): Promise<void> {
    const spell = trade.open?.makerOrders.spells.take();
    if (spell) {
      await trade.apply([spell]).catch(() => undefined); // a spell unlogged is uncounted, never guessed
    }
  }

  /**
   * An ended trade keeps its book (and its lease, for the log's fence) until
   * the marks of its last maker fills are taken, a minute at most; a
   * shutdown or a lost lease closes it sooner, leaving those marks null.
   */
  private async closeOnceMarked(): Promise<void> {
    await this.trade?.open?.markouts.settled();
    await this.close(true);
  }

  private async close(releaseLease: boolean, cause?: LeaseLostError): Promise<void> {
    if (this.closing) {
      return;
    }
    this.closing = true;
    // What this owner wrote goes in under its lease, or the lease is kept to expire: the next
    // owner then recovers from the venues what a write left unsaid.
    const written =
      releaseLease &&
      (await (this.trade?.journal.written(this.trust.validUntilMs - this.services.clock.now()) ??
        true));
    // A write queued after that wait (an answer that came in between) is not given up with the lease.
    const unfinished = this.trade?.close(cause) ?? false;
    const release = written && !unfinished;
    this.resolveClosed();
    if (release) {
      this.released = await this.services.leases.release(this.lease).catch((error: unknown) => {
        this.log.warn({ err: error }, 'could not release the lease; it will expire');
        return false;
      });
    }
  }
}

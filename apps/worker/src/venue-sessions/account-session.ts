import type { TokenBucket } from '@sts/budget-client';
import { parseClientOrderId, type VenueId } from '@sts/domain';
import { sleep, type Logger } from '@sts/platform';
import type { Unsubscribe, VenueBalance, VenueClient, VenueFill, VenueOrder } from '@sts/venues';
import type { CumulativeQuota } from '@sts/domain';
import { CumulativeQuotaWatch, type CumulativePolicy } from './cumulative-quota-watch';
import { DeadManKeeper, type DeadManPolicy, type DeadManStatus } from './dead-man-keeper';
import { spendCountedClient } from './spend-counted-client';
import { batchingClient, batchWindows, type BatchKind } from './order-batcher';
import { paidAtOnce, paidOnCredit } from './paid-requests';
import { payForShared } from './shared-payment';
import { AccountRestingOrders } from './account-resting-orders';
import { SharedBalanceRead } from './shared-balance-read';

/** What a trade hears from one of its venue accounts. Called synchronously from the socket. */
export interface AccountListener {
  onFill(fill: VenueFill): void;
  onOrder(order: VenueOrder): void;
  /**
   * The trade's request budget on this account, when it has one. A read the
   * session makes for all its trades (fills missed in a disconnect) is paid
   * from one of them, so the account's limit holds through a reconnect too.
   */
  bucket?: TokenBucket;
}

const RECOVERY_ATTEMPTS = 5;
/** Requests a second a trade keeps back for fill reads sent unpaid: one per fill, a fill or so a second. */
const UNPAID_READS_KEPT_PER_S = 1;
/** Longest wait at connect for the first word on the account's cumulative budget. */
const FIRST_WORD_WAIT_MS = 2_000;
/** Longest wait for a trade's budget before a recovery read (fills may be unhedged meanwhile) or a connect. */
const READ_BUDGET_WAIT_MS = 1_500;

/**
 * One venue account (venue, wallet) shared by every trade of this worker that
 * trades on it: one client, one own-order stream. Fills and order updates are
 * routed to the trade whose client order id tag they carry. After a
 * reconnect, fills missed while the stream was down are read back with
 * `fillsSince` and routed the same way (trades drop what they already saw).
 */
export class AccountSession {
  /** The account's orders in the book, whichever trade placed them (its trades quote past them). */
  readonly restingOrders = new AccountRestingOrders();
  private readonly balanceRead = new SharedBalanceRead();
  private readonly listeners = new Map<string, AccountListener>();
  private readonly unsubscribers: Unsubscribe[] = [];
  private connecting?: Promise<void>;
  private venueClient?: VenueClient;
  /** The account's dead-man switch, kept armed while trades listen; there once opened. */
  private keeper?: DeadManKeeper;
  /** The account's cumulative request budget, followed while trades listen (where the venue keeps one). */
  private quota?: CumulativeQuotaWatch;

  constructor(
    readonly venue: VenueId,
    readonly wallet: string,
    private readonly createClient: () => Promise<VenueClient>,
    private readonly logger: Logger,
    private readonly deadMan: DeadManPolicy = { timeoutMs: 15_000 },
    /** How the account's cumulative budget is followed; absent where the venue keeps none. */
    private readonly cumulative?: CumulativePolicy,
    /** How long an order request waits for others of the account to batch with (WORKER_ORDER_BATCH_MS; < 0: never). */
    private readonly orderBatchMs = -1,
    /**
     * Whether each trade keeps rate back for the fill reads the client sends
     * unpaid: not where the venue counts them in a window a debt is waited
     * out in (`creditNeedsKeptRate`).
     */
    private readonly keepRateForUnpaidReads = true,
  ) {}

  /**
   * The account's cumulative request budget as the budget service keeps it,
   * with this worker's spends since (`quotaHold` decides by it); null where
   * the venue keeps none or nobody has read it yet.
   */
  cumulativeQuota(): CumulativeQuota | null {
    return this.quota?.current() ?? null;
  }

  /** How often the cumulative budget is reported (a trade held by it looks again as often). */
  get cumulativePollMs(): number | null {
    return this.quota ? (this.cumulative?.pollMs ?? null) : null;
  }

  /** The dead-man switch as this worker keeps it (idle before the session opened). */
  get deadManStatus(): DeadManStatus | undefined {
    return this.keeper?.state;
  }

  /** The account's client; there once `connect` resolved. */
  get client(): VenueClient {
    if (!this.venueClient) {
      throw new Error(`${this.venue} session of ${this.wallet} is not connected`);
    }
    return this.venueClient;
  }

  /**
   * When the account's next batch of `kind` opens, where a trade's request
   * sent then rides in it unpaid (`BatchWindows`); null where nothing batches.
   */
  nextBatchWindow(kind: BatchKind, signal: AbortSignal): Promise<void> | null {
    return this.venueClient ? (batchWindows(this.venueClient)?.next(kind, signal) ?? null) : null;
  }

  /** Whether the account holds a batch of `kind` now, which a trade's request may ride in. */
  batchOpen(kind: BatchKind): boolean {
    return this.venueClient ? (batchWindows(this.venueClient)?.isOpen(kind) ?? false) : false;
  }

  /** The account's balances for a trade's pre-flight: one read shared by the trades that ask at once. */
  balances(bucket: TokenBucket | null): Promise<VenueBalance[]> {
    return this.balanceRead.read(this.client, bucket);
  }

  /**
   * Opens the account's client once for every trade on it. What connecting
   * spends of the account's limit (a live client's credential probe) is paid
   * from `bucket`, the budget of the trade that opens it.
   */
  connect(bucket?: TokenBucket): Promise<void> {
    this.connecting ??= this.open(bucket).catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  private async open(bucket: TokenBucket | undefined): Promise<void> {
    if (!this.venueClient) {
      const client = batchingClient(
        this.followCumulative(await this.createClient()),
        this.orderBatchMs,
      );
      this.venueClient = client;
      this.unsubscribers.push(
        client.on('fill', (fill) => this.route(fill.clientOrderId)?.onFill(fill)),
        client.on('order', (order) => {
          // The order's own trade first: an update it must act on waits for no bookkeeping.
          this.route(order.clientOrderId)?.onOrder(order);
          this.restingOrders.note(order);
        }),
        // A read the client sent at once for an order (its fills): the order's trade pays after.
        client.on('unpaid', (spent) =>
          this.route(spent.clientOrderId)?.bucket?.charge(spent.tokens),
        ),
        client.on('connection', (event) => {
          if (event.state === 'reconnected') {
            void this.recoverFills(event.recoverFromMs);
          }
          if (event.state === 'disconnected') {
            this.restingOrders.forgetAll();
            this.logger.warn(
              { venue: this.venue, wallet: this.wallet, reason: event.reason },
              'account stream disconnected',
            );
          }
        }),
      );
    }
    await this.connectPaid(this.venueClient, bucket);
    await this.firstCumulativeWord(this.venueClient, bucket);
    this.keepDeadMan(this.venueClient);
  }

  /**
   * Before the first trade quotes on the account: the venue's word on its
   * cumulative budget and the budget service's, waited for at most
   * FIRST_WORD_WAIT_MS (a trade quotes on the last word it has, and on none
   * where the venue has told nothing yet). A read it sends is paid from the
   * budget of the trade that opens the session, at once (on credit).
   */
  private async firstCumulativeWord(
    client: VenueClient,
    bucket: TokenBucket | undefined,
  ): Promise<void> {
    if (!this.quota) {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.quota.poll((send) => paidAtOnce(bucket ?? null, client, send)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, FIRST_WORD_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  /**
   * Where the venue keeps a cumulative budget: the client with its order
   * requests counted as spends of it, and the watch that reports them.
   */
  private followCumulative(client: VenueClient): VenueClient {
    if (!this.cumulative) {
      return client;
    }
    const quota = new CumulativeQuotaWatch(
      {
        venue: this.venue,
        wallet: this.wallet,
        client,
        paying: async (send) =>
          paidOnCredit(await payForShared([...this.listeners.values()]), 1, client, send),
        logger: this.logger,
      },
      this.cumulative,
    );
    this.quota = quota;
    for (let i = 0; i < this.listeners.size; i += 1) {
      quota.hold();
    }
    return spendCountedClient(client, (requests) => quota.spent(requests));
  }

  /** Once connected (a client may learn its switch as it connects): keeps the switch while trades listen. */
  private keepDeadMan(client: VenueClient): void {
    if (this.keeper) {
      return;
    }
    this.keeper = new DeadManKeeper(
      client.deadManSwitch,
      {
        venue: this.venue,
        wallet: this.wallet,
        // One token taken (never queued for); what the venue weighs the request
        // beyond it is charged to the same trade (Aster's countdownCancelAll: 5).
        paying: async (send) =>
          paidOnCredit(await payForShared([...this.listeners.values()]), 1, client, send),
        logger: this.logger,
      },
      this.deadMan,
    );
    if (this.listeners.size > 0) {
      this.keeper.hold();
    }
  }

  /**
   * Connects, every request it sends paid from `bucket`, the budget of the
   * trade that opens the account: the credential probe from a token taken
   * within READ_BUDGET_WAIT_MS, the rest at once on credit (the debt slows
   * that trade's first quotes). A live client's connect sends more than its
   * probe: ccxt asks Hyperliquid for the wallet's `userAbstraction` (weight
   * 20 of the egress's 1,200 a minute) before its first signed action, and
   * nine wallets opened unpaid took 180 of the minute that the budget had
   * divided among their trades, so the dialect refused their re-quotes.
   */
  private async connectPaid(client: VenueClient, bucket: TokenBucket | undefined): Promise<void> {
    const requests = client.requestsToConnect();
    const paid = requests > 0 && bucket && (await takeWithin(bucket, requests)) ? requests : 0;
    if (requests > 0 && bucket && paid === 0) {
      this.logger.warn(
        { venue: this.venue, wallet: this.wallet, requests },
        "the trade's budget was dry: connecting on credit",
      );
    }
    await paidOnCredit(bucket ?? null, paid, client, () => client.connect());
  }

  /**
   * Routes this trade's events (by its client order id tag) to `listener`.
   * Where the client reads fills unpaid and the venue counts them a second
   * at a time, the trade's bucket keeps rate back to pay for them, so a read
   * after a second of re-quotes stays within the limit.
   */
  listen(tradeTag: string, listener: AccountListener): Unsubscribe {
    if (this.venueClient?.unpaidFillReads && this.keepRateForUnpaidReads) {
      listener.bucket?.reserveForCharges(UNPAID_READS_KEPT_PER_S);
    }
    this.listeners.set(tradeTag, listener);
    // While any trade listens its orders may rest: the venue's switch is kept armed.
    this.keeper?.hold();
    this.quota?.hold();
    return () => {
      if (this.listeners.get(tradeTag) === listener) {
        this.listeners.delete(tradeTag);
        this.quota?.release();
        if (this.listeners.size === 0) {
          this.keeper?.release();
        }
      }
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribers.splice(0)) {
      unsubscribe();
    }
    this.listeners.clear();
    this.keeper?.stop();
    this.quota?.stop();
    await this.venueClient?.close();
  }

  private route(clientOrderId: string): AccountListener | undefined {
    const parsed = parseClientOrderId(clientOrderId);
    return parsed ? this.listeners.get(parsed.tradeTag) : undefined;
  }

  private async recoverFills(sinceMs: number): Promise<void> {
    for (let attempt = 1; attempt <= RECOVERY_ATTEMPTS; attempt += 1) {
      try {
        await this.payForRead();
        const fills = await this.client.fillsSince(sinceMs);
        for (const fill of fills) {
          this.route(fill.clientOrderId)?.onFill(fill);
        }
        return;
      } catch (error) {
        this.logger.warn(
          { venue: this.venue, wallet: this.wallet, err: error, attempt },
          'could not read fills missed during a disconnect',
        );
        await sleep(200 * attempt);
      }
    }
  }

  /**
   * Takes one request from a listening trade's budget on this account: a
   * token kept back for fill reads at once where there is one, otherwise
   * waiting at most READ_BUDGET_WAIT_MS for it. A trade whose bucket is dry
   * that long (or closes) hands the turn to the next; with none left the read
   * goes unpaid: a missed fill left unread is worse than one request over the
   * limit (which the venue refuses with a 429, and the retry waits out).
   */
  private async payForRead(): Promise<void> {
    const listeners = [...this.listeners.values()];
    // A token kept back for fill reads pays it at once: missed fills may be unhedged meanwhile.
    if (listeners.some((listener) => listener.bucket?.takeKept())) {
      return;
    }
    for (const listener of listeners) {
      // Dry for too long, or that trade ended: try the next one.
      if (listener.bucket && (await takeWithin(listener.bucket, 1))) {
        return;
      }
    }
  }
}

/** Takes `requests` tokens, waiting at most READ_BUDGET_WAIT_MS; false when dry that long or closed. */
async function takeWithin(bucket: TokenBucket, requests: number): Promise<boolean> {
  try {
    await bucket.waitFor(requests, AbortSignal.timeout(READ_BUDGET_WAIT_MS));
    return true;
  } catch {
    return false;
  }
}

import type { TokenBucket } from '@sts/budget-client';
import { isAppError } from '@sts/platform';
import type { CredentialStore } from '@sts/persistence';
import {
  VenueAuthError,
  VenueSetupError,
  type BookUpdate,
  type VenueBalance,
  type VenueClient,
} from '@sts/venues';
import { quotaHold, type QuotaHold, type VenueId } from '@sts/domain';
import type { TradeRecord } from '../trades/trade-record';
import type { AccountListener, AccountSession } from '../venue-sessions/account-session';
import type { AccountRestingOrders } from '../venue-sessions/account-resting-orders';
import type { AccountSessionHandle, AccountSessions } from '../venue-sessions/account-sessions';
import type { MarketData } from '../venue-sessions/market-data';
import type { BatchKind } from '../venue-sessions/order-batcher';
import { legMarketOf, MarketView } from './market-view';

/** A leg could not be opened; `reason` is what the trader reads in failure_reason. */
export class LegUnavailableError extends Error {
  constructor(
    readonly reason: string,
    /** The venue may be back shortly (unreachable, socket down, no book yet): worth waiting for. */
    readonly transient = false,
  ) {
    super(reason);
    this.name = 'LegUnavailableError';
  }
}

/** Called after the market view took a book update that moved the touch (maker) or H (hedge). */
export interface BookHandlers {
  /** `receivedAtMs`: when the worker received the update that moved it. */
  onMakerMove(receivedAtMs: number): void;
  onHedgeMove(receivedAtMs: number): void;
  /** A feed went down: its book is stale until it is back. */
  onStale(): void;
}

/** A trade's connection to its two venues: both accounts, both books, the market rules. */
export interface TradeLegs {
  market: MarketView;
  makerClient: VenueClient;
  hedgeClient: VenueClient;
  /** The maker account's orders in the book, whichever trade placed them. */
  makerAccountOrders: AccountRestingOrders;
  /** When the maker account's next batch of a kind opens (null where nothing batches). */
  makerBatchWindow(kind: BatchKind, signal: AbortSignal): Promise<void> | null;
  /** Whether the maker account holds a batch of a kind now, which a request may ride in. */
  makerBatchOpen(kind: BatchKind): boolean;
  /** A leg's account balances for the pre-flight, read once for the trades that ask at once. */
  balances(leg: 'maker' | 'hedge', bucket: TokenBucket | null): Promise<VenueBalance[]>;
  /**
   * Why the trade may not rest a maker order now by its accounts' cumulative
   * request budgets (`quotaHold`), or null when it may.
   */
  cumulativeHold(): QuotaHold | null;
  /** How often those budgets change (their report period), or null where neither account has one. */
  readonly cumulativePollMs: number | null;
  /** Starts routing this trade's own fills and orders (by its client order id tag). */
  listen(tradeTag: string, maker: AccountListener, hedge: AccountListener): void;
  close(): void;
}

export interface LegServices {
  credentials: CredentialStore;
  accounts: AccountSessions;
  marketData: MarketData;
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The trade's budgets on its two accounts (the hedge's only where its venue shares the limit). */
export interface LegBudgets {
  maker: TokenBucket;
  hedge: TokenBucket | null;
}

/**
 * Opens both legs: decrypts the credentials (which records last_used), reads
 * the market on both venues, connects both accounts and waits for both books.
 * Throws LegUnavailableError naming what failed.
 */
export async function openTradeLegs(
  services: LegServices,
  record: TradeRecord,
  books: BookHandlers,
  budget?: LegBudgets,
): Promise<TradeLegs> {
  const cleanups: Array<() => void> = [];
  const closeAll = (): void => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      cleanup();
    }
  };
  try {
    const maker = await openAccount(services, record, 'maker', budget?.maker);
    cleanups.push(maker.release);
    const hedge = await openAccount(services, record, 'hedge', budget?.hedge ?? undefined);
    cleanups.push(hedge.release);
    const makerFeed = services.marketData.feed(record.makerExchange);
    const hedgeFeed = services.marketData.feed(record.hedgeExchange);
    const makerMarket = await marketOn(
      makerFeed.market(record.market),
      record.market,
      record.makerExchange,
    );
    const hedgeMarket = await marketOn(
      hedgeFeed.market(record.market),
      record.market,
      record.hedgeExchange,
    );
    const market = new MarketView(
      record.makerLeg,
      legMarketOf(record.makerExchange, makerMarket),
      legMarketOf(record.hedgeExchange, hedgeMarket),
    );
    cleanups.push(...(await watchBooks(services, record, market, books)));
    const makerBook = makerFeed.book(market.makerMarket.symbol);
    const hedgeBook = hedgeFeed.book(market.hedgeMarket.symbol);
    if (makerBook) {
      market.applyMakerBook(makerBook);
    }
    if (hedgeBook) {
      market.applyHedgeBook(hedgeBook);
    }
    return legsOver(market, maker.session, hedge.session, cleanups, closeAll);
  } catch (error) {
    closeAll();
    throw error;
  }
}

/** The legs over the two open accounts; what listening adds is undone by `close`. */
function legsOver(
  market: MarketView,
  maker: AccountSession,
  hedge: AccountSession,
  cleanups: Array<() => void>,
  close: () => void,
): TradeLegs {
  return {
    market,
    makerClient: maker.client,
    hedgeClient: hedge.client,
    makerAccountOrders: maker.restingOrders,
    makerBatchWindow: (kind, signal) => maker.nextBatchWindow(kind, signal),
    makerBatchOpen: (kind) => maker.batchOpen(kind),
    balances: (leg, bucket) => (leg === 'maker' ? maker : hedge).balances(bucket),
    ...cumulativeOf(maker, hedge),
    listen: (tradeTag, makerListener, hedgeListener) => {
      cleanups.push(maker.listen(tradeTag, makerListener));
      cleanups.push(hedge.listen(tradeTag, hedgeListener));
    },
    close,
  };
}

/** The trade's hold by its two accounts' cumulative request budgets. */
function cumulativeOf(
  maker: AccountSession,
  hedge: AccountSession,
): Pick<TradeLegs, 'cumulativeHold' | 'cumulativePollMs'> {
  return {
    cumulativeHold: () => quotaHold(maker.cumulativeQuota(), hedge.cumulativeQuota()),
    cumulativePollMs: maker.cumulativePollMs ?? hedge.cumulativePollMs,
  };
}

/** A leg's account, its budget paying what connecting to it spends (a live client's credential probe). */
async function openAccount(
  services: LegServices,
  record: TradeRecord,
  leg: 'maker' | 'hedge',
  bucket: TokenBucket | undefined,
): Promise<AccountSessionHandle> {
  const venue = leg === 'maker' ? record.makerExchange : record.hedgeExchange;
  const wallet = leg === 'maker' ? record.makerWallet : record.hedgeWallet;
  let secret;
  try {
    secret = await services.credentials.openForExecution(record.userId, venue, wallet);
  } catch (error) {
    throw new LegUnavailableError(
      isAppError(error) && error.code === 'credentials_not_linked'
        ? `no active ${venue} credentials for wallet ${wallet}`
        : `${venue} credentials could not be opened`,
    );
  }
  try {
    return await services.accounts.acquire(
      venue,
      { apiKey: secret.api_key, apiSecret: secret.api_secret, wallet },
      bucket,
    );
  } catch (error) {
    if (error instanceof VenueAuthError) {
      throw new LegUnavailableError(`${venue} rejected the credentials: ${error.detail}`);
    }
    if (error instanceof VenueSetupError) {
      throw new LegUnavailableError(`${venue} live trading is not set up: ${error.detail}`);
    }
    throw new LegUnavailableError(`${venue} unreachable: ${describe(error)}`, true);
  }
}

async function marketOn<T>(
  lookup: Promise<T | undefined>,
  market: string,
  venue: VenueId,
): Promise<T> {
  let found: T | undefined;
  try {
    found = await lookup;
  } catch (error) {
    throw new LegUnavailableError(`${venue} unreachable: ${describe(error)}`, true);
  }
  if (found === undefined) {
    throw new LegUnavailableError(`market ${market} is not listed on ${venue}`);
  }
  return found;
}

async function watchBook(watching: Promise<() => void>, venue: VenueId): Promise<() => void> {
  try {
    return await watching;
  } catch (error) {
    throw new LegUnavailableError(`${venue} book unavailable: ${describe(error)}`, true);
  }
}

/** Follows both books into the market view; the move handlers hear what changed the quote. */
async function watchBooks(
  services: LegServices,
  record: TradeRecord,
  market: MarketView,
  books: BookHandlers,
): Promise<Array<() => void>> {
  // Both books wake re-quotes on the maker account: its trades are delivered together.
  const quotingAccount = `${record.makerExchange}:${record.makerWallet}`;
  /** One book: `apply` takes an update into the market view and says whether it moved what matters. */
  const follow = (
    venue: VenueId,
    symbol: string,
    apply: (update: BookUpdate) => boolean,
    moved: (receivedAtMs: number) => void,
    stale: () => void,
  ) =>
    watchBook(
      services.marketData.feed(venue).watch(
        symbol,
        {
          onBook: (update: BookUpdate, receivedAtMs: number) => {
            if (apply(update)) {
              moved(receivedAtMs);
            }
          },
          onStale: () => {
            stale();
            books.onStale();
          },
        },
        quotingAccount,
      ),
      venue,
    );
  const unwatchMaker = await follow(
    record.makerExchange,
    market.makerMarket.symbol,
    (update) => market.applyMakerBook(update),
    (at) => books.onMakerMove(at),
    () => market.markMakerStale(),
  );
  try {
    const unwatchHedge = await follow(
      record.hedgeExchange,
      market.hedgeMarket.symbol,
      (update) => market.applyHedgeBook(update),
      (at) => books.onHedgeMove(at),
      () => market.markHedgeStale(),
    );
    return [unwatchMaker, unwatchHedge];
  } catch (error) {
    unwatchMaker();
    throw error;
  }
}

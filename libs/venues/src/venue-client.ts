import type { VenueBalance, VenueFundingPayment, VenuePosition } from './model/account';
import type { BookUpdate } from './model/book';
import type { VenueMarket } from './model/market';
import type {
  BatchAnswer,
  CancelResult,
  CancelTarget,
  OrderAck,
  PlaceOrderRequest,
  ReplaceRequest,
  ReplaceResult,
  VenueFill,
  VenueOrder,
} from './model/orders';

/**
 * Connection signals. `reconnected` follows a `disconnected` once the client
 * is back and its own-order stream is live again; events that happened in
 * between may be lost, so the caller recovers them with
 * `fillsSince(recoverFromMs)` and drops the fills it already has (by
 * `fillId`). `recoverFromMs` is a little before the last event seen, to
 * cover events in flight when the socket died and clock skew.
 */
export type ConnectionEvent =
  | { state: 'connected'; atMs: number }
  | { state: 'disconnected'; atMs: number; reason: string }
  | { state: 'reconnected'; atMs: number; disconnectedAtMs: number; recoverFromMs: number };

export interface VenueEventMap {
  /** Own fills, delivered as soon as the venue reports them (the hedge trigger). */
  fill: VenueFill;
  /** Own order state changes. */
  order: VenueOrder;
  /** Top of book and depth of each subscribed market after every applied update. */
  book: BookUpdate;
  connection: ConnectionEvent;
  /**
   * Requests the client sent for an order outside any call (so unpaid by
   * `payingRequests`): a live client without a fill stream reads an order's
   * fills when its filled size grows, at once, since that fill is what the
   * hedge waits for. The venue counts them against the account's limit: the
   * caller charges them to the order's owner afterwards.
   */
  unpaid: UnpaidRequests;
}

/** `requests` sent on behalf of the order `clientOrderId` that no call paid for. */
export interface UnpaidRequests {
  clientOrderId: string;
  requests: number;
  /** Budget tokens they cost (what the venue weighs them). */
  tokens: number;
}

export type VenueEventType = keyof VenueEventMap;
export type Unsubscribe = () => void;

/**
 * The one port every venue implements (paper simulator and live ccxt), with
 * one conformance suite for all (`runVenueConformance`).
 *
 * Listeners are called synchronously from the socket handler, so a fill
 * reaches the hedge logic with nothing queued in between; a listener must not
 * block. Every method rejects with a `VenueError` subclass.
 */
export interface VenueClient {
  readonly venue: string;
  /**
   * Requests of the account's rate limit one `replace` uses: 1 where the
   * venue cancels and places in one request, 2 where it takes two.
   */
  readonly replaceRequestCost: number;
  /**
   * Whether a call may send requests beyond its own (a live client reading a
   * queued order until the venue acted on it): a caller metering the account
   * then runs it under `payingRequests`, so each one waits for a token first.
   */
  readonly sendsFollowUpRequests: boolean;
  /**
   * Whether the client reads an order's fills of its own accord, unpaid, when
   * its filled size grows (a live venue without a fill stream; `unpaid`
   * events): a caller metering the account keeps rate back to pay for them.
   */
  readonly unpaidFillReads: boolean;
  /**
   * Requests of the account's rate limit the next `connect` sends (a live
   * client's one-time credential probe: 1 until it has passed, then 0): a
   * caller metering the account pays them before it connects.
   */
  requestsToConnect(): number;
  /**
   * How long after it is sent an order request may still take effect on the
   * venue (its expiry there, plus the margin of `settlesByMs`); null when the
   * venue gives no bound. A worker taking over a dead worker's trade waits
   * this long past the dead lease before it trusts what the venue shows.
   */
  readonly orderRequestLifetimeMs: number | null;
  /**
   * The venue's own dead-man switch over the account (it cancels every
   * order of the account when not pushed forward in time), or null where
   * the venue has none this client can use.
   */
  readonly deadManSwitch: DeadManSwitch | null;

  /**
   * What is left of the account's cumulative request budget, where the venue
   * keeps one that never resets (Hyperliquid's address budget, Lighter's
   * volume quota): the venue's latest word, or null when it has told
   * nothing yet, or keeps no such budget (a paper venue). A live client may
   * send a request of the account to ask (Hyperliquid's `userRateLimit`): a
   * caller metering the account pays for it as for any call.
   */
  cumulativeBudget?(): Promise<CumulativeBudget | null>;

  /** Opens streams (own orders and fills) and loads markets. Idempotent. */
  connect(): Promise<void>;
  /**
   * Readies the client for reads only (positions, balances): markets loaded
   * and the account known, no stream opened and no credential probe sent,
   * so a reader that places no order costs the account nothing more. Idempotent.
   */
  connectForReads(): Promise<void>;
  /** Stops reconnecting and closes every stream. */
  close(): Promise<void>;

  on<K extends VenueEventType>(type: K, listener: (event: VenueEventMap[K]) => void): Unsubscribe;

  /** The venue's perpetual markets, mapped to canonical symbols. */
  markets(): Promise<VenueMarket[]>;
  /** Starts the book stream of one venue symbol; `book` events follow. */
  subscribeBook(symbol: string): Promise<void>;
  unsubscribeBook(symbol: string): Promise<void>;

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck>;
  placeIoc(request: PlaceOrderRequest): Promise<OrderAck>;
  cancel(target: CancelTarget): Promise<CancelResult>;
  /**
   * Cancels the target and places `next` (post-only). Nothing is placed
   * (`placed` absent) when the cancel finds the order already closed, or
   * when it had filled other than `expectedFilledSize`: the caller decides
   * with the fill in hand. A refusal of `next` comes back as `placeError`.
   */
  replace(request: ReplaceRequest): Promise<ReplaceResult>;

  /**
   * Where the venue takes several of the account's orders in one request,
   * and the client sends them so: post-only placements and cancels, each
   * order answered as its own call would be. Absent elsewhere.
   */
  readonly batch?: OrderBatch;

  /** One order by client order id (crash recovery); UnknownOrderError when the venue never saw it. */
  order(target: CancelTarget): Promise<VenueOrder>;
  openOrders(symbol?: string): Promise<VenueOrder[]>;
  /**
   * Own fills at or after `timestampMs`, oldest first; of one market when
   * `symbol` is given (some venues, e.g. Aster, list fills per market only:
   * without a symbol they are read for every market the client traded).
   */
  fillsSince(timestampMs: number, symbol?: string): Promise<VenueFill[]>;
  /**
   * The account's funding payments settled at or after `timestampMs`, oldest
   * first, every market (a venue that pages them is read page by page). A
   * venue that answers one market per request (Paradex) reads the markets
   * held now, those this client traded and `markets` (canonical: what the
   * caller knows the account held since), so a position closed since is
   * still read.
   */
  fundingPayments(timestampMs: number, markets?: readonly string[]): Promise<VenueFundingPayment[]>;
  positions(): Promise<VenuePosition[]>;
  balances(): Promise<VenueBalance[]>;
}

/**
 * A venue's batched order requests (Hyperliquid: one `order` action of many
 * orders, one `cancel` action of many cancels, each weighing 1 + floor(n /
 * 40) of the egress's per-IP limit; Aster's and Paradex's batch endpoints).
 * Every order is answered in the order given, as `placePostOnly` or `cancel`
 * would answer it alone: a refusal of one order is that order's answer; a
 * request that failed is every order's. More orders than one request takes
 * go in several.
 */
export interface OrderBatch {
  /** The most orders one request carries at the cost of one. */
  readonly maxOrders: number;
  /**
   * The fewest post-only placements worth one request: fewer weigh more of
   * the venue's limits batched than each alone (Aster weighs a batch 5
   * whatever it carries, a placement 1); 2 where a batch weighs what one
   * order does.
   */
  readonly minPlacements: number;
  placePostOnly(requests: readonly PlaceOrderRequest[]): Promise<Array<BatchAnswer<OrderAck>>>;
  cancel(targets: readonly CancelTarget[]): Promise<Array<BatchAnswer<CancelResult>>>;
}

/**
 * An account's cumulative request budget as its venue last told it: the
 * requests it may still send (actions on Hyperliquid, quota-spending
 * transactions on Lighter) before the venue slows it to its spent pace.
 */
export interface CumulativeBudget {
  /** Requests left; 0 or less once spent (Hyperliquid counts past its cap). */
  left: number;
  /** When the venue said so (epoch ms). */
  atMs: number;
  /** The pace once spent: one request every `spentPaceMs` (Hyperliquid 10 s, Lighter 15 s). */
  spentPaceMs: number;
}

/** What arming a dead-man switch did. */
export type DeadManArming =
  /** The venue cancels the account's orders at `cancelsAtMs` (epoch ms) unless armed again. */
  | { armed: true; cancelsAtMs: number }
  /** The venue refused it (e.g. Hyperliquid's volume rule, a daily trigger count): why, its words. */
  | { armed: false; reason: string };

/**
 * A venue's dead-man switch for one account: armed (and pushed forward) by
 * every worker that holds resting orders there, so that the venue itself
 * takes the orders down a set time after the last worker stopped.
 */
export interface DeadManSwitch {
  /** The shortest timeout the venue accepts. */
  readonly minTimeoutMs: number;
  /** Arms it, or pushes it forward: cancel everything `timeoutMs` from now unless armed again. */
  arm(timeoutMs: number): Promise<DeadManArming>;
  /** Takes it off (nothing of the account rests for the service any more). */
  disarm(): Promise<void>;
}

import {
  beforeVenueRequest,
  type CancelResult,
  type CancelTarget,
  type DeadManArming,
  type DeadManSwitch,
  type OrderAck,
  type PlaceOrderRequest,
  type ReplaceRequest,
  type ReplaceResult,
  type Unsubscribe,
  type VenueClient,
  type VenueEventMap,
  type VenueEventType,
  type VenueFill,
  type VenueOrder,
} from '@sts/venues';

/** The requests a trade makes of its venues, each answered by the spec when it chooses. */
export interface RequestMap {
  placePostOnly: { args: PlaceOrderRequest; answer: OrderAck };
  placeIoc: { args: PlaceOrderRequest; answer: OrderAck };
  cancel: { args: CancelTarget; answer: CancelResult };
  replace: { args: ReplaceRequest; answer: ReplaceResult };
  order: { args: CancelTarget; answer: VenueOrder };
  openOrders: { args: string | undefined; answer: VenueOrder[] };
  fillsSince: { args: { timestampMs: number; symbol?: string }; answer: VenueFill[] };
}

export type RequestKind = keyof RequestMap;

/** One request at the venue: the spec resolves it, rejects it, or leaves it hanging. */
export interface PendingRequest<K extends RequestKind = RequestKind> {
  kind: K;
  args: RequestMap[K]['args'];
  answered: boolean;
  answer(value: RequestMap[K]['answer']): void;
  fail(error: unknown): void;
}

/**
 * An in-memory venue whose every request waits for the spec to answer it:
 * the order of events (a fill before or after a cancel's answer, an answer
 * lost, a request that hangs) is the spec's to choose, with nothing left to
 * timing. Streams (`fill`, `order`) are pushed by the spec the same way a
 * venue's socket delivers them: synchronously to the listeners.
 */
export class ScriptedVenue implements VenueClient {
  /** A live client's (true) announces each request it sends (`beforeVenueRequest`). */
  sendsFollowUpRequests = false;
  /** Set by a spec to stand for a live client without a fill stream. */
  unpaidFillReads = false;
  /** What `requestsToConnect` answers (a live client's credential probe: 1). */
  connectRequests = 0;
  /**
   * The weight of each request `connect` sends, announced as a live client
   * announces its HTTP requests (`beforeVenueRequest`): a Hyperliquid
   * connect asks `userAbstraction` (20) before its probe (1).
   */
  connectSends: number[] = [];
  readonly requests: PendingRequest[] = [];
  private readonly listeners = new Map<VenueEventType, Set<(event: unknown) => void>>();
  private waiters: Array<() => void> = [];

  constructor(
    readonly venue: string,
    readonly replaceRequestCost = 1,
    readonly orderRequestLifetimeMs: number | null = 5_000,
  ) {}

  /** None by default; a spec gives the venue one (`new ScriptedDeadMan()`). */
  deadManSwitch: DeadManSwitch | null = null;

  /** How often `connect` ran. */
  connects = 0;

  requestsToConnect(): number {
    return this.connects === 0 ? this.connectRequests : 0;
  }

  async connect(): Promise<void> {
    this.connects += 1;
    for (const tokens of this.connectSends) {
      await beforeVenueRequest(tokens);
    }
  }

  connectForReads(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  on<K extends VenueEventType>(type: K, listener: (event: VenueEventMap[K]) => void): Unsubscribe {
    const set = this.listeners.get(type) ?? new Set();
    this.listeners.set(type, set);
    set.add(listener as (event: unknown) => void);
    return () => set.delete(listener as (event: unknown) => void);
  }

  /** Delivers a stream event to the listeners, as the venue's socket would. */
  emit<K extends VenueEventType>(type: K, event: VenueEventMap[K]): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(event);
    }
  }

  markets(): Promise<never> {
    return Promise.reject(new Error('ScriptedVenue has no markets'));
  }

  subscribeBook(): Promise<void> {
    return Promise.resolve();
  }

  unsubscribeBook(): Promise<void> {
    return Promise.resolve();
  }

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.request('placePostOnly', request);
  }

  placeIoc(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.request('placeIoc', request);
  }

  cancel(target: CancelTarget): Promise<CancelResult> {
    return this.request('cancel', target);
  }

  replace(request: ReplaceRequest): Promise<ReplaceResult> {
    return this.request('replace', request);
  }

  order(target: CancelTarget): Promise<VenueOrder> {
    return this.request('order', target);
  }

  openOrders(symbol?: string): Promise<VenueOrder[]> {
    return this.request('openOrders', symbol);
  }

  fillsSince(timestampMs: number, symbol?: string): Promise<VenueFill[]> {
    return this.request('fillsSince', { timestampMs, ...(symbol ? { symbol } : {}) });
  }

  fundingPayments(): Promise<never[]> {
    return Promise.resolve([]);
  }

  positions(): Promise<never[]> {
    return Promise.resolve([]);
  }

  balances(): Promise<never[]> {
    return Promise.resolve([]);
  }

  /** The requests of a kind not answered yet, oldest first. */
  open<K extends RequestKind>(kind: K): Array<PendingRequest<K>> {
    return this.requests.filter(
      (request): request is PendingRequest<K> => request.kind === kind && !request.answered,
    );
  }

  /** The oldest unanswered request of `kind`; throws when there is none (the spec expected one). */
  next<K extends RequestKind>(kind: K): PendingRequest<K> {
    const [request] = this.open(kind);
    if (!request) {
      const made = this.requests.map((r) => `${r.kind}${r.answered ? ' (answered)' : ''}`);
      throw new Error(`no ${kind} request is waiting; requests: ${made.join(', ') || 'none'}`);
    }
    return request;
  }

  count(kind: RequestKind): number {
    return this.requests.filter((request) => request.kind === kind).length;
  }

  /** Resolves when a request of `kind` is waiting (microtasks and fake timers allowing). */
  async waitFor<K extends RequestKind>(kind: K, turns = 50): Promise<PendingRequest<K>> {
    for (let turn = 0; turn < turns; turn += 1) {
      const [request] = this.open(kind);
      if (request) {
        return request;
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        queueMicrotask(resolve);
      });
    }
    return this.next(kind);
  }

  private request<K extends RequestKind>(
    kind: K,
    args: RequestMap[K]['args'],
  ): Promise<RequestMap[K]['answer']> {
    return new Promise((resolve, reject) => {
      const pending: PendingRequest<K> = {
        kind,
        args,
        answered: false,
        answer: (value) => {
          pending.answered = true;
          resolve(value);
        },
        fail: (error) => {
          pending.answered = true;
          reject(error);
        },
      };
      this.requests.push(pending as unknown as PendingRequest);
      for (const wake of this.waiters.splice(0)) {
        wake();
      }
    });
  }
}

/** How the scripted switch answers the next armings: armed, refused (the venue's words), or a failure. */
export type DeadManAnswer = 'arm' | { refuse: string } | { fail: Error };

/**
 * A venue's dead-man switch whose answers the spec scripts: every arming and
 * disarming is recorded (with the time it reached the venue), and the venue
 * answers with `answer` (armed by default, `cancelsAtMs` the timeout from now).
 */
export class ScriptedDeadMan implements DeadManSwitch {
  /** The timeouts armed with, and when (Date.now()), oldest first. */
  readonly armings: Array<{ timeoutMs: number; atMs: number }> = [];
  /** When each disarming reached the venue. */
  readonly disarmings: number[] = [];
  answer: DeadManAnswer = 'arm';
  /** What the venue weighs an arming, in budget tokens, announced as a live client does. */
  armingTokens = 1;

  constructor(readonly minTimeoutMs = 5_000) {}

  async arm(timeoutMs: number): Promise<DeadManArming> {
    await beforeVenueRequest(this.armingTokens);
    const atMs = Date.now();
    this.armings.push({ timeoutMs, atMs });
    const answer = this.answer;
    if (answer === 'arm') {
      return { armed: true, cancelsAtMs: atMs + timeoutMs };
    }
    if ('refuse' in answer) {
      return { armed: false, reason: answer.refuse };
    }
    throw answer.fail;
  }

  disarm(): Promise<void> {
    this.disarmings.push(Date.now());
    return Promise.resolve();
  }
}

let orderNumber = 0;

/** The venue's copy of an order placed by `request`, as it stands after `filledSize` filled. */
export function venueOrder(
  request: PlaceOrderRequest,
  filledSize: string,
  status: VenueOrder['status'],
  type: VenueOrder['type'] = 'ioc',
): VenueOrder {
  orderNumber += 1;
  return {
    exchange: 'scripted',
    symbol: request.symbol,
    market: 'BTC',
    orderId: `order-${orderNumber}`,
    clientOrderId: request.clientOrderId,
    side: request.side,
    type,
    price: request.price,
    size: request.size,
    filledSize,
    ...(Number(filledSize) > 0 ? { averagePrice: request.price } : {}),
    status,
    createdAtMs: Date.now(),
    updatedAtMs: Date.now(),
  };
}

/** An IOC's answer: `filledSize` of it filled, the rest canceled. */
export function iocAck(request: PlaceOrderRequest, filledSize: string): OrderAck {
  const full = Number(filledSize) >= Number(request.size);
  return {
    order: venueOrder(request, filledSize, full || Number(filledSize) > 0 ? 'filled' : 'canceled'),
    fills: [],
    duplicate: false,
  };
}

import { AsyncResource } from 'node:async_hooks';
import {
  payAtOnceIfAble,
  payInAdvance,
  replaceInTwoRequests,
  sentInAnotherCallsBatch,
  unspentInAdvance,
  type BatchAnswer,
  type CancelResult,
  type CancelTarget,
  type OrderAck,
  type OrderBatch,
  type PlaceOrderRequest,
  type VenueClient,
} from '@sts/venues';
import { interceptedClient } from './intercepted-client';

/** A request waiting for its batch, and who waits for its answer. */
interface Held<R, A> {
  request: R;
  resolve: (answer: A) => void;
  reject: (error: unknown) => void;
  /** The caller's async context: a batch is sent, and its reads paid, as its first caller's. */
  scope: AsyncResource;
}

/** Which of an account's batches a request goes in: its placements' or its cancels'. */
export type BatchKind = 'place' | 'cancel';

/**
 * An account's batch windows as its trades see them: a trade whose budget
 * is empty may send its request in a batch another trade's request opened
 * and pays for (a Hyperliquid action weighs one request up to 39 orders),
 * instead of waiting for a token of its own.
 */
export interface BatchWindows {
  /**
   * Resolves when a batch of `kind` is open (at once when one is), where a
   * request sent then rides in it at no cost to its trade; null where that
   * kind of batch weighs more than one request (Aster's placements), so
   * nobody rides.
   */
  next(kind: BatchKind, signal: AbortSignal): Promise<void> | null;
  /** Whether a batch of `kind` that takes riders is open now (`next` would resolve at once). */
  isOpen(kind: BatchKind): boolean;
}

/**
 * One account's post-only placements and cancels, the first held
 * `windowMs` for others, then all sent together as the venue's batched
 * request (`VenueClient.batch`), so the re-quotes of the account's trades
 * after one book move cost one request, not one each (the worker runs each
 * trade's step in a slice of its own: one turn holds one trade's). A
 * request alone in its window goes as it always did; a hedge's IOC never
 * comes here.
 * Each caller gets its own order's answer, as from its own call.
 *
 * A caller has paid its own request's tokens before asking, or rides
 * (`BatchWindows`): it asked in a window another caller opened, with
 * nothing paid. A batch is sent in the async context of a caller that can
 * pay for it at once (paid in advance, or a token there now), so what the
 * client sends beyond it (a read of an order's fate) is paid from that
 * trade's budget, as any of its own calls'; when none can, its requests
 * wait together for the first token among their callers (`WaitingForAPayer`).
 */
export class OrderBatcher implements BatchWindows {
  private places: Array<Held<PlaceOrderRequest, OrderAck>> = [];
  private cancels: Array<Held<CancelTarget, CancelResult>> = [];
  /** Who waits for the next window of each kind. */
  private readonly opening: Record<BatchKind, Set<() => void>> = {
    place: new Set(),
    cancel: new Set(),
  };
  /** Requests no caller could pay for at once, waiting for the first of their tokens. */
  private readonly placesUnpaid = new WaitingForAPayer<PlaceOrderRequest, OrderAck>((chunk) =>
    this.sendPlaces(chunk),
  );
  private readonly cancelsUnpaid = new WaitingForAPayer<CancelTarget, CancelResult>((chunk) =>
    this.sendCancels(chunk),
  );

  constructor(
    private readonly client: VenueClient,
    private readonly batch: OrderBatch,
    /** How long the first request of a batch waits for others (WORKER_ORDER_BATCH_MS). */
    private readonly windowMs: number,
  ) {}

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.hold(this.places, request, 'place', this.placesUnpaid);
  }

  cancel(target: CancelTarget): Promise<CancelResult> {
    return this.hold(this.cancels, target, 'cancel', this.cancelsUnpaid);
  }

  next(kind: BatchKind, signal: AbortSignal): Promise<void> | null {
    if (kind === 'place' && !this.placementsWeighOne) {
      return null;
    }
    // A batch of the kind is open now (held, or waiting for a payer): ride in this one.
    if (this.isOpen(kind)) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        this.opening[kind].delete(waiter);
        reject(signal.reason);
      };
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.opening[kind].add(waiter);
    });
  }

  isOpen(kind: BatchKind): boolean {
    if (kind === 'place') {
      return this.placementsWeighOne && (this.places.length > 0 || this.placesUnpaid.size > 0);
    }
    return this.cancels.length > 0 || this.cancelsUnpaid.size > 0;
  }

  /** A placement batch weighs one request where 2 are worth one (Hyperliquid); Aster's weighs 5. */
  private get placementsWeighOne(): boolean {
    return this.batch.minPlacements <= 2;
  }

  private hold<R, A>(
    queue: Array<Held<R, A>>,
    request: R,
    kind: BatchKind,
    unpaid: WaitingForAPayer<R, A>,
  ): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      const windowOpen = this.places.length + this.cancels.length > 0;
      const kindOpen = queue.length > 0;
      queue.push({ request, resolve, reject, scope: new AsyncResource('sts.order-batch') });
      if (unpaid.size > 0) {
        // Those waiting for a payer go in this batch: its caller may pay for them all.
        queue.push(...unpaid.take());
      }
      // The first request held starts the window; the flush empties both queues.
      if (!windowOpen) {
        setTimeout(() => this.flush(), this.windowMs);
      }
      if (!kindOpen) {
        this.opened(kind);
      }
    });
  }

  /** A batch of `kind` opened: whoever waits for one may send in it now. */
  private opened(kind: BatchKind): void {
    const waiters = [...this.opening[kind]];
    this.opening[kind].clear();
    for (const waiter of waiters) {
      waiter();
    }
  }

  private flush(): void {
    const { places, cancels } = this;
    this.places = [];
    this.cancels = [];
    for (const chunk of chunksOf(cancels, this.batch.maxOrders)) {
      this.sendCancels(chunk);
    }
    for (const chunk of chunksOf(places, this.batch.maxOrders)) {
      this.sendPlaces(chunk);
    }
  }

  private sendCancels(chunk: Array<Held<CancelTarget, CancelResult>>): void {
    this.send(
      chunk,
      (target) => this.client.cancel(target),
      (targets) => this.batch.cancel(targets),
      this.cancelsUnpaid,
    );
  }

  private sendPlaces(chunk: Array<Held<PlaceOrderRequest, OrderAck>>): void {
    this.send(
      chunk,
      (request) => this.client.placePostOnly(request),
      (requests) => this.batch.placePostOnly(requests),
      this.placesUnpaid,
      this.batch.minPlacements,
      this.placementsWeighOne,
    );
  }

  /**
   * The chunk as one batched request, or each request alone, in its own
   * caller's context, where the chunk has fewer than `fewest` (a batch of
   * fewer weighs more than they paid for: Aster's placements). Where the
   * batch weighs one request (`weighsOne`), the token each caller after the
   * first paid goes back to its trade once its answer came.
   */
  private send<R, A>(
    chunk: Array<Held<R, A>>,
    alone: (request: R) => Promise<A>,
    together: (requests: R[]) => Promise<Array<BatchAnswer<A>>>,
    unpaid: WaitingForAPayer<R, A>,
    fewest = 2,
    weighsOne = true,
  ): void {
    const payer = weighsOne ? payerOf(chunk) : chunk[0];
    if (!payer) {
      // Nobody can pay now: they wait together for the first token among them.
      for (const held of chunk) {
        unpaid.add(held);
      }
      return;
    }
    if (chunk.length < Math.max(2, fewest)) {
      for (const held of chunk) {
        held.scope.runInAsyncScope(() => alone(held.request)).then(held.resolve, held.reject);
      }
      return;
    }
    if (weighsOne) {
      for (const held of chunk) {
        if (held !== payer) {
          held.scope.runInAsyncScope(sentInAnotherCallsBatch);
        }
      }
    }
    payer.scope
      .runInAsyncScope(() => together(chunk.map((held) => held.request)))
      .then(
        (answers) =>
          chunk.forEach((held, index) => {
            const answer = answers[index];
            if (answer?.ok) {
              held.resolve(answer.value);
            } else {
              held.reject(answer ? answer.error : new Error('the batch answered no order here'));
            }
          }),
        (error: unknown) => chunk.forEach((held) => held.reject(error)),
      );
  }
}

/**
 * The caller a batch of one request's weight (or a request alone) goes
 * for: one that paid in advance what it has not spent, else one whose
 * budget holds a token now (taken for it); none when no caller can pay at
 * once. A caller that rode in (nothing paid) never holds up a batch
 * another could pay at once.
 */
function payerOf<R, A>(chunk: Array<Held<R, A>>): Held<R, A> | undefined {
  return (
    chunk.find((held) => held.scope.runInAsyncScope(unspentInAdvance) >= 1) ??
    chunk.find((held) => held.scope.runInAsyncScope(() => payAtOnceIfAble(1)))
  );
}

/**
 * Requests of one kind whose callers could not pay when their batch (or
 * they alone) would have gone: they wait together for the first of their
 * callers' tokens, then go as one batch paid by it, instead of each going
 * alone once its own token came. A request of their kind held meanwhile
 * takes them into its batch (`take`). A caller whose budget fails its wait
 * (closed, the trade ended) is answered with that failure.
 */
class WaitingForAPayer<R, A> {
  private members: Array<Held<R, A>> = [];
  private stop = new AbortController();

  constructor(private readonly go: (chunk: Array<Held<R, A>>) => void) {}

  get size(): number {
    return this.members.length;
  }

  add(held: Held<R, A>): void {
    this.members.push(held);
    const { stop } = this;
    held.scope
      .runInAsyncScope(() => payInAdvance(1, stop.signal))
      .then(
        () => {
          // The first paid: all go now, in its context (it paid in advance).
          if (this.stop === stop) {
            this.go(this.take());
          }
        },
        (error: unknown) => {
          if (!stop.signal.aborted) {
            this.members = this.members.filter((member) => member !== held);
            held.reject(error);
          }
        },
      );
  }

  /** Every member, their waits for payment given up (they go in a batch now). */
  take(): Array<Held<R, A>> {
    const members = this.members;
    this.members = [];
    this.stop.abort();
    this.stop = new AbortController();
    return members;
  }
}

function chunksOf<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += Math.max(1, size)) {
    chunks.push(items.slice(start, start + Math.max(1, size)));
  }
  return chunks;
}

/**
 * The account's client with its post-only placements and cancels batched
 * where the venue takes batches (a replace is the client's cancel and
 * placement, so both halves batch too); the client itself elsewhere, and
 * with a negative window (batching off).
 */
export function batchingClient(client: VenueClient, windowMs: number): VenueClient {
  const batch = client.batch;
  if (!batch || client.replaceRequestCost !== 2 || windowMs < 0) {
    return client;
  }
  const batcher = new OrderBatcher(client, batch, windowMs);
  const methods = new Map<PropertyKey, unknown>();
  const wrapped = interceptedClient(client, methods, () => client.deadManSwitch);
  methods.set('placePostOnly', (request: PlaceOrderRequest) => batcher.placePostOnly(request));
  methods.set('cancel', (target: CancelTarget) => batcher.cancel(target));
  methods.set('replace', (request: Parameters<VenueClient['replace']>[0]) =>
    replaceInTwoRequests(wrapped, request),
  );
  windowsOf.set(wrapped, batcher);
  return wrapped;
}

const windowsOf = new WeakMap<VenueClient, BatchWindows>();

/** The batch windows of a client `batchingClient` made; null for any other (nothing batches). */
export function batchWindows(client: VenueClient): BatchWindows | null {
  return windowsOf.get(client) ?? null;
}

import { AsyncResource } from 'node:async_hooks';
import {
  replaceInTwoRequests,
  sentInAnotherCallsBatch,
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
 * Every caller has paid its own request's tokens before asking: the batch
 * is sent in the async context of its first caller, so what the client
 * sends beyond it (a read of an order's fate) is paid from that trade's
 * budget, as any of its own calls'.
 */
export class OrderBatcher {
  private places: Array<Held<PlaceOrderRequest, OrderAck>> = [];
  private cancels: Array<Held<CancelTarget, CancelResult>> = [];

  constructor(
    private readonly client: VenueClient,
    private readonly batch: OrderBatch,
    /** How long the first request of a batch waits for others (WORKER_ORDER_BATCH_MS). */
    private readonly windowMs: number,
  ) {}

  placePostOnly(request: PlaceOrderRequest): Promise<OrderAck> {
    return this.hold(this.places, request);
  }

  cancel(target: CancelTarget): Promise<CancelResult> {
    return this.hold(this.cancels, target);
  }

  private hold<R, A>(queue: Array<Held<R, A>>, request: R): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      queue.push({ request, resolve, reject, scope: new AsyncResource('sts.order-batch') });
      // The first request held starts the window; the flush empties both queues.
      if (this.places.length + this.cancels.length === 1) {
        setTimeout(() => this.flush(), this.windowMs);
      }
    });
  }

  private flush(): void {
    const { places, cancels } = this;
    this.places = [];
    this.cancels = [];
    for (const chunk of chunksOf(cancels, this.batch.maxOrders)) {
      this.send(
        chunk,
        (target) => this.client.cancel(target),
        (targets) => this.batch.cancel(targets),
      );
    }
    // A placement batch weighs one request where 2 are worth one (Hyperliquid);
    // Aster's weighs 5, what its five callers paid.
    const placementsWeighOne = this.batch.minPlacements <= 2;
    for (const chunk of chunksOf(places, this.batch.maxOrders)) {
      this.send(
        chunk,
        (request) => this.client.placePostOnly(request),
        (requests) => this.batch.placePostOnly(requests),
        this.batch.minPlacements,
        placementsWeighOne,
      );
    }
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
    fewest = 2,
    weighsOne = true,
  ): void {
    const first = chunk[0]!;
    if (chunk.length < Math.max(2, fewest)) {
      for (const held of chunk) {
        held.scope.runInAsyncScope(() => alone(held.request)).then(held.resolve, held.reject);
      }
      return;
    }
    if (weighsOne) {
      for (const held of chunk.slice(1)) {
        held.scope.runInAsyncScope(sentInAnotherCallsBatch);
      }
    }
    first.scope
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
  return wrapped;
}

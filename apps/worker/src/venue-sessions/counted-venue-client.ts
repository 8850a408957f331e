import {
  type DeadManSwitch,
  type OrderBatch,
  isVenueError,
  RateLimitedError,
  type SentVenueRequest,
  VenueNetworkError,
  type VenueClient,
} from '@sts/venues';
import { interceptedClient } from './intercepted-client';
import type { VenueAnswerTimes } from './venue-answer-times';

/** The VenueClient methods that are requests against the account's rate limit. */
const REQUESTS = [
  'markets',
  'placePostOnly',
  'placeIoc',
  'cancel',
  'replace',
  'order',
  'openOrders',
  'fillsSince',
  'positions',
  'balances',
] as const satisfies ReadonlyArray<keyof VenueClient>;

/** Not timed: a client may answer the market list from what it loaded before. */
const UNTIMED: ReadonlySet<string> = new Set(['markets']);

/** The counts of one venue's requests of one operation (labels resolved once, not per request). */
export interface VenueRequestCount {
  request(): void;
  rateLimited(): void;
}

export interface VenueRequestCounter {
  venueRequestCount(exchange: string, operation: string): VenueRequestCount;
  /** One HTTP request a live client sent, by kind and weight, paid by a trade's budget or not. */
  venueRequestSent?(exchange: string, request: SentVenueRequest): void;
}

/**
 * The client with its requests counted per venue and operation, and the
 * venue's 429s (RateLimitedError) too. The count is one increment before the
 * call goes through unchanged (the hedge's IOC is sent in the same tick); a
 * refusal is counted from a listener on the same promise, and so is the time
 * the venue took to answer (`answers`: a refusal is an answer, a request that
 * failed without one is not). The reads a client sends of its own accord for
 * an order (`unpaid` events) are counted as `fill_read`.
 */
export function countedVenueClient(
  client: VenueClient,
  exchange: string,
  counter: VenueRequestCounter,
  answers?: VenueAnswerTimes,
): VenueClient {
  const counted = new Map<PropertyKey, unknown>();
  for (const operation of REQUESTS) {
    const call = (client[operation] as (...args: unknown[]) => Promise<unknown>).bind(client);
    const count = counter.venueRequestCount(exchange, operation);
    const timed = UNTIMED.has(operation) ? undefined : answers;
    counted.set(operation, (...args: unknown[]) => {
      count.request();
      const sentAt = performance.now();
      const answer = call(...args);
      answer.then(
        () => timed?.record(exchange, performance.now() - sentAt),
        (error: unknown) => {
          if (error instanceof RateLimitedError) {
            count.rateLimited();
          }
          if (isVenueError(error) && !(error instanceof VenueNetworkError)) {
            timed?.record(exchange, performance.now() - sentAt);
          }
        },
      );
      return answer;
    });
  }
  const batch = countedBatchOf(client, exchange, counter);
  if (batch) {
    counted.set('batch', batch);
  }
  const countedSwitch = countedDeadManOf(client, exchange, counter);
  // Reads the client sent at once for an order's fills count as requests too.
  const fillReads = counter.venueRequestCount(exchange, 'fill_read');
  client.on('unpaid', (spent) => {
    for (let i = 0; i < spent.requests; i += 1) {
      fillReads.request();
    }
  });
  return interceptedClient(client, counted, countedSwitch);
}

/** The client's switch, counted: read when asked (a client may learn it late), wrapped once per switch. */
function countedDeadManOf(
  client: VenueClient,
  exchange: string,
  counter: VenueRequestCounter,
): () => DeadManSwitch | null {
  let last: { of: DeadManSwitch | null; counted: DeadManSwitch | null } | undefined;
  return () => {
    if (!last || last.of !== client.deadManSwitch) {
      const of = client.deadManSwitch;
      last = { of, counted: countedDeadMan(of, exchange, counter) };
    }
    return last.counted;
  };
}

/** The switch's armings and disarmings counted as requests (`dead_man_arm`, `dead_man_disarm`). */
function countedDeadMan(
  deadMan: DeadManSwitch | null,
  exchange: string,
  counter: VenueRequestCounter,
): DeadManSwitch | null {
  if (!deadMan) {
    return null;
  }
  const arms = counter.venueRequestCount(exchange, 'dead_man_arm');
  const disarms = counter.venueRequestCount(exchange, 'dead_man_disarm');
  return {
    minTimeoutMs: deadMan.minTimeoutMs,
    arm: (timeoutMs) => {
      arms.request();
      return deadMan.arm(timeoutMs);
    },
    disarm: () => {
      disarms.request();
      return deadMan.disarm();
    },
  };
}

/** The client's batched requests, each counted once (the venue sees one request): `placePostOnlyBatch`, `cancelBatch`. */
function countedBatchOf(
  client: VenueClient,
  exchange: string,
  counter: VenueRequestCounter,
): OrderBatch | undefined {
  const batch = client.batch;
  if (!batch) {
    return undefined;
  }
  const places = counter.venueRequestCount(exchange, 'placePostOnlyBatch');
  const cancels = counter.venueRequestCount(exchange, 'cancelBatch');
  return {
    maxOrders: batch.maxOrders,
    minPlacements: batch.minPlacements,
    placePostOnly: (requests) => {
      places.request();
      return batch.placePostOnly(requests);
    },
    cancel: (targets) => {
      cancels.request();
      return batch.cancel(targets);
    },
  };
}

import type { Order } from 'ccxt';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { CreateArgs } from './create-order-args';

/** One order of a batched request: what ccxt parses of its answer, or the error ccxt raises for it. */
export type ElementAnswer<T> = { value: T } | { error: unknown };

/** A post-only placement of a batch, as ccxt's createOrder takes it. */
export interface BatchPlacement {
  unified: string;
  args: CreateArgs;
}

/** A cancel of a batch: the venue's order id and its market. */
export interface BatchCancel {
  orderId: string;
  unified: string;
}

/** What one batched request carries of the request's expiry, and how an order it left out is answered. */
export interface BatchExpiry {
  /** When the request was stamped: its life counts from here. */
  sentAtMs: number;
  /** The expiry itself (ms epoch), where the venue signs one into the request (Hyperliquid). */
  expiresAtMs: number;
  /** The parameters that set the expiry through ccxt's own call (Aster's recvWindow, Paradex's recv_window). */
  params: Record<string, unknown>;
  /** The answer of an order the venue's answer says nothing of: its fate unknown. */
  missing: () => unknown;
}

/** How a venue's batch is cut into requests. */
export interface RequestSplit<E> {
  /** The most orders one request carries. */
  readonly max: number;
  /** What the orders of one request must share (Aster's cancels: one market a request). */
  readonly sameRequest?: (entry: E) => string;
}

/**
 * Whether the instance has every one of ccxt's building blocks `names` (the
 * live client sends a venue's own request with them; a test's scripted
 * exchange may have none).
 */
export function hasBlocks<Blocks>(
  ...names: ReadonlyArray<keyof Blocks & string>
): (exchange: CcxtExchangeLike) => boolean {
  return (exchange) => {
    const blocks = exchange as unknown as Partial<Record<string, unknown>>;
    return names.every((name) => typeof blocks[name] === 'function');
  };
}

/**
 * A venue's batched order requests through ccxt 4.5.84, each order answered
 * as ccxt's single call would answer it: its order, or the error ccxt raises
 * for the same refusal of that order alone.
 */
export interface VenueBatchRequests {
  readonly placements: RequestSplit<BatchPlacement>;
  readonly cancels: RequestSplit<BatchCancel>;
  /**
   * The fewest placements worth a batched request: fewer weigh more of the
   * venue's limits batched than sent alone (Aster weighs a batch 5 whatever
   * it carries, a placement 1).
   */
  readonly minPlacements: number;
  /** Whether the instance has the calls (a test's scripted exchange may not). */
  sends(exchange: CcxtExchangeLike): boolean;
  createOrders(
    exchange: CcxtExchangeLike,
    entries: readonly BatchPlacement[],
    expiry: BatchExpiry,
  ): Promise<Array<ElementAnswer<Order>>>;
  cancelOrders(
    exchange: CcxtExchangeLike,
    entries: readonly BatchCancel[],
    expiry: BatchExpiry,
  ): Promise<Array<ElementAnswer<true>>>;
}

/**
 * Sends `entries` as few requests as `split` allows (all at once), and
 * answers each entry in the order given: from its own request's answer, a
 * request that failed being every one of its orders' failure.
 */
export async function inRequests<E, T>(
  entries: readonly E[],
  split: RequestSplit<E>,
  send: (group: E[]) => Promise<Array<ElementAnswer<T>>>,
): Promise<Array<ElementAnswer<T>>> {
  const answers: Array<ElementAnswer<T>> = [];
  await Promise.all(
    requestsOf(entries, split).map(async (indexes) => {
      const group = indexes.map((index) => entries[index]!);
      const answered = await send(group).catch((error: unknown) => group.map(() => ({ error })));
      indexes.forEach((index, at) => {
        answers[index] = answered[at] ?? { error: new Error('the batch answered no order here') };
      });
    }),
  );
  return answers;
}

/** The entries' indexes, grouped by what one request must share, in requests of at most `max`. */
function requestsOf<E>(entries: readonly E[], split: RequestSplit<E>): number[][] {
  const shared = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const key = split.sameRequest?.(entry) ?? '';
    shared.set(key, [...(shared.get(key) ?? []), index]);
  });
  const max = Math.max(1, split.max);
  return [...shared.values()].flatMap((indexes) =>
    Array.from({ length: Math.ceil(indexes.length / max) }, (_, at) =>
      indexes.slice(at * max, (at + 1) * max),
    ),
  );
}

/** ccxt's answer handling, as every exchange class has it. */
interface ErrorHandling {
  handleErrors(
    code: number,
    reason: string,
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string,
    response: unknown,
    requestHeaders: Record<string, string>,
    requestBody: string,
  ): unknown;
}

/**
 * The error ccxt raises for one order's answer in a batch, as it raises it
 * for the same answer to that order's own request (the exchange class's
 * `handleErrors` on it); undefined where ccxt finds no refusal in it.
 */
export function refusalIn(exchange: object, element: unknown): unknown {
  const handling = exchange as unknown as ErrorHandling;
  try {
    handling.handleErrors(400, '', '', '', {}, JSON.stringify(element), element, {}, '');
  } catch (error) {
    return error;
  }
  return undefined;
}

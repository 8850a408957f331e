import { TokenBucket, type BucketClock } from '@sts/budget-client';
import {
  beforeVenueRequest,
  PostOnlyWouldCrossError,
  VenueNetworkError,
  type BatchAnswer,
  type CancelResult,
  type CancelTarget,
  type OrderAck,
  type PlaceOrderRequest,
  type VenueClient,
  type VenueOrder,
} from '@sts/venues';
import Big from 'big.js';
import { MakerOrders } from '../trade-runner/quoting/maker-orders';
import { batchingClient, batchWindows } from './order-batcher';
import { paidFrom } from './paid-requests';

/** A request as the venue saw it: alone, or in a batch (the batch's client order ids). */
type Sent = { alone: string } | { batch: string[] } | { ioc: string };

const order = (clientOrderId: string, status: VenueOrder['status']): VenueOrder =>
  ({ clientOrderId, status, filledSize: '0' }) as VenueOrder;
const ack = (clientOrderId: string): OrderAck => ({
  order: order(clientOrderId, 'open'),
  fills: [],
  duplicate: false,
});
const canceled = (target: CancelTarget): CancelResult => ({
  outcome: 'canceled',
  order: order('clientOrderId' in target ? target.clientOrderId : '', 'canceled'),
});

/**
 * A venue that takes batches of at most `maxOrders` (placements worth one
 * from `minPlacements`), refusing the ids in `crossing`.
 */
function venue(maxOrders = 39, crossing: string[] = [], failing = false, minPlacements = 2) {
  const sent: Sent[] = [];
  const answer = (request: PlaceOrderRequest): BatchAnswer<OrderAck> =>
    crossing.includes(request.clientOrderId)
      ? { ok: false, error: new PostOnlyWouldCrossError('hyperliquid', 'would cross') }
      : { ok: true, value: ack(request.clientOrderId) };
  const client = {
    venue: 'hyperliquid',
    replaceRequestCost: 2,
    // As a live client: each HTTP request announced, paid by the call it is sent for.
    sendsFollowUpRequests: true,
    deadManSwitch: null,
    placePostOnly: (request: PlaceOrderRequest) => {
      sent.push({ alone: request.clientOrderId });
      return Promise.resolve(ack(request.clientOrderId));
    },
    placeIoc: (request: PlaceOrderRequest) => {
      sent.push({ ioc: request.clientOrderId });
      return Promise.resolve(ack(request.clientOrderId));
    },
    cancel: (target: CancelTarget) => {
      sent.push({ alone: `cancel ${'clientOrderId' in target ? target.clientOrderId : ''}` });
      return Promise.resolve(canceled(target));
    },
    batch: {
      maxOrders,
      minPlacements,
      placePostOnly: (requests: readonly PlaceOrderRequest[]) => {
        // Announced as a live client announces its request (paid in advance here: at once).
        void beforeVenueRequest(1);
        sent.push({ batch: requests.map((request) => request.clientOrderId) });
        return failing
          ? Promise.reject(new VenueNetworkError('hyperliquid', 'lost'))
          : Promise.resolve(requests.map(answer));
      },
      cancel: (targets: readonly CancelTarget[]) => {
        sent.push({
          batch: targets.map((t) => `cancel ${'clientOrderId' in t ? t.clientOrderId : ''}`),
        });
        return Promise.resolve(targets.map((t) => ({ ok: true as const, value: canceled(t) })));
      },
    },
  } as unknown as VenueClient;
  return { client: batchingClient(client, 2), sent };
}

/** Time stands still: a bucket's level is read, never refilled. */
const frozen: BucketClock = { now: () => 0, schedule: () => () => undefined };

/** Each trade's placement as the quote path pays it: a token taken, then the call paid one. */
async function placedByTrades(client: VenueClient, ids: readonly string[]): Promise<TokenBucket[]> {
  const buckets = ids.map(() => new TokenBucket(4, { clock: frozen }));
  await Promise.all(
    ids.map((id, index) => {
      const bucket = buckets[index]!;
      expect(bucket.take()).toBe(true);
      return paidFrom(bucket, 1, client, () => client.placePostOnly(buy(id)));
    }),
  );
  return buckets;
}

const buy = (clientOrderId: string): PlaceOrderRequest => ({
  symbol: 'SOL',
  side: 'buy',
  price: '90',
  size: '1',
  clientOrderId,
});

describe("an account's orders batched by the turn they are asked in", () => {
  it('sends the placements of one turn as one batch, each caller answered with its own order', async () => {
    const { client, sent } = venue(39, ['b']);
    const answers = await Promise.allSettled(
      ['a', 'b', 'c'].map((id) => client.placePostOnly(buy(id))),
    );
    expect(sent).toEqual([{ batch: ['a', 'b', 'c'] }]);
    expect(
      answers.map((a) => (a.status === 'fulfilled' ? a.value.order.clientOrderId : 'refused')),
    ).toEqual(['a', 'refused', 'c']);
    expect((answers[1] as PromiseRejectedResult).reason).toBeInstanceOf(PostOnlyWouldCrossError);
  });

  it('sends a placement alone in its turn as it always went', async () => {
    const { client, sent } = venue();
    await client.placePostOnly(buy('a'));
    await client.placePostOnly(buy('b'));
    expect(sent).toEqual([{ alone: 'a' }, { alone: 'b' }]);
  });

  it('never holds a hedge IOC: it is sent in the same tick', () => {
    const { client, sent } = venue();
    void client.placePostOnly(buy('a'));
    void client.placeIoc(buy('hedge'));
    expect(sent).toEqual([{ ioc: 'hedge' }]);
  });

  it('keeps cancels and placements apart, and cuts a batch at the most one request carries', async () => {
    const { client, sent } = venue(2);
    await Promise.all([
      ...['a', 'b', 'c'].map((id) => client.placePostOnly(buy(id))),
      client.cancel({ clientOrderId: 'x', symbol: 'SOL' }),
    ]);
    expect(sent).toEqual([{ alone: 'cancel x' }, { batch: ['a', 'b'] }, { alone: 'c' }]);
  });

  it('sends placements alone where fewer than a batch is worth (Aster: 5), cancels still together', async () => {
    const { client, sent } = venue(5, [], false, 5);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    await Promise.all([
      ...ids.map((id) => client.placePostOnly(buy(id))),
      ...['x', 'y'].map((id) => client.cancel({ clientOrderId: id, symbol: 'SOL' })),
    ]);
    expect(sent).toEqual([
      { batch: ['cancel x', 'cancel y'] },
      { batch: ['a', 'b', 'c', 'd', 'e'] },
      { alone: 'f' },
      { alone: 'g' },
    ]);
  });

  it('fails every caller with the batch request that failed', async () => {
    const { client } = venue(39, [], true);
    const answers = await Promise.allSettled(['a', 'b'].map((id) => client.placePostOnly(buy(id))));
    for (const answer of answers) {
      expect((answer as PromiseRejectedResult).reason).toBeInstanceOf(VenueNetworkError);
    }
  });

  it("batches both halves of the turn's replaces: the cancels, then the placements", async () => {
    const { client, sent } = venue();
    const replace = (from: string, to: string) =>
      client.replace({
        target: { clientOrderId: from, symbol: 'SOL' },
        next: buy(to),
        expectedFilledSize: '0',
      });
    const [first, second] = await Promise.all([replace('a', 'a2'), replace('b', 'b2')]);
    expect(sent).toEqual([{ batch: ['cancel a', 'cancel b'] }, { batch: ['a2', 'b2'] }]);
    expect([first.placed?.order.clientOrderId, second.placed?.order.clientOrderId]).toEqual([
      'a2',
      'b2',
    ]);
  });

  it('pays a batch its own weight: the first caller pays the request, the others get their token back', async () => {
    const { client, sent } = venue();
    const [first, second, third] = await placedByTrades(client, ['a', 'b', 'c']);
    expect(sent).toEqual([{ batch: ['a', 'b', 'c'] }]);
    expect(first!.take()).toBe(false);
    expect(second!.take()).toBe(true);
    expect(third!.take()).toBe(true);
  });

  it("keeps every caller's token where the batch weighs what they paid (Aster's placements: 5)", async () => {
    const { client, sent } = venue(5, [], false, 5);
    const buckets = await placedByTrades(client, ['a', 'b', 'c', 'd', 'e']);
    expect(sent).toEqual([{ batch: ['a', 'b', 'c', 'd', 'e'] }]);
    expect(buckets.map((bucket) => bucket.take())).toEqual([false, false, false, false, false]);
  });
});

/** A bucket of `tokens` (burst) on a clock that stands still: spent, it stays empty. */
function still(tokens: number): TokenBucket {
  const bucket = new TokenBucket(4, { clock: frozen, burst: Math.max(1, tokens) });
  if (tokens === 0) {
    expect(bucket.take()).toBe(true);
  }
  return bucket;
}

/** A trade's maker orders on the account's batching client, paid from `bucket`. */
function makerOn(client: VenueClient, tradeNumber: number, bucket: TokenBucket): MakerOrders {
  return new MakerOrders({
    tradeId: `2b7c1e40-0000-4000-8000-00000000000${tradeNumber}`,
    epoch: '1',
    client,
    leg: {
      venue: 'hyperliquid',
      symbol: 'SOL',
      rules: { tickSize: new Big('0.01'), lotSize: new Big('0.1'), minSize: new Big('0.1') },
    },
    side: 'buy',
    bucket,
    signal: new AbortController().signal,
    nextBatchWindow: (kind, signal) => batchWindows(client)?.next(kind, signal) ?? null,
  });
}

/** What waiting for one token would take (ms): a bucket in debt waits longer. */
const wait = (bucket: TokenBucket): number => bucket.msUntilAvailable(1);

describe('riding in a batch another trade pays for', () => {
  it('sends the placement of a trade out of budget in the batch a paid one opens: one request, no debt', async () => {
    const { client, sent } = venue();
    const [rich, broke] = [still(2), still(0)];
    const brokeWaitBefore = wait(broke);
    const waiting = makerOn(client, 2, broke).place(new Big('90'), new Big('1'));
    await new Promise((resolve) => setImmediate(resolve));
    // Nothing goes while it has no token and no batch is open.
    expect(sent).toEqual([]);
    const paying = makerOn(client, 1, rich).place(new Big('90'), new Big('1'));
    expect(await Promise.all([paying, waiting])).toEqual([{ kind: 'done' }, { kind: 'done' }]);
    expect(sent).toHaveLength(1);
    expect((sent[0] as { batch: string[] }).batch).toHaveLength(2);
    // The batch was paid once, by the trade that opened it; the rider owes nothing.
    expect(rich.take()).toBe(true);
    expect(rich.take()).toBe(false);
    expect(wait(broke)).toBe(brokeWaitBefore);
    expect(broke.waiting).toBe(0);
  });

  it('rides in a batch already open when its turn comes after the paid request', async () => {
    const { client, sent } = venue();
    const [rich, broke] = [still(2), still(0)];
    const brokeWaitBefore = wait(broke);
    // The paid trade's step runs first in the turn, then the one out of budget.
    const paying = makerOn(client, 1, rich).place(new Big('90'), new Big('1'));
    const riding = makerOn(client, 2, broke).place(new Big('90'), new Big('1'));
    expect(await Promise.all([paying, riding])).toEqual([{ kind: 'done' }, { kind: 'done' }]);
    expect(sent).toHaveLength(1);
    expect((sent[0] as { batch: string[] }).batch).toHaveLength(2);
    expect(wait(broke)).toBe(brokeWaitBefore);
  });

  it('sends a batch for the caller that paid, not for a rider held first', async () => {
    const { client, sent } = venue();
    const [rich, broke] = [still(2), still(0)];
    const brokeWaitBefore = wait(broke);
    expect(rich.take()).toBe(true);
    // The rider is first in the window: were the batch sent for it, it would wait for a token forever.
    const riding = paidFrom(broke, 0, client, () => client.placePostOnly(buy('b')));
    const paid = paidFrom(rich, 1, client, () => client.placePostOnly(buy('a')));
    await Promise.all([riding, paid]);
    expect(sent).toEqual([{ batch: ['b', 'a'] }]);
    expect(rich.take()).toBe(true);
    expect(rich.take()).toBe(false);
    expect(wait(broke)).toBe(brokeWaitBefore);
  });

  it('takes the token of a caller whose budget holds one when none paid in advance', async () => {
    const { client, sent } = venue();
    const [rich, broke] = [still(1), still(0)];
    const brokeWaitBefore = wait(broke);
    await Promise.all([
      paidFrom(broke, 0, client, () => client.placePostOnly(buy('b'))),
      paidFrom(rich, 0, client, () => client.placePostOnly(buy('a'))),
    ]);
    expect(sent).toEqual([{ batch: ['b', 'a'] }]);
    expect(rich.take()).toBe(false);
    expect(wait(broke)).toBe(brokeWaitBefore);
  });

  it('opens no ride where a batch weighs more than one request (Aster placements), cancels still', async () => {
    const { client } = venue(5, [], false, 5);
    const windows = batchWindows(client)!;
    const signal = new AbortController().signal;
    expect(windows.next('place', signal)).toBeNull();
    const opened = windows.next('cancel', signal)!;
    let open = false;
    void opened.then(() => (open = true));
    void client.placePostOnly(buy('a'));
    await Promise.resolve();
    expect(open).toBe(false);
    await client.cancel({ clientOrderId: 'x', symbol: 'SOL' });
    expect(open).toBe(true);
  });
});

/** A bucket clock that moves only when the spec says, firing what fell due. */
class StepClock implements BucketClock {
  private current = 0;
  private timers: Array<{ at: number; fire: () => void }> = [];

  now(): number {
    return this.current;
  }

  schedule(ms: number, fire: () => void): () => void {
    const timer = { at: this.current + ms, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }

  async advance(ms: number): Promise<void> {
    this.current += ms;
    const due = this.timers.filter((timer) => timer.at <= this.current);
    this.timers = this.timers.filter((timer) => timer.at > this.current);
    for (const timer of due) {
      timer.fire();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Past the batching client's 2 ms window. */
const windowPassed = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('requests no caller can pay for at once', () => {
  it('wait together and go as one batch on the first token among their callers', async () => {
    const { client, sent } = venue();
    const clock = new StepClock();
    const quick = new TokenBucket(10, { clock });
    const slow = new TokenBucket(1, { clock });
    expect(quick.take() && slow.take()).toBe(true);
    const first = paidFrom(quick, 0, client, () => client.placePostOnly(buy('a')));
    await windowPassed();
    const second = paidFrom(slow, 0, client, () => client.placePostOnly(buy('b')));
    await windowPassed();
    // Neither went alone on its own token: both wait for a payer.
    expect(sent).toEqual([]);
    // A rate is per bucket window (1.1 s): the quick caller's token comes at 110 ms.
    await clock.advance(110);
    await Promise.all([first, second]);
    expect(sent).toEqual([{ batch: ['b', 'a'] }]);
    // The quick caller's token paid the batch; the slow one's was never taken.
    expect(slow.waiting).toBe(0);
    await clock.advance(990);
    expect(slow.take()).toBe(true);
    expect(quick.take()).toBe(true);
  });

  it('go in the batch of the next request of their kind that is paid', async () => {
    const { client, sent } = venue();
    const clock = new StepClock();
    const [rich, broke] = [still(2), new TokenBucket(1, { clock })];
    expect(broke.take()).toBe(true);
    const waiting = paidFrom(broke, 0, client, () => client.placePostOnly(buy('b')));
    await windowPassed();
    expect(sent).toEqual([]);
    expect(rich.take()).toBe(true);
    await paidFrom(rich, 1, client, () => client.placePostOnly(buy('a')));
    await waiting;
    expect(sent).toEqual([{ batch: ['a', 'b'] }]);
    expect(broke.waiting).toBe(0);
    await clock.advance(1_100);
    expect(broke.take()).toBe(true);
  });

  it('fails a caller whose budget closes while it waits', async () => {
    const { client, sent } = venue();
    const broke = still(0);
    const waiting = paidFrom(broke, 0, client, () => client.placePostOnly(buy('b')));
    await windowPassed();
    broke.close('trade ended');
    await expect(waiting).rejects.toThrow();
    expect(sent).toEqual([]);
  });
});

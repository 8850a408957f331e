import Big from 'big.js';
import {
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  type VenueError,
} from '../errors';
import type { BookUpdate } from '../model/book';
import type { VenueMarket } from '../model/market';
import type { VenueClient } from '../venue-client';
import type { ConformanceHarness, ConformanceSetup } from './conformance-harness';
import {
  clientOrderIds,
  EventLog,
  minimumSize,
  minus,
  plus,
  sum,
  times,
} from './conformance-tools';

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The one contract every VenueClient passes (paper in CI; a live client can
 * be run through it by hand with a harness of its own). It drives the client
 * only through its public interface and the venue only through the harness.
 */
export function runVenueConformance(name: string, setup: ConformanceSetup): void {
  describe(`VenueClient conformance: ${name}`, () => {
    let harness: ConformanceHarness;
    let client: VenueClient;
    let log: EventLog;
    let market: VenueMarket;
    let size: string;
    const nextId = clientOrderIds('cf');

    const book = async (): Promise<BookUpdate> => {
      const latest = log.latestBook(harness.symbol);
      if (latest && latest.bestBid && latest.bestAsk) return latest;
      return log.waitFor(
        'book',
        (update) => update.symbol === harness.symbol && !!update.bestBid && !!update.bestAsk,
      );
    };
    const tick = (): string => market.entry.tick_size;
    const farBid = async (): Promise<string> => minus((await book()).bestBid!, times(tick(), 50));

    beforeAll(async () => {
      harness = await setup.start();
      client = await harness.createClient('main');
      log = new EventLog(client);
      const markets = await client.markets();
      market = markets.find((candidate) => candidate.entry.symbol === harness.symbol)!;
      await client.subscribeBook(harness.symbol);
      size = harness.orderSize ?? minimumSize(market, (await book()).bestAsk!);
    });

    afterEach(async () => {
      for (const order of await client.openOrders(harness.symbol)) {
        await client.cancel({ orderId: order.orderId });
      }
    });

    afterAll(async () => {
      log?.stop();
      await client?.close();
      await setup.stop();
    });

    it('lists markets with canonical symbols and the required per-exchange fields', async () => {
      const markets = await client.markets();
      expect(markets.length).toBeGreaterThan(0);
      for (const entry of markets) {
        expect(entry.canonical).toMatch(/^[0-9A-Z]+$/);
        expect(entry.entry.tick_size).toMatch(DECIMAL);
        expect(entry.entry.lot_size).toMatch(DECIMAL);
        expect(entry.entry.min_size).toMatch(DECIMAL);
        expect(Object.values(entry.entry)).not.toContain(null);
        expect(Object.values(entry.entry)).not.toContain(undefined);
      }
      expect(market).toBeDefined();
    });

    it('streams a book snapshot, then sequenced deltas', async () => {
      const first = await book();
      expect(new Big(first.bestBid!).lt(first.bestAsk!)).toBe(true);
      expect(first.bids.length).toBeGreaterThan(1);
      expect(first.bids[0].price).toBe(first.bestBid);
      expect(new Big(first.bids[0].price).gt(first.bids[1].price)).toBe(true);
      expect(new Big(first.asks[0].price).lt(first.asks[1].price)).toBe(true);
      await harness.driver.advance();
      const id = nextId();
      await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price: await farBid(),
        size,
        clientOrderId: id,
      });
      const later = await log.waitFor(
        'book',
        (update) => update.symbol === harness.symbol && update.seq > first.seq,
      );
      expect(later.seq).toBeGreaterThan(first.seq);
    });

    it('rejects a post-only order that would cross, with a typed error', async () => {
      const { bestAsk } = await book();
      const attempt = client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price: bestAsk!,
        size,
        clientOrderId: nextId(),
      });
      await expect(attempt).rejects.toBeInstanceOf(PostOnlyWouldCrossError);
      await expect(attempt.catch((error: VenueError) => error.code)).resolves.toBe(
        'post_only_would_cross',
      );
    });

    it('places post-only orders idempotently by client order id', async () => {
      const request = {
        symbol: harness.symbol,
        side: 'buy' as const,
        price: await farBid(),
        size,
        clientOrderId: nextId(),
      };
      const first = await client.placePostOnly(request);
      const again = await client.placePostOnly(request);
      expect(first.duplicate).toBe(false);
      expect(again.duplicate).toBe(true);
      expect(again.order.orderId).toBe(first.order.orderId);
      expect(
        (await client.openOrders(harness.symbol)).filter(
          (o) => o.clientOrderId === request.clientOrderId,
        ),
      ).toHaveLength(1);
      expect((await client.order({ clientOrderId: request.clientOrderId })).orderId).toBe(
        first.order.orderId,
      );
    });

    it('cancels by client order id and by order id, and says when an order is no longer open', async () => {
      const price = await farBid();
      const a = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price,
        size,
        clientOrderId: nextId(),
      });
      const b = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price,
        size,
        clientOrderId: nextId(),
      });
      expect(a.order.status).toBe('open');
      const open = (await client.openOrders(harness.symbol)).map((order) => order.orderId);
      expect(open).toEqual(expect.arrayContaining([a.order.orderId, b.order.orderId]));
      const byClientId = await client.cancel({ clientOrderId: a.order.clientOrderId });
      expect(byClientId.outcome).toBe('canceled');
      expect(byClientId.order?.status).toBe('canceled');
      expect((await client.cancel({ orderId: b.order.orderId })).outcome).toBe('canceled');
      expect((await client.cancel({ orderId: b.order.orderId })).outcome).toBe('not_open');
      const still = (await client.openOrders(harness.symbol)).map((order) => order.orderId);
      expect(still).not.toContain(a.order.orderId);
      expect(still).not.toContain(b.order.orderId);
      await expect(client.cancel({ clientOrderId: nextId() })).rejects.toBeInstanceOf(
        UnknownOrderError,
      );
      await expect(client.order({ clientOrderId: nextId() })).rejects.toBeInstanceOf(
        UnknownOrderError,
      );
    });

    it('replaces a resting order (cancel, then place)', async () => {
      const price = await farBid();
      const original = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price,
        size,
        clientOrderId: nextId(),
      });
      const nextPrice = minus(price, tick());
      const replaced = await client.replace({
        target: { clientOrderId: original.order.clientOrderId },
        next: {
          symbol: harness.symbol,
          side: 'buy',
          price: nextPrice,
          size,
          clientOrderId: nextId(),
        },
      });
      expect(replaced.canceled.outcome).toBe('canceled');
      expect(replaced.placed?.order.price).toBe(new Big(nextPrice).toFixed());
      const open = await client.openOrders(harness.symbol);
      expect(open.map((order) => order.orderId)).toEqual([replaced.placed!.order.orderId]);
    });

    it('fills an IOC order partially with what the book offers within the limit', async () => {
      const top = await book();
      const available = top.asks[0].size;
      const wanted = plus(available, times(size, 2));
      const ack = await client.placeIoc({
        symbol: harness.symbol,
        side: 'buy',
        price: top.bestAsk!,
        size: wanted,
        clientOrderId: nextId(),
      });
      expect(ack.order.filledSize).toBe(new Big(available).toFixed());
      expect(ack.order.status).toBe('canceled');
      expect(sum(ack.fills.map((fill) => fill.size))).toBe(new Big(available).toFixed());
      expect(
        ack.fills.every(
          (fill) => fill.liquidity === 'taker' && new Big(fill.price).eq(top.bestAsk!),
        ),
      ).toBe(true);
      const streamed = await log.waitFor('fill', (fill) => fill.fillId === ack.fills[0].fillId);
      expect(streamed.orderId).toBe(ack.order.orderId);
      const positions = await client.positions();
      expect(positions.find((position) => position.symbol === harness.symbol)?.side).toBe('long');
      expect((await client.balances()).length).toBeGreaterThan(0);
    });

    it('fills a resting maker order partially, then fully, when the market trades through it', async () => {
      if (!harness.driver.trade) return;
      const top = await book();
      const inside = plus(top.bestBid!, tick());
      const price = new Big(inside).lt(top.bestAsk!) ? inside : top.bestBid!;
      const ahead = price === top.bestBid ? top.bids[0].size : '0';
      const ack = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price,
        size: times(size, 2),
        clientOrderId: nextId(),
      });
      await harness.driver.trade(harness.symbol, 'sell', plus(ahead, size), price);
      const partial = await log.waitFor('fill', (fill) => fill.orderId === ack.order.orderId);
      expect(partial).toMatchObject({
        side: 'buy',
        size: new Big(size).toFixed(),
        fullyFilled: false,
        liquidity: 'maker',
        market: market.canonical,
      });
      expect(new Big(partial.price).eq(price)).toBe(true);
      await log.waitFor(
        'order',
        (order) => order.orderId === ack.order.orderId && order.status === 'partially_filled',
      );
      await harness.driver.trade(harness.symbol, 'sell', times(size, 3), price);
      const last = await log.waitFor(
        'fill',
        (fill) => fill.orderId === ack.order.orderId && fill.fullyFilled,
      );
      expect(last.size).toBe(new Big(size).toFixed());
      await log.waitFor(
        'order',
        (order) => order.orderId === ack.order.orderId && order.status === 'filled',
      );
      const recovered = await client.fillsSince(ack.order.createdAtMs);
      expect(
        recovered.filter((fill) => fill.orderId === ack.order.orderId).map((fill) => fill.fillId),
      ).toEqual([partial.fillId, last.fillId]);
    });

    it('answers 429 with a retry-after past the per-second request limit', async () => {
      if (!harness.rateLimitPerS) return;
      const busy = await harness.createClient('rate-limit');
      try {
        // Twice the limit and more: even a burst that straddles two one-second
        // windows must see at least ten refusals.
        const burst = harness.rateLimitPerS * 2 + 10;
        const limited: unknown[] = [];
        await Promise.all(
          Array.from({ length: burst }, () =>
            busy.openOrders().catch((error: unknown) => void limited.push(error)),
          ),
        );
        expect(limited.length).toBeGreaterThanOrEqual(10);
        for (const error of limited) {
          expect(error).toBeInstanceOf(RateLimitedError);
          expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
          expect((error as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(1_000);
        }
        // Waiting out the retry-after is enough to be served again (once more
        // if the burst's last window happened to be full without a refusal).
        const wait = (error: unknown) =>
          new Promise((resolve) =>
            setTimeout(resolve, (error as RateLimitedError).retryAfterMs + 20),
          );
        await wait(limited[limited.length - 1]);
        const served = await busy.openOrders().catch(async (error: unknown) => {
          expect(error).toBeInstanceOf(RateLimitedError);
          await wait(error);
          return busy.openOrders();
        });
        expect(served).toEqual([]);
      } finally {
        await busy.close();
      }
    });

    it('reconnects by itself after a dropped stream and loses no fill (fillsSince)', async () => {
      const { dropStream, trade } = harness.driver;
      if (!dropStream || !trade) return;
      const top = await book();
      const ack = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price: top.bestBid!,
        size,
        clientOrderId: nextId(),
      });
      await dropStream(1_000);
      const down = await log.waitFor(
        'connection',
        (event) => event.state === 'disconnected' && event.atMs >= ack.order.createdAtMs,
      );
      await trade(harness.symbol, 'sell', plus(top.bids[0].size, size), top.bestBid!);
      const back = await log.waitFor(
        'connection',
        (event) => event.state === 'reconnected' && event.atMs >= down.atMs,
        10_000,
      );
      if (back.state !== 'reconnected') throw new Error('expected a reconnected event');
      const streamed = log.events.fill.filter((fill) => fill.orderId === ack.order.orderId);
      expect(streamed).toEqual([]);
      const recovered = (await client.fillsSince(back.recoverFromMs)).filter(
        (fill) => fill.orderId === ack.order.orderId,
      );
      expect(recovered).toHaveLength(1);
      expect(recovered[0]).toMatchObject({
        size: new Big(size).toFixed(),
        fullyFilled: true,
        clientOrderId: ack.order.clientOrderId,
      });
      // The stream works again after the reconnect.
      const again = await client.placePostOnly({
        symbol: harness.symbol,
        side: 'buy',
        price: await farBid(),
        size,
        clientOrderId: nextId(),
      });
      await log.waitFor('order', (order) => order.orderId === again.order.orderId);
    });
  });
}

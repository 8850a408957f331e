import Big from 'big.js';
import { clientOrderId as domainClientOrderId, matchClientOrderId } from '@sts/domain';
import type { VenueFill } from '../../model/orders';
import { plus, sum, times, type EventLog } from '../conformance-tools';
import { itWhen, type SuiteContext } from '../suite-context';

/** Fills: taking liquidity, resting orders traded through, and fills across a reconnect. */
export function fillsCases(ctx: SuiteContext): void {
  takerFillCases(ctx);
  fillAttributionCases(ctx);
  makerFillCases(ctx);
  reconnectFillCases(ctx);
}

/** An IOC taking what the book offers within its limit: its fills streamed once each, as taker. */
function takerFillCases(ctx: SuiteContext): void {
  it('fills an IOC order partially with what the book offers within the limit', async () => {
    const { client, harness, log, size, nextId, book } = ctx;
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
    // The fill stream carries the whole filled size, each fill once, at the limit, as taker.
    await log.waitFor(
      'fill',
      () =>
        sum(ownFills(log, ack.order.orderId).map((fill) => fill.size)) ===
        new Big(available).toFixed(),
    );
    const streamed = ownFills(log, ack.order.orderId);
    expect(new Set(streamed.map((fill) => fill.fillId)).size).toBe(streamed.length);
    expect(
      streamed.every((fill) => fill.liquidity === 'taker' && new Big(fill.price).eq(top.bestAsk!)),
    ).toBe(true);
    // A venue that answers the order with its fills (paper) gives the same fills.
    if (ack.fills.length > 0) {
      expect(ack.fills.map((fill) => fill.fillId).sort()).toEqual(
        streamed.map((fill) => fill.fillId).sort(),
      );
    }
    const positions = await client.positions();
    expect(positions.find((position) => position.symbol === harness.symbol)?.side).toBe('long');
    expect((await client.balances()).length).toBeGreaterThan(0);
  });
}

/** Fills read by a client that never saw the order still name our client order id. */
function fillAttributionCases(ctx: SuiteContext): void {
  it("names our client order id on fills read by a client that never saw the order (a restarted worker's)", async () => {
    const { client, harness, size, nextId, book } = ctx;
    const top = await book();
    // An id of the service's own (libs/domain client-order-id.ts): a hedge of a trade.
    const tradeId = nextId();
    const clientOrderId = domainClientOrderId(tradeId, {
      kind: 'hedge',
      makerFillId: nextId(),
      attempt: 1,
    });
    const ack = await client.placeIoc({
      symbol: harness.symbol,
      side: 'buy',
      price: top.bestAsk!,
      size,
      clientOrderId,
    });
    expect(ack.order.filledSize).toBe(new Big(size).toFixed());
    const fresh = await harness.createClient('main');
    try {
      const fills = (await fresh.fillsSince(ack.order.createdAtMs - 1_000, harness.symbol)).filter(
        (fill) => fill.orderId === ack.order.orderId,
      );
      expect(fills.length).toBeGreaterThan(0);
      for (const fill of fills) {
        if (ctx.capabilities.idsFromTheVenue === 'partial') {
          // The venue keeps part of the id: enough to name the trade and the kind.
          expect(matchClientOrderId(fill.clientOrderId, tradeId)).toMatchObject({ kind: 'hedge' });
          expect(matchClientOrderId(fill.clientOrderId, nextId())).toBeNull();
        } else {
          expect(fill.clientOrderId).toBe(clientOrderId);
        }
      }
    } finally {
      await fresh.close();
    }
  });
}

/** A resting order traded through: filled partially, then fully. */
function makerFillCases(ctx: SuiteContext): void {
  itWhen(ctx.capabilities.trade)(
    'fills a resting maker order partially, then fully, when the market trades through it',
    async () => {
      const { client, harness, log, market, size } = ctx;
      const trade = harness.driver.trade!;
      const { price, ahead } = await ctx.bidAtTop();
      const ack = await ctx.placeBuy(price, times(size, 2));
      await trade(harness.symbol, 'sell', plus(ahead, size), price);
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
      await trade(harness.symbol, 'sell', times(size, 3), price);
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
    },
  );
}

/** A dropped stream: the client reconnects by itself and loses no fill. */
function reconnectFillCases(ctx: SuiteContext): void {
  itWhen(ctx.capabilities.trade && ctx.capabilities.dropStream)(
    'reconnects by itself after a dropped stream and loses no fill (fillsSince)',
    async () => {
      const { client, harness, log, size, nextId, book, farBid } = ctx;
      const dropStream = harness.driver.dropStream!;
      const trade = harness.driver.trade!;
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
      if (back.state !== 'reconnected') {
        throw new Error('expected a reconnected event');
      }
      const recovered = (await client.fillsSince(back.recoverFromMs)).filter(
        (fill) => fill.orderId === ack.order.orderId,
      );
      expect(recovered).toHaveLength(1);
      // A venue may replay what the outage missed (Hyperliquid's userFills
      // snapshot on the new subscription): at most once, under the fill's own
      // id, so the caller's dedup by fillId holds it to one fill.
      const streamed = log.events.fill.filter((fill) => fill.orderId === ack.order.orderId);
      expect(streamed.length).toBeLessThanOrEqual(1);
      for (const fill of streamed) {
        expect(fill.fillId).toBe(recovered[0].fillId);
      }
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
    },
  );
}

const ownFills = (log: EventLog, orderId: string): VenueFill[] =>
  log.events.fill.filter((fill) => fill.orderId === orderId);

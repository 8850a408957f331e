import Big from 'big.js';
import { PostOnlyWouldCrossError, UnknownOrderError, type VenueError } from '../../errors';
import { minus, plus, times } from '../conformance-tools';
import { itWhen, type SuiteContext } from '../suite-context';

/** Placing, cancelling and replacing orders. */
export function orderEntryCases(ctx: SuiteContext): void {
  placementCases(ctx);
  cancelCases(ctx);
  replaceCases(ctx);
  replaceRefusalCases(ctx);
}

/** Post-only placement: refused when it would cross, idempotent by client order id. */
function placementCases(ctx: SuiteContext): void {
  it('rejects a post-only order that would cross, with a typed error', async () => {
    const { client, harness, size, nextId, book } = ctx;
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
    const { client, harness, size, nextId, farBid } = ctx;
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
}

/** Cancels by either id, and what a cancel of an order no longer open says. */
function cancelCases(ctx: SuiteContext): void {
  it('cancels by client order id and by order id, and says when an order is no longer open', async () => {
    const { client, harness, size, nextId, farBid } = ctx;
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
}

/** Replace: cancel then place; nothing placed when the order is no longer open. */
function replaceCases(ctx: SuiteContext): void {
  it('replaces a resting order (cancel, then place)', async () => {
    const { client, harness, size, nextId, farBid, tick } = ctx;
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

  it('replaces nothing when the order is no longer open', async () => {
    const { client, harness, size, nextId, farBid } = ctx;
    const price = await farBid();
    const original = await ctx.placeBuy(price);
    await client.cancel({ orderId: original.order.orderId });
    const next = {
      symbol: harness.symbol,
      side: 'buy' as const,
      price,
      size,
      clientOrderId: nextId(),
    };
    const replaced = await client.replace({
      target: { clientOrderId: original.order.clientOrderId },
      next,
      expectedFilledSize: '0',
    });
    expect(replaced.canceled.outcome).toBe('not_open');
    expect(replaced.placed).toBeUndefined();
    const open = await client.openOrders(harness.symbol);
    expect(open.map((order) => order.clientOrderId)).not.toContain(next.clientOrderId);
  });
}

/** A replace whose placement must not go through: it would cross, or the order filled beyond what the caller saw. */
function replaceRefusalCases(ctx: SuiteContext): void {
  it('keeps the cancel and reports the refusal when the replacement would cross', async () => {
    const { client, harness, size, nextId, farBid, book } = ctx;
    const original = await ctx.placeBuy(await farBid());
    const { bestAsk } = await book();
    const replaced = await client.replace({
      target: { orderId: original.order.orderId },
      next: { symbol: harness.symbol, side: 'buy', price: bestAsk!, size, clientOrderId: nextId() },
      expectedFilledSize: '0',
    });
    expect(replaced.canceled.outcome).toBe('canceled');
    expect(replaced.placed).toBeUndefined();
    expect(replaced.placeError).toBeInstanceOf(PostOnlyWouldCrossError);
    expect(await client.openOrders(harness.symbol)).toEqual([]);
  });

  itWhen(ctx.capabilities.trade)(
    'cancels without placing when the order filled beyond what the caller saw',
    async () => {
      const { client, harness, log, size, nextId, tick } = ctx;
      const { price, ahead } = await ctx.bidAtTop();
      const original = await ctx.placeBuy(price, times(size, 2));
      await harness.driver.trade!(harness.symbol, 'sell', plus(ahead, size), price);
      await log.waitFor('fill', (fill) => fill.orderId === original.order.orderId);
      const next = {
        symbol: harness.symbol,
        side: 'buy' as const,
        price: minus(price, tick()),
        size: times(size, 2),
        clientOrderId: nextId(),
      };
      // The caller claims it saw no fill: the venue must not place a second full-size order.
      const replaced = await client.replace({
        target: { orderId: original.order.orderId },
        next,
        expectedFilledSize: '0',
      });
      expect(replaced.canceled.outcome).toBe('canceled');
      expect(new Big(replaced.canceled.order!.filledSize).eq(size)).toBe(true);
      expect(replaced.placed).toBeUndefined();
      const open = await client.openOrders(harness.symbol);
      expect(open.map((order) => order.clientOrderId)).not.toContain(next.clientOrderId);
    },
  );
}

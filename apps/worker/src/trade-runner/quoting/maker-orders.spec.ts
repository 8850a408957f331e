import Big from 'big.js';
import { TokenBucket } from '@sts/budget-client';
import {
  OrderRejectedError,
  PostOnlyWouldCrossError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
  type PlaceOrderRequest,
  type VenueFill,
} from '@sts/venues';
import { ScriptedVenue, venueOrder } from '../../../test/support/scripted-venue';
import { MakerOrders } from './maker-orders';

/**
 * The trade's maker orders against a venue that answers when the spec says:
 * what the ledger concludes when a fill races a cancel or a replace, when an
 * answer is lost, and what the loop is told after each refusal.
 */

const TRADE_ID = '2b7c1e40-0000-4000-8000-00000000000a';

function makerOrders(options: { tokens?: number } = {}) {
  const venue = new ScriptedVenue('hyperliquid');
  const sent: boolean[] = [];
  const orders = new MakerOrders({
    tradeId: TRADE_ID,
    epoch: '3',
    client: venue,
    leg: {
      venue: 'hyperliquid',
      symbol: 'BTC',
      rules: { tickSize: new Big('0.1'), lotSize: new Big('0.001'), minSize: new Big('0.001') },
    },
    side: 'buy',
    bucket: options.tokens
      ? new TokenBucket(options.tokens)
      : new TokenBucket(1_000, { burst: 100 }),
    signal: new AbortController().signal,
    onRequestSent: (waited) => sent.push(waited),
  });
  return { venue, orders, sent };
}

const fillOf = (request: PlaceOrderRequest, size: string, id: string): VenueFill => ({
  exchange: 'hyperliquid',
  symbol: request.symbol,
  market: 'BTC',
  side: request.side,
  price: request.price,
  size,
  orderId: 'o',
  clientOrderId: request.clientOrderId,
  fullyFilled: false,
  timestampMs: Date.now(),
  fillId: id,
  liquidity: 'maker',
});

/** Places an order and lets the venue take it: it rests. */
async function resting(m: ReturnType<typeof makerOrders>, price = '100', size = '1') {
  const placing = m.orders.place(new Big(price), new Big(size));
  const request = await m.venue.waitFor('placePostOnly');
  request.answer({
    order: venueOrder(request.args, '0', 'open', 'post_only'),
    fills: [],
    duplicate: false,
  });
  expect(await placing).toEqual({ kind: 'done' });
  return request.args;
}

describe('maker orders', () => {
  it('places a post-only order under a client order id of this lease and knows it rests', async () => {
    const m = makerOrders();
    const placed = await resting(m);

    expect(placed).toMatchObject({ side: 'buy', price: '100', size: '1', symbol: 'BTC' });
    expect(m.orders.isMakerOrder(placed.clientOrderId)).toBe(true);
    expect(m.orders.resting).toMatchObject({ clientOrderId: placed.clientOrderId, fate: 'open' });
    expect(m.orders.ledger.obligation(Date.now())).toMatchObject({ kind: 'quote' });
    expect(m.sent).toEqual([false]);
  });

  it('a post-only that would cross rests nowhere and tells the loop the book moved', async () => {
    const m = makerOrders();
    const placing = m.orders.place(new Big(100), new Big(1));
    (await m.venue.waitFor('placePostOnly')).fail(new PostOnlyWouldCrossError('hyperliquid'));

    expect(await placing).toEqual({ kind: 'book_moved' });
    expect(m.orders.resting).toBeNull();
  });

  it.each([
    [new VenueAuthError('hyperliquid'), { kind: 'fatal' }],
    [new RateLimitedError('hyperliquid', 700), { kind: 'wait', ms: 700 }],
    [new OrderRejectedError('hyperliquid', 'venue_halted'), { kind: 'halted' }],
    [new OrderRejectedError('hyperliquid', 'insufficient_margin'), { kind: 'rejected' }],
  ])('a refusal (%p) leaves nothing resting and says what to do', async (error, expected) => {
    const m = makerOrders();
    const placing = m.orders.place(new Big(100), new Big(1));
    (await m.venue.waitFor('placePostOnly')).fail(error);

    expect(await placing).toMatchObject(expected);
    expect(m.orders.resting).toBeNull();
    expect(m.orders.ledger.obligation(Date.now())).toEqual({ kind: 'quote', current: null });
  });

  it('a lost placement is unknown until looked up: nothing new is placed before', async () => {
    const m = makerOrders();
    const placing = m.orders.place(new Big(100), new Big(1));
    const request = await m.venue.waitFor('placePostOnly');
    request.fail(new VenueNetworkError('hyperliquid', 'socket closed', undefined, Date.now() + 5));

    expect(await placing).toEqual({ kind: 'wait', ms: 0 });
    const obligation = m.orders.ledger.obligation(Date.now());
    expect(obligation.kind).toBe('settle');

    const settling = m.orders.settle(m.orders.ledger.find(request.args.clientOrderId)!);
    const lookUp = await m.venue.waitFor('order');
    expect(lookUp.args).toMatchObject({ clientOrderId: request.args.clientOrderId });
    lookUp.answer(venueOrder(request.args, '0', 'open', 'post_only'));
    expect(await settling).toEqual({ kind: 'done' });
    expect(m.orders.resting).toMatchObject({ fate: 'open' });
  });

  it('a fill racing a cancel: the fill the stream delivered first is counted, the order is closed', async () => {
    const m = makerOrders();
    const placed = await resting(m);
    const canceling = m.orders.cancel();
    const cancel = await m.venue.waitFor('cancel');
    m.orders.onFill(fillOf(placed, '0.3', 'f1'));
    cancel.answer({
      outcome: 'canceled',
      order: venueOrder(placed, '0.3', 'canceled', 'post_only'),
    });

    expect(await canceling).toEqual({ kind: 'done' });
    expect(m.orders.resting).toBeNull();
    expect(m.orders.ledger.uncounted().toFixed()).toBe('0');
    expect(m.orders.ledger.obligation(Date.now())).toEqual({ kind: 'quote', current: null });
  });

  it('a fill racing a cancel: one the stream has not delivered holds quoting until it is read back', async () => {
    const m = makerOrders();
    const placed = await resting(m);
    const canceling = m.orders.cancel();
    (await m.venue.waitFor('cancel')).answer({
      outcome: 'canceled',
      order: venueOrder(placed, '0.3', 'canceled', 'post_only'),
    });
    await canceling;

    expect(m.orders.ledger.uncounted().toFixed()).toBe('0.3');
    expect(m.orders.ledger.obligation(Date.now())).toMatchObject({ kind: 'read_fills' });
    m.orders.onFill(fillOf(placed, '0.3', 'f1'));
    expect(m.orders.ledger.obligation(Date.now())).toEqual({ kind: 'quote', current: null });
  });

  it('a cancel the venue answers without the order is looked up before anything is decided', async () => {
    const m = makerOrders();
    const placed = await resting(m);
    const canceling = m.orders.cancel();
    (await m.venue.waitFor('cancel')).answer({ outcome: 'not_open' });
    await canceling;

    const obligation = m.orders.ledger.obligation(Date.now());
    expect(obligation).toMatchObject({ kind: 'settle' });
    expect(obligation.kind === 'settle' && obligation.order.clientOrderId).toBe(
      placed.clientOrderId,
    );
  });

  it('a replace moves the order in one request, sized on the fills seen', async () => {
    const m = makerOrders();
    const placed = await resting(m);
    m.orders.onFill(fillOf(placed, '0.2', 'f1'));
    const replacing = m.orders.replace(new Big('100.5'), new Big('0.8'));
    const replace = await m.venue.waitFor('replace');
    expect(replace.args).toMatchObject({
      target: { clientOrderId: placed.clientOrderId },
      next: { price: '100.5', size: '0.8' },
      expectedFilledSize: '0.2',
    });
    replace.answer({
      canceled: { outcome: 'canceled', order: venueOrder(placed, '0.2', 'canceled', 'post_only') },
      placed: {
        order: venueOrder(replace.args.next, '0', 'open', 'post_only'),
        fills: [],
        duplicate: false,
      },
    });

    expect(await replacing).toEqual({ kind: 'done' });
    expect(m.orders.resting).toMatchObject({
      clientOrderId: replace.args.next.clientOrderId,
      fate: 'open',
    });
    expect(m.orders.ledger.live).toHaveLength(1);
  });

  it('a fill racing a replace: the venue keeps the new order off the book and the fill is read back first', async () => {
    const m = makerOrders();
    const placed = await resting(m);
    const replacing = m.orders.replace(new Big('100.5'), new Big('1'));
    const replace = await m.venue.waitFor('replace');
    // The venue filled 0.4 of the old order before the replace reached it: it does not place.
    replace.answer({
      canceled: { outcome: 'canceled', order: venueOrder(placed, '0.4', 'canceled', 'post_only') },
    });

    expect(await replacing).toEqual({ kind: 'done' });
    expect(m.orders.resting).toBeNull();
    expect(m.orders.ledger.uncounted().toFixed()).toBe('0.4');
    expect(m.orders.ledger.obligation(Date.now())).toMatchObject({ kind: 'read_fills' });
    m.orders.onFill(fillOf(placed, '0.4', 'f1'));
    expect(m.orders.ledger.obligation(Date.now())).toEqual({ kind: 'quote', current: null });
  });

  it('a replace of an order the venue does not know leaves neither resting', async () => {
    const m = makerOrders();
    await resting(m);
    const replacing = m.orders.replace(new Big('100.5'), new Big('1'));
    (await m.venue.waitFor('replace')).fail(new UnknownOrderError('hyperliquid'));

    expect(await replacing).toEqual({ kind: 'done' });
    expect(m.orders.resting).toBeNull();
  });

  it('a replace whose answer is lost leaves both orders unknown: the new one is looked up first', async () => {
    const m = makerOrders();
    await resting(m);
    const replacing = m.orders.replace(new Big('100.5'), new Big('1'));
    const replace = await m.venue.waitFor('replace');
    replace.fail(new VenueNetworkError('hyperliquid', 'timeout', undefined, Date.now() + 5));

    expect(await replacing).toEqual({ kind: 'wait', ms: 0 });
    const obligation = m.orders.ledger.obligation(Date.now());
    expect(obligation.kind === 'settle' && obligation.order.clientOrderId).toBe(
      replace.args.next.clientOrderId,
    );
  });

  it('waits for a token when the maker bucket is empty and says so when the request goes', async () => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    try {
      const m = makerOrders({ tokens: 1 });
      await resting(m);
      const canceling = m.orders.cancel();
      await jest.advanceTimersByTimeAsync(0);
      expect(m.venue.open('cancel')).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1_100);
      (await m.venue.waitFor('cancel')).answer({ outcome: 'canceled' });
      await canceling;
      expect(m.sent).toEqual([false, true]);
    } finally {
      jest.useRealTimers();
    }
  });
});

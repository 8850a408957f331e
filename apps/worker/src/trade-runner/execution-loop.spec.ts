import { OrderRejectedError, UnknownOrderError } from '@sts/venues';
import { iocAck, venueOrder, type PendingRequest } from '../../test/support/scripted-venue';
import { activeTrade, type TradeHarness } from '../../test/support/trade-harness';
import type { LoopServices } from './execution-loop';
import { StepScheduler } from './step-scheduler';

/**
 * A running trade's loop over two scripted venues on jest's clock: the
 * maker order it places, keeps and moves, the hedge of each fill, and how a
 * cancel, an amendment or a fill racing a replace lands while a hedge is out.
 */

const ack = (request: PendingRequest<'placePostOnly'>) =>
  request.answer({
    order: venueOrder(request.args, '0', 'open', 'post_only'),
    fills: [],
    duplicate: false,
  });

/** Lets the loop run what it was woken for (steps run from microtasks; timers by jest). */
const settle = (ms = 20): Promise<void> => jest.advanceTimersByTimeAsync(ms);

/** The worker's scheduler as one trade sees it: each step it runs is noted in `ran` by `trade`. */
function notingScheduler(
  scheduler: StepScheduler,
  trade: string,
  ran: string[],
): LoopServices['scheduler'] {
  const noted = new Map<() => void, () => void>();
  const note = (step: () => void): (() => void) => {
    let wrapped = noted.get(step);
    if (!wrapped) {
      wrapped = () => {
        ran.push(`${trade} step`);
        step();
      };
      noted.set(step, wrapped);
    }
    return wrapped;
  };
  return {
    schedule: (step, rank) => scheduler.schedule(note(step), rank),
    scheduleAfterReads: (step) => scheduler.scheduleAfterReads(note(step)),
  };
}

/** The trade's first quote, placed and acknowledged: it rests. */
async function resting(h: TradeHarness) {
  await settle();
  const placed = h.maker.next('placePostOnly');
  ack(placed);
  await settle();
  return placed.args;
}

describe('the execution loop', () => {
  beforeEach(() =>
    jest.useFakeTimers({ now: 1_700_000_000_000, doNotFake: ['queueMicrotask', 'nextTick'] }),
  );
  afterEach(() => jest.useRealTimers());

  it('joins the maker touch for the whole target, hedges the fill at once and completes', async () => {
    const h = await activeTrade();
    const order = await resting(h);
    expect(order).toMatchObject({ side: 'buy', price: '100', size: '0.01' });

    h.makerFill(order.clientOrderId, '0.01', '100', 'fill-1');
    const ioc = h.hedge.next('placeIoc');
    expect(ioc.args).toMatchObject({ side: 'sell', size: '0.01' });
    ioc.answer(iocAck(ioc.args, '0.01'));
    await settle();

    expect(h.journal.statuses).toEqual(['active', 'completed']);
    expect(h.journal.changes[1].eventData).toMatchObject({ filled_size: '0.01' });
    expect(h.ended.count).toBe(1);
    expect(h.maker.count('placePostOnly')).toBe(1);
  });

  it('a cancel while a hedge is out takes the maker order down and ends only once the hedge has', async () => {
    const h = await activeTrade();
    const order = await resting(h);
    h.makerFill(order.clientOrderId, '0.004', '100', 'fill-1');
    const ioc = h.hedge.next('placeIoc');
    await settle();

    await h.trade.onControl({ kind: 'cancel' } as never);
    await settle();
    const cancel = h.maker.next('cancel');
    cancel.answer({
      outcome: 'canceled',
      order: venueOrder(order, '0.004', 'canceled', 'post_only'),
    });
    await settle(100);
    expect(h.journal.statuses).toEqual(['active']);

    ioc.answer(iocAck(ioc.args, '0.004'));
    await settle();
    expect(h.journal.statuses).toEqual(['active', 'canceled']);
    expect(h.journal.ofType('hedge_outcome')[0].data).toMatchObject({ result: 'filled' });
    expect(h.journal.changes[1].eventData).toMatchObject({ filled_size: '0.004' });
  });

  it('a cancel while a hedge times out ends the trade failed, naming the size left unhedged', async () => {
    const h = await activeTrade();
    const order = await resting(h);
    h.makerFill(order.clientOrderId, '0.004', '100', 'fill-1');
    await h.trade.onControl({ kind: 'cancel' } as never);
    await settle();
    h.maker.next('cancel').answer({
      outcome: 'canceled',
      order: venueOrder(order, '0.004', 'canceled', 'post_only'),
    });
    for (let waited = 0; waited <= 2_100; waited += 50) {
      for (const ioc of h.hedge.open('placeIoc')) {
        ioc.answer(iocAck(ioc.args, '0'));
      }
      await settle(50);
    }

    expect(h.journal.statuses).toEqual(['active', 'failed']);
    expect(h.journal.changes[1].failureReason).toMatch(
      /hedge timed out .*unhedged size 0.004 BTC on paradex/,
    );
  });

  it('an amendment while a hedge is out re-sizes the resting order to what the new target leaves', async () => {
    const h = await activeTrade();
    const order = await resting(h);
    h.makerFill(order.clientOrderId, '0.004', '100', 'fill-1');
    h.hedge.next('placeIoc');
    await settle();

    h.row.terms = {
      ...h.row.terms,
      targetSize: h.row.terms.targetSize.div(10).times(6),
      amendmentVersion: 1,
    };
    await h.trade.onControl({ kind: 'amend', amendment_version: 1 } as never);
    await settle();

    const replace = h.maker.next('replace');
    expect(replace.args).toMatchObject({
      target: { clientOrderId: order.clientOrderId },
      next: { price: '100', size: '0.002' },
      expectedFilledSize: '0.004',
    });
  });

  it('a fill racing a replace: nothing new rests until the fill is read back and hedged', async () => {
    const h = await activeTrade();
    const order = await resting(h);
    h.makerBook('100.2', '100.5');
    await settle();
    const replace = h.maker.next('replace');
    expect(replace.args.next).toMatchObject({ price: '100.2', size: '0.01' });
    // The venue filled 0.003 of the old order first: it cancels the rest and places nothing.
    replace.answer({
      canceled: { outcome: 'canceled', order: venueOrder(order, '0.003', 'canceled', 'post_only') },
    });
    await settle();

    expect(h.maker.open('placePostOnly')).toHaveLength(0);
    const readBack = h.maker.next('fillsSince');
    const fill = {
      exchange: 'hyperliquid',
      symbol: 'BTC',
      market: 'BTC',
      side: 'buy' as const,
      price: '100',
      size: '0.003',
      orderId: 'o-1',
      clientOrderId: order.clientOrderId,
      fullyFilled: false,
      timestampMs: Date.now(),
      fillId: 'fill-read-back',
      liquidity: 'maker' as const,
    };
    readBack.answer([fill]);
    await settle();

    expect(h.hedge.next('placeIoc').args.size).toBe('0.003');
    expect(h.maker.next('placePostOnly').args).toMatchObject({ price: '100.2', size: '0.007' });
  });

  it('a replace the venue does not know moves on to a fresh placement', async () => {
    const h = await activeTrade();
    await resting(h);
    h.makerBook('100.1', '100.5');
    await settle();
    h.maker.next('replace').fail(new UnknownOrderError('hyperliquid'));
    await settle();

    expect(h.maker.next('placePostOnly').args).toMatchObject({ price: '100.1', size: '0.01' });
  });

  it('keeps a quote at the touch through H moves that cannot change it, without a step', async () => {
    const h = await activeTrade();
    await resting(h);
    const stepsBefore = h.steps.scheduled;

    h.hedgeBook('101.2', '101.6');
    await settle();
    expect(h.steps.scheduled).toBe(stepsBefore);

    h.makerBook('100.1', '100.5');
    await settle();
    expect(h.steps.scheduled).toBe(stepsBefore + 1);
    expect(h.maker.next('replace').args.next).toMatchObject({ price: '100.1' });
  });

  it("hedges every fill one read brings before any of their trades' steps run", async () => {
    const scheduler = new StepScheduler({ now: () => Date.now() });
    const ran: string[] = [];
    const a = await activeTrade({}, { scheduler: notingScheduler(scheduler, 'a', ran) });
    const b = await activeTrade({}, { scheduler: notingScheduler(scheduler, 'b', ran) });
    const orderA = await resting(a);
    const orderB = await resting(b);
    ran.length = 0;

    // One socket read: the fills of both trades, delivered back to back.
    a.makerFill(orderA.clientOrderId, '0.004', '100', 'fill-a');
    ran.push('b read');
    b.makerFill(orderB.clientOrderId, '0.004', '100', 'fill-b');

    expect(a.hedge.count('placeIoc')).toBe(1);
    expect(b.hedge.count('placeIoc')).toBe(1);
    expect(ran).toEqual(['b read']);
    await settle();
    expect(ran).toEqual(['b read', 'a step', 'b step']);
  });

  it('a halted maker venue pauses the trade and resumes it once the venue answers', async () => {
    const h = await activeTrade();
    await settle();
    h.maker.next('placePostOnly').fail(new OrderRejectedError('hyperliquid', 'venue_halted'));
    await settle();
    expect(h.journal.statuses).toEqual(['active', 'paused']);

    // The next thing that wakes it (a book move) asks the venue whether it is back.
    h.makerBook('100.1', '100.5');
    await settle();
    h.maker.next('openOrders').answer([]);
    await settle();
    expect(h.journal.statuses).toEqual(['active', 'paused', 'active']);
    expect(h.maker.open('placePostOnly')).toHaveLength(1);
  });
});

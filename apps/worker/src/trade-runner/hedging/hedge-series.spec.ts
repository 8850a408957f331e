import Big from 'big.js';
import pino from 'pino';
import { TokenBucket } from '@sts/budget-client';
import {
  OrderFateUnknownError,
  OrderRejectedError,
  RateLimitedError,
  UnknownOrderError,
  VenueAuthError,
  VenueNetworkError,
} from '@sts/venues';
import { iocAck, ScriptedVenue, venueOrder } from '../../../test/support/scripted-venue';
import type { ExecutionEventType, LogDataOf, LogEntry } from '@sts/contracts';
import type { MarketView } from '../market-view';
import { VenueAnswerTimes } from '../../venue-sessions/venue-answer-times';
import { hedgeFailureReason } from './hedge-entries';
import { Hedger } from './hedger';

/**
 * One trade's hedges against a venue that answers when the spec says: each
 * IOC's fate (filled, partly, refused, lost, hanging) is chosen and timed
 * here, on jest's clock, so the retry arithmetic, the timeout and the lost
 * answer's look-up are each seen deciding.
 */

const TRADE_ID = '7f0e1b9a-0000-4000-8000-000000000001';
const HEDGE_TIMEOUT_MS = 2_000;

interface Harness {
  hedger: Hedger;
  venue: ScriptedVenue;
  entries: LogEntry[];
  failures: string[];
  halted: number;
  doubtChanges: number;
  /** `trusted` false: a renewal held up (a lapse); `lost`: another worker's now. */
  lease: { trusted: boolean; lost: boolean };
  reference: { value: Big };
  /** The hedge venue's fresh mid (MarketView.freshHedgeMid); null: its book stale. */
  arrivalMid: { value: Big | null };
}

function harness(options: { bucket?: TokenBucket; answerTimes?: VenueAnswerTimes } = {}): Harness {
  const answerTimes = options.answerTimes ?? new VenueAnswerTimes();
  const venue = new ScriptedVenue('paradex');
  const state: Harness = {
    venue,
    entries: [],
    failures: [],
    halted: 0,
    doubtChanges: 0,
    lease: { trusted: true, lost: false },
    reference: { value: new Big(100) },
    arrivalMid: { value: new Big('100.05') },
    hedger: undefined as unknown as Hedger,
  };
  state.hedger = new Hedger({
    tradeId: TRADE_ID,
    makerLeg: 'long',
    venue: {
      client: venue,
      leg: {
        venue: 'paradex',
        symbol: 'BTC-USD-PERP',
        rules: { tickSize: new Big('0.1'), lotSize: new Big('0.001'), minSize: new Big('0.01') },
      },
      side: 'sell',
      timeoutMs: HEDGE_TIMEOUT_MS,
      unboundedRequestWaitMs: 60_000,
      answerExpectedMs: () => answerTimes.expectedMs('paradex'),
    },
    market: {
      hedgeReference: () => state.reference.value,
      freshHedgeMid: () => state.arrivalMid.value,
    } as unknown as MarketView,
    coarserTickSize: new Big('0.1'),
    maxSlippage: () => new Big('0.01'),
    spreadType: () => 'absolute',
    bucket: options.bucket ?? null,
    clock: { now: () => Date.now() },
    mayTouchVenue: () => state.lease.trusted && !state.lease.lost,
    untilTrusted: async () => {
      while (!state.lease.lost) {
        if (state.lease.trusted) {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return false;
    },
    emit: (logged) => {
      state.entries.push(...logged);
      // What TradeState.apply reads from an outcome: a timeout or refusal fails the trade.
      for (const entry of logged) {
        const result = entry.eventType === 'hedge_outcome' ? entry.data.result : null;
        if (result === 'timeout' || result === 'rejected') {
          state.failures.push(hedgeFailureReason(result, 'paradex', HEDGE_TIMEOUT_MS));
        }
      }
    },
    onVenueHalted: () => (state.halted += 1),
    onDoubtChanged: () => (state.doubtChanges += 1),
    logger: pino({ level: 'silent' }),
  });
  return state;
}

/** No hedge book yet: H is unknown until the spec sets `value`. */
const withoutH = (h: Harness): { value: Big | null } => {
  const reference = h.reference as unknown as { value: Big | null };
  reference.value = null;
  return reference;
};

const ofType = <T extends ExecutionEventType>(entries: LogEntry[], type: T) =>
  entries.filter((entry): entry is Extract<LogEntry, { eventType: T }> => entry.eventType === type);

const outcome = (entries: LogEntry[]): LogDataOf['hedge_outcome'] => {
  const outcomes = ofType(entries, 'hedge_outcome');
  expect(outcomes).toHaveLength(1);
  return outcomes[0].data;
};

describe('a hedge series', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_700_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('sends the IOC in the same turn as the maker fill, at H less the slippage, and ends filled', async () => {
    const h = harness();
    const started = h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.5'));

    const ioc = h.venue.next('placeIoc');
    expect(ioc.args).toMatchObject({ side: 'sell', size: '0.5', price: '99' });
    expect(started?.sent?.data).toMatchObject({ attempt: 1, size: '0.5', cause: 'fill-1' });
    ioc.answer(iocAck(ioc.args, '0.5'));
    await h.hedger.idle();

    expect(outcome(h.entries)).toMatchObject({
      result: 'filled',
      requested_size: '0.5',
      filled_size: '0.5',
      attempts: 1,
    });
    expect(h.hedger.outstanding.toFixed()).toBe('0');
    expect(h.failures).toEqual([]);
  });

  it('retries only the remainder of a partial fill, under a new client order id', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('1'));
    const first = h.venue.next('placeIoc');
    first.answer(iocAck(first.args, '0.6'));
    await jest.advanceTimersByTimeAsync(24);
    expect(h.venue.open('placeIoc')).toHaveLength(0); // the retry waits 25 ms

    await jest.advanceTimersByTimeAsync(1);
    const second = h.venue.next('placeIoc');
    expect(second.args.size).toBe('0.4');
    expect(second.args.clientOrderId).not.toBe(first.args.clientOrderId);
    expect(h.hedger.outstanding.toFixed()).toBe('0.4');
    second.answer(iocAck(second.args, '0.4'));
    await h.hedger.idle();

    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '1', attempts: 2 });
    expect(ofType(h.entries, 'hedge_filled').map((e) => e.data.size)).toEqual(['0.6', '0.4']);
    expect(h.hedger.hedged.toFixed()).toBe('1');
  });

  it('prices each retry from the reference of the moment, not the one the hedge started with', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('1'));
    const first = h.venue.next('placeIoc');
    h.reference.value = new Big(90);
    first.answer(iocAck(first.args, '0'));
    await jest.advanceTimersByTimeAsync(25);

    expect(h.venue.next('placeIoc').args).toMatchObject({ price: '89.1', size: '1' });
  });

  it('backs off after refusals (25, 50, 100 ms) and hedges once the venue takes it', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.2'));
    const sentAt: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const ioc = await h.venue.waitFor('placeIoc');
      sentAt.push(Date.now());
      ioc.fail(new OrderRejectedError('paradex', 'injected_rejection'));
      await jest.advanceTimersByTimeAsync(25 * 2 ** (attempt - 1));
    }
    const fourth = h.venue.next('placeIoc');
    fourth.answer(iocAck(fourth.args, '0.2'));
    await h.hedger.idle();

    expect(sentAt.map((at) => at - sentAt[0])).toEqual([0, 25, 75]);
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', attempts: 4 });
    expect(h.failures).toEqual([]);
  });

  it("waits out a rate limit's retry-after before the next attempt", async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.2'));
    h.venue.next('placeIoc').fail(new RateLimitedError('paradex', 300));
    await jest.advanceTimersByTimeAsync(299);
    expect(h.venue.open('placeIoc')).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.venue.open('placeIoc')).toHaveLength(1);
  });

  it('fails the trade at once when the venue refuses the credentials', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.2'));
    h.venue.next('placeIoc').fail(new VenueAuthError('paradex'));
    await h.hedger.idle();

    expect(outcome(h.entries)).toMatchObject({ result: 'rejected', filled_size: '0' });
    expect(h.failures).toEqual(['hedge refused by paradex']);
    expect(h.hedger.outstanding.toFixed()).toBe('0.2');
    expect(h.venue.count('placeIoc')).toBe(1);
  });

  it('times out after hedge_timeout_ms of empty IOCs and fails the trade for what is unhedged', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    let answered = 0;
    while (Date.now() - 1_700_000_000_000 < HEDGE_TIMEOUT_MS) {
      for (const ioc of h.venue.open('placeIoc')) {
        ioc.answer(iocAck(ioc.args, '0'));
        answered += 1;
      }
      await jest.advanceTimersByTimeAsync(50);
    }
    await h.hedger.idle();

    expect(answered).toBeGreaterThan(5);
    expect(ofType(h.entries, 'hedge_timeout')).toHaveLength(1);
    expect(ofType(h.entries, 'hedge_timeout')[0].data).toMatchObject({ unhedged_size: '0.3' });
    expect(outcome(h.entries)).toMatchObject({ result: 'timeout', filled_size: '0' });
    expect(h.failures).toEqual([`hedge timed out after ${HEDGE_TIMEOUT_MS} ms on paradex`]);
    expect(h.hedger.outstanding.toFixed()).toBe('0.3');
  });

  it('an IOC still at the venue when the timeout strikes is waited for: filled, the hedge is not a failure', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    const ioc = h.venue.next('placeIoc');
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS + 500);
    expect(ofType(h.entries, 'hedge_timeout')).toHaveLength(1);
    expect(h.hedger.hedging).toBe(true);

    ioc.answer(iocAck(ioc.args, '0.3'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3' });
    expect(h.failures).toEqual([]);
  });

  it('a lost answer is looked up by client order id, never sent twice: found filled, the hedge is done', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new VenueNetworkError('paradex', 'socket closed', undefined, Date.now() + 500));
    await jest.advanceTimersByTimeAsync(0);
    expect(h.hedger.inDoubt).toBe(true);

    const lookUp = h.venue.next('order');
    expect(lookUp.args).toMatchObject({ clientOrderId: ioc.args.clientOrderId });
    lookUp.answer(venueOrder(ioc.args, '0.4', 'filled'));
    await h.hedger.idle();

    expect(h.hedger.inDoubt).toBe(false);
    expect(h.venue.count('placeIoc')).toBe(1);
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4' });
    expect(h.hedger.hedged.toFixed()).toBe('0.4');
  });

  it('"not found" proves the IOC unplaced only once it can no longer arrive; then the remainder is retried', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const settlesBy = Date.now() + 600;
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new VenueNetworkError('paradex', 'socket closed', undefined, settlesBy));
    await jest.advanceTimersByTimeAsync(0);
    h.venue.next('order').fail(new UnknownOrderError('paradex'));
    await jest.advanceTimersByTimeAsync(0);
    expect(h.venue.open('placeIoc')).toHaveLength(0); // nothing concluded yet

    await jest.advanceTimersByTimeAsync(settlesBy - Date.now());
    const again = await h.venue.waitFor('order');
    expect(h.hedger.inDoubt).toBe(true);
    again.fail(new UnknownOrderError('paradex'));
    // Not found for good only with no fill of it either (a lagging history may miss a filled IOC).
    const fills = await h.venue.waitFor('fillsSince');
    expect(fills.args.symbol).toBe(ioc.args.symbol);
    fills.answer([]);
    await jest.advanceTimersByTimeAsync(25);

    const retry = h.venue.next('placeIoc');
    expect(retry.args.size).toBe('0.4');
    expect(h.hedger.inDoubt).toBe(false);
    retry.answer(iocAck(retry.args, '0.4'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', attempts: 2 });
  });

  it('a look-up that finds the lost IOC still open (queued) is no fate: nothing is sent until it closes', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new VenueNetworkError('paradex', 'socket closed', undefined, Date.now() + 300));
    await jest.advanceTimersByTimeAsync(0);
    h.venue.next('order').answer(venueOrder(ioc.args, '0', 'open'));
    // Past the request's life: still no retry while the venue holds it.
    await jest.advanceTimersByTimeAsync(600);
    expect(h.venue.open('placeIoc')).toHaveLength(0);
    (await h.venue.waitFor('order')).answer(venueOrder(ioc.args, '0', 'open'));
    await jest.advanceTimersByTimeAsync(600);
    (await h.venue.waitFor('order')).fail(new UnknownOrderError('paradex'));
    await jest.advanceTimersByTimeAsync(600);
    expect(h.venue.count('placeIoc')).toBe(1);
    expect(h.venue.count('fillsSince')).toBe(0);
    (await h.venue.waitFor('order')).answer(venueOrder(ioc.args, '0.4', 'filled'));
    await h.hedger.idle();

    expect(h.venue.count('placeIoc')).toBe(1);
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4', attempts: 1 });
    expect(h.hedger.hedged.toFixed()).toBe('0.4');
  });

  it('an IOC the venue took but has not closed is never taken for unplaced, whatever a look-up misses', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new OrderFateUnknownError('paradex', 'order-9', 'still NEW', Date.now() + 100));
    await jest.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 3; i += 1) {
      (await h.venue.waitFor('order')).fail(new UnknownOrderError('paradex'));
      await jest.advanceTimersByTimeAsync(400);
    }
    expect(h.venue.count('placeIoc')).toBe(1);
    (await h.venue.waitFor('order')).answer(venueOrder(ioc.args, '0.1', 'canceled'));
    await jest.advanceTimersByTimeAsync(25);
    const retry = h.venue.next('placeIoc');
    expect(retry.args.size).toBe('0.3');
    retry.answer(iocAck(retry.args, '0.3'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4', attempts: 2 });
  });

  it('past the hedge timeout with the fate still unknown, the venue fills of the attempt are what it did', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new OrderFateUnknownError('paradex', 'order-9', 'still NEW', Date.now() + 100));
    for (let waited = 0; h.venue.open('fillsSince').length === 0 && waited < 10_000;) {
      const lookUps = h.venue.open('order');
      lookUps.forEach((lookUp) => lookUp.answer(venueOrder(ioc.args, '0', 'open')));
      await jest.advanceTimersByTimeAsync(50);
      waited += 50;
    }
    expect(Date.now() - 1_700_000_000_000).toBeGreaterThanOrEqual(HEDGE_TIMEOUT_MS);
    const fills = h.venue.next('fillsSince');
    const { clientOrderId, symbol, side } = ioc.args;
    const fill = (size: string, id: string, client = clientOrderId) => ({
      exchange: 'scripted',
      symbol,
      market: 'BTC',
      side,
      price: '98.9',
      size,
      orderId: 'order-9',
      clientOrderId: client,
      fullyFilled: false,
      timestampMs: Date.now(),
      fillId: id,
      liquidity: 'taker' as const,
    });
    fills.answer([fill('0.1', 'x1'), fill('0.05', 'x2'), fill('0.2', 'x3', 'someone-else')]);
    await h.hedger.idle();

    expect(h.venue.count('placeIoc')).toBe(1);
    expect(outcome(h.entries)).toMatchObject({
      result: 'timeout',
      filled_size: '0.15',
      settled_from: 'fills',
      venue_position: '0',
    });
    expect(h.failures).toHaveLength(1);
    expect(h.hedger.hedged.toFixed()).toBe('0.15');
  });

  it('an IOC lost before a venue whose requests outlive the hedge timeout: its fate is waited for, then the remainder is retried', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    // Aster: a lost request is known unplaced only after its 10 s nonce window (here 5 s).
    const settlesBy = Date.now() + 5_000;
    h.venue
      .next('placeIoc')
      .fail(new VenueNetworkError('paradex', 'socket closed', undefined, settlesBy));
    while (Date.now() < settlesBy) {
      h.venue.open('order').forEach((lookUp) => lookUp.fail(new UnknownOrderError('paradex')));
      await jest.advanceTimersByTimeAsync(100);
    }
    // Past hedge_timeout_ms: hedge_timeout logged, but no failure, nothing sent while the IOC may land.
    expect(ofType(h.entries, 'hedge_timeout')).toHaveLength(1);
    expect(h.failures).toEqual([]);
    expect(h.venue.count('placeIoc')).toBe(1);
    (await h.venue.waitFor('order')).fail(new UnknownOrderError('paradex'));
    (await h.venue.waitFor('fillsSince')).answer([]);
    await jest.advanceTimersByTimeAsync(25);

    const retry = h.venue.next('placeIoc');
    expect(retry.args.size).toBe('0.4');
    retry.answer(iocAck(retry.args, '0.4'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4', attempts: 2 });
    // The retry's hedge_sent says how far past the timeout the hedge runs.
    const sent = h.entries.filter((entry) => entry.eventType === 'hedge_sent');
    expect(sent.at(-1)!.data).toMatchObject({ attempt: 2 });
    expect(Number(sent.at(-1)!.data['deadline_extended_ms'])).toBeGreaterThanOrEqual(3_000);
    expect(h.failures).toEqual([]);
  });

  it('an IOC still at the venue when the timeout strikes, whose answer is then lost, is waited for and retried too', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS + 500);
    // The client gave up on the answer (its own timeout) after the hedge timed out.
    const settlesBy = Date.now() + 4_000;
    ioc.fail(new VenueNetworkError('paradex', 'request timed out', undefined, settlesBy));
    while (Date.now() < settlesBy) {
      h.venue.open('order').forEach((lookUp) => lookUp.fail(new UnknownOrderError('paradex')));
      h.venue.open('fillsSince').forEach((read) => read.answer([]));
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(h.failures).toEqual([]);
    expect(h.venue.count('placeIoc')).toBe(1);
    while (h.venue.open('placeIoc').length === 0 && Date.now() < settlesBy + 2_000) {
      h.venue.open('order').forEach((lookUp) => lookUp.fail(new UnknownOrderError('paradex')));
      h.venue.open('fillsSince').forEach((read) => read.answer([]));
      await jest.advanceTimersByTimeAsync(25);
    }
    const retry = h.venue.next('placeIoc');
    retry.answer(iocAck(retry.args, '0.4'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4', attempts: 2 });
    expect(h.failures).toEqual([]);
  });

  it('a lost IOC that lands inside its request bound, after the hedge timeout, is its fate: not sent again', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const settlesBy = Date.now() + 5_000;
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new VenueNetworkError('paradex', 'socket closed', undefined, settlesBy));
    while (Date.now() < settlesBy - 1_000) {
      h.venue.open('order').forEach((lookUp) => lookUp.fail(new UnknownOrderError('paradex')));
      await jest.advanceTimersByTimeAsync(100);
    }
    expect(h.failures).toEqual([]);
    while (h.venue.open('order').length === 0) {
      await jest.advanceTimersByTimeAsync(50);
    }
    h.venue.next('order').answer(venueOrder(ioc.args, '0.4', 'filled'));
    await h.hedger.idle();
    expect(h.venue.count('placeIoc')).toBe(1);
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4', attempts: 1 });
    expect(h.failures).toEqual([]);
  });

  it('the deadline moves once: a retry after a lost attempt that does not fill in a further timeout fails the trade', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const settlesBy = Date.now() + 3_000;
    h.venue
      .next('placeIoc')
      .fail(new VenueNetworkError('paradex', 'socket closed', undefined, settlesBy));
    while (h.venue.count('placeIoc') < 2 && Date.now() < settlesBy + 1_000) {
      h.venue.open('order').forEach((lookUp) => lookUp.fail(new UnknownOrderError('paradex')));
      h.venue.open('fillsSince').forEach((read) => read.answer([]));
      await jest.advanceTimersByTimeAsync(50);
    }
    // Every retry fills nothing until the moved deadline passes.
    while (h.failures.length === 0 && Date.now() < settlesBy + 3 * HEDGE_TIMEOUT_MS) {
      h.venue.open('placeIoc').forEach((ioc) => ioc.answer(iocAck(ioc.args, '0')));
      await jest.advanceTimersByTimeAsync(50);
    }
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'timeout', filled_size: '0' });
    expect(h.failures).toHaveLength(1);
    expect(Date.now()).toBeGreaterThanOrEqual(settlesBy + HEDGE_TIMEOUT_MS);
  });

  it('an IOC with no answer for 250 ms puts the hedge in doubt until it answers', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    await jest.advanceTimersByTimeAsync(249);
    expect(h.hedger.inDoubt).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.hedger.inDoubt).toBe(true);
    expect(h.doubtChanges).toBe(1);

    ioc.answer(iocAck(ioc.args, '0.4'));
    await h.hedger.idle();
    expect(h.hedger.inDoubt).toBe(false);
    expect(h.doubtChanges).toBe(2);
  });

  it('on a venue that answers in 300 ms, an IOC is in doubt only when unanswered for twice that', async () => {
    const answerTimes = new VenueAnswerTimes();
    for (let i = 0; i < 10; i += 1) {
      answerTimes.record('paradex', 300);
    }
    const h = harness({ answerTimes });
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    await jest.advanceTimersByTimeAsync(300);
    // A fixed 250 ms bound would have taken the maker order down here, on every hedge.
    expect(h.hedger.inDoubt).toBe(false);
    await jest.advanceTimersByTimeAsync(299);
    expect(h.hedger.inDoubt).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(h.hedger.inDoubt).toBe(true);

    ioc.answer(iocAck(ioc.args, '0.4'));
    await h.hedger.idle();
    expect(h.hedger.inDoubt).toBe(false);
  });

  it('a remainder below the venue minimum ends the hedge partial and waits for the next maker fill', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.5'));
    const first = h.venue.next('placeIoc');
    first.answer(iocAck(first.args, '0.495'));
    await h.hedger.idle();

    expect(outcome(h.entries)).toMatchObject({ result: 'partial', filled_size: '0.495' });
    expect(h.failures).toEqual([]);
    expect(h.hedger.waiting.toFixed()).toBe('0.005');

    h.hedger.onMakerFill('fill-2', new Big(99), new Big('0.01'));
    expect(h.venue.next('placeIoc').args.size).toBe('0.015');
  });

  it('prices a remainder left partial with its own maker fill when the next hedge takes it', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(90), new Big('0.5'));
    const first = h.venue.next('placeIoc');
    first.answer(iocAck(first.args, '0.495'));
    await h.hedger.idle();
    h.hedger.onMakerFill('fill-2', new Big(95), new Big('0.01'));
    const second = h.venue.next('placeIoc');
    expect(second.args.size).toBe('0.015');
    second.answer(iocAck(second.args, '0.015'));
    await h.hedger.idle();

    // Both sold at 99: the first hedge covers 0.495 bought at 90; the second the
    // 0.005 left of that fill and 0.01 bought at 95, on average 93.33...
    const [partial, filled] = ofType(h.entries, 'hedge_outcome').map((entry) => entry.data);
    expect(partial).toMatchObject({ result: 'partial', avg_price: '99', spread_achieved: '9' });
    expect(filled).toMatchObject({ result: 'filled', avg_price: '99' });
    expect(Number(filled!.spread_achieved)).toBeCloseTo(99 - (0.005 * 90 + 0.01 * 95) / 0.015, 6);
  });

  it('an IOC the venue reports filled beyond its size counts only the size it was sent for', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    const ioc = h.venue.next('placeIoc');
    ioc.answer(iocAck({ ...ioc.args, size: '0.5' }, '0.5'));
    await h.hedger.idle();

    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3' });
    expect(h.hedger.hedged.toFixed()).toBe('0.3');
  });

  it('a maker fill while a hedge is out hedges only the new size: nothing is hedged twice', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    h.hedger.onMakerFill('fill-2', new Big(99), new Big('0.2'));
    const [first, second] = h.venue.open('placeIoc');
    expect([first.args.size, second.args.size]).toEqual(['0.3', '0.2']);
    first.answer(iocAck(first.args, '0.3'));
    second.answer(iocAck(second.args, '0.2'));
    await h.hedger.idle();

    expect(h.hedger.hedged.toFixed()).toBe('0.5');
    expect(h.venue.count('placeIoc')).toBe(2);
  });

  it('sends at once on credit when the hedge budget is empty: nothing sits between fill and hedge', async () => {
    const bucket = new TokenBucket(1, { windowMs: 1_000 });
    expect(bucket.take()).toBe(true);
    const h = harness({ bucket });
    const started = h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.2'));

    // Its hedge_sent comes back at once, for the caller to log with the fill, with the
    // hedge venue's mid the IOC arrived at.
    expect(started?.sent).toMatchObject({ data: { attempt: 1, arrival_mid: '100.05' } });
    const ioc = h.venue.next('placeIoc');
    // Paid into debt: the next request of the hedge account waits it out.
    expect(bucket.msUntilAvailable()).toBe(2_000);
    ioc.answer(iocAck(ioc.args, '0.2'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled' });
  });

  it('a metered hedge pays its look-up of a lost answer like its IOC: at once, on credit', async () => {
    const bucket = new TokenBucket(1, { windowMs: 1_000 });
    const h = harness({ bucket });
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.4'));
    const ioc = h.venue.next('placeIoc');
    ioc.fail(new VenueNetworkError('paradex', 'socket closed', undefined, Date.now() + 500));
    await jest.advanceTimersByTimeAsync(0);
    // The IOC took the only token; the look-up does not wait for the next one.
    const lookUp = h.venue.next('order');
    expect(bucket.msUntilAvailable()).toBe(2_000);
    lookUp.answer(venueOrder(ioc.args, '0.4', 'filled'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.4' });
  });

  it('once the lease is lost it sends nothing more and ends without an outcome or a failure', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    h.lease.lost = true;
    const ioc = h.venue.next('placeIoc');
    ioc.answer(iocAck(ioc.args, '0.1'));
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS);
    await h.hedger.idle();

    expect(h.venue.count('placeIoc')).toBe(1);
    expect(ofType(h.entries, 'hedge_outcome')).toHaveLength(0);
    expect(h.failures).toEqual([]);
  });

  it('a maker fill while the lease is not trusted is hedged once it is, inside the hedge timeout', async () => {
    const h = harness();
    h.lease.trusted = false;
    const started = h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    expect(started?.sent).toBeNull();
    await jest.advanceTimersByTimeAsync(500);
    expect(h.venue.open('placeIoc')).toHaveLength(0);
    expect(h.hedger.outstanding.toFixed()).toBe('0.3');

    h.lease.trusted = true;
    await jest.advanceTimersByTimeAsync(10);
    const ioc = h.venue.next('placeIoc');
    expect(ioc.args).toMatchObject({ size: '0.3', price: '99' });
    expect(ofType(h.entries, 'hedge_sent').map((entry) => entry.data)).toMatchObject([
      { attempt: 1, size: '0.3', cause: 'fill-1' },
    ]);
    ioc.answer(iocAck(ioc.args, '0.3'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3' });
    expect(h.failures).toEqual([]);
  });

  it('a retry due while the lease is not trusted waits for it, not dropped', async () => {
    const h = harness();
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    const first = h.venue.next('placeIoc');
    h.lease.trusted = false;
    first.answer(iocAck(first.args, '0.1'));
    await jest.advanceTimersByTimeAsync(500);
    expect(h.venue.open('placeIoc')).toHaveLength(0);

    h.lease.trusted = true;
    await jest.advanceTimersByTimeAsync(10);
    const second = h.venue.next('placeIoc');
    expect(second.args.size).toBe('0.2');
    second.answer(iocAck(second.args, '0.2'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3', attempts: 2 });
  });

  it('a lapse longer than the hedge timeout fails the trade for what it left unhedged', async () => {
    const h = harness();
    h.lease.trusted = false;
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS);
    await h.hedger.idle();

    expect(h.venue.count('placeIoc')).toBe(0);
    expect(outcome(h.entries)).toMatchObject({ result: 'timeout', filled_size: '0' });
    expect(h.failures).toHaveLength(1);
  });

  it('waits for H it does not have yet, and hedges with the first one', async () => {
    const h = harness();
    const unknown = withoutH(h);
    expect(h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'))).toBeNull();
    expect(h.hedger.deferred).toBe(true);
    expect(h.hedger.hedgeDeferred()).toBeNull();

    unknown.value = new Big(100);
    const started = h.hedger.hedgeDeferred();
    expect(started?.sent?.data).toMatchObject({ attempt: 1, size: '0.3', cause: 'fill-1' });
    expect(h.hedger.deferred).toBe(false);
    const ioc = h.venue.next('placeIoc');
    ioc.answer(iocAck(ioc.args, '0.3'));
    await h.hedger.idle();
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3' });
  });
  it('a hedge waiting for H keeps the hedger busy: the trade waits for it before it ends', async () => {
    const h = harness();
    const unknown = withoutH(h);
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    let idle = false;
    void h.hedger.idle().then(() => (idle = true));
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS / 2);
    expect(idle).toBe(false);

    unknown.value = new Big(100);
    h.hedger.hedgeDeferred();
    await jest.advanceTimersByTimeAsync(10);
    expect(idle).toBe(false);
    const ioc = h.venue.next('placeIoc');
    ioc.answer(iocAck(ioc.args, '0.3'));
    await jest.advanceTimersByTimeAsync(10);
    expect(idle).toBe(true);
    expect(outcome(h.entries)).toMatchObject({ result: 'filled', filled_size: '0.3' });
    expect(h.failures).toHaveLength(0);
  });

  it('no H within the hedge timeout: hedge_timeout for the size waiting, and the trade fails', async () => {
    const h = harness();
    const unknown = withoutH(h);
    h.hedger.onMakerFill('fill-1', new Big(99), new Big('0.3'));
    h.hedger.onMakerFill('fill-2', new Big(99), new Big('0.2'));
    await jest.advanceTimersByTimeAsync(HEDGE_TIMEOUT_MS - 1);
    expect(h.failures).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    await h.hedger.idle();

    expect(h.venue.count('placeIoc')).toBe(0);
    expect(ofType(h.entries, 'hedge_timeout').map((entry) => entry.data)).toEqual([
      expect.objectContaining({
        order_id: null,
        waited_ms: HEDGE_TIMEOUT_MS,
        unhedged_size: '0.5',
        cause: 'fill-1',
      }),
    ]);
    expect(outcome(h.entries)).toMatchObject({
      result: 'timeout',
      requested_size: '0.5',
      filled_size: '0',
      attempts: 0,
      slippage_bps: null,
    });
    expect(h.failures).toEqual([`hedge timed out after ${HEDGE_TIMEOUT_MS} ms on paradex`]);
    expect(h.hedger.outstanding.toFixed()).toBe('0.5');

    // A later H sends nothing: the trade has failed, no attempt goes after the timeout.
    unknown.value = new Big(100);
    expect(h.hedger.hedgeDeferred()).toBeNull();
    expect(h.venue.count('placeIoc')).toBe(0);
  });
});

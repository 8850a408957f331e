import { TRADE_STATUSES, type TradeStatus, isTerminalTradeStatus } from './trade-status';
import {
  IllegalTradeTransitionError,
  type TradeLifecycleEvent,
  allowedNextStatuses,
  allowedPreviousStatuses,
  canTransition,
  transitionTrade,
} from './trade-transitions';

/** decisions section 3, written out by hand, with the event each move pushes. */
const EXPECTED: ReadonlyArray<[TradeStatus, TradeStatus, TradeLifecycleEvent | null]> = [
  ['pending', 'validating', null],
  ['validating', 'active', 'trade.started'],
  ['validating', 'rejected', 'trade.failed'],
  ['active', 'completed', 'trade.completed'],
  ['active', 'failed', 'trade.failed'],
  ['active', 'paused', 'trade.paused'],
  ['paused', 'active', 'trade.resumed'],
  ['active', 'recovering', null],
  ['paused', 'recovering', null],
  ['recovering', 'active', 'trade.resumed'],
  ['recovering', 'paused', 'trade.paused'],
  // A hedge in flight is never abandoned; its timeout fails the trade in these too.
  ['paused', 'failed', 'trade.failed'],
  ['recovering', 'failed', 'trade.failed'],
  ['pending', 'canceled', 'trade.canceled'],
  ['validating', 'canceled', 'trade.canceled'],
  ['active', 'canceled', 'trade.canceled'],
  ['paused', 'canceled', 'trade.canceled'],
  ['recovering', 'canceled', 'trade.canceled'],
];

const isExpected = (from: TradeStatus, to: TradeStatus): boolean =>
  EXPECTED.some(([f, t]) => f === from && t === to);

describe('trade state machine', () => {
  it.each(EXPECTED)('%s -> %s is legal and pushes %s', (from, to, event) => {
    expect(transitionTrade(from, to)).toEqual({
      from,
      to,
      event,
      setsCompletedAt: ['completed', 'canceled', 'rejected', 'failed'].includes(to),
    });
  });

  const illegal = TRADE_STATUSES.flatMap((from) =>
    TRADE_STATUSES.filter((to) => !isExpected(from, to)).map((to) => [from, to] as const),
  );

  it('has exactly the listed moves', () => {
    expect(illegal).toHaveLength(TRADE_STATUSES.length ** 2 - EXPECTED.length);
  });

  it.each(illegal)('%s -> %s throws a typed error', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    let thrown: unknown;
    try {
      transitionTrade(from, to);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IllegalTradeTransitionError);
    expect(thrown).toMatchObject({ code: 'illegal_trade_transition', from, to });
  });

  it('lets nothing leave a terminal status', () => {
    for (const status of TRADE_STATUSES.filter(isTerminalTradeStatus)) {
      expect(allowedNextStatuses(status)).toEqual([]);
    }
  });

  it('lists the statuses a guarded update may start from', () => {
    expect([...allowedPreviousStatuses('canceled')].sort()).toEqual([
      'active',
      'paused',
      'pending',
      'recovering',
      'validating',
    ]);
    expect([...allowedPreviousStatuses('failed')].sort()).toEqual([
      'active',
      'paused',
      'recovering',
    ]);
    expect(allowedPreviousStatuses('completed')).toEqual(['active']);
    expect(allowedPreviousStatuses('pending')).toEqual([]);
  });
});

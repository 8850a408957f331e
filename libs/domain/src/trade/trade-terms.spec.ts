import {
  EXECUTING_TRADE_STATUSES,
  TRADE_STATUSES,
  isAmendableTradeStatus,
  isExecutingTradeStatus,
  isTerminalTradeStatus,
  isTradeStatus,
  LIVE_TRADE_STATUSES,
  TERMINAL_TRADE_STATUSES,
  tradeStatusList,
} from './trade-status';
import {
  isExecutionType,
  isMakerLeg,
  isPublicQuoteMode,
  isQuoteMode,
  isSide,
  isSizeType,
  isSpreadCondition,
  isSpreadType,
} from './trade-terms';

describe('trade terms', () => {
  it('accept exactly the values the API spells', () => {
    expect(['long', 'short'].every(isMakerLeg)).toBe(true);
    expect(['buy', 'sell'].every(isSide)).toBe(true);
    expect(['gte', 'gt', 'lte', 'lt', 'eq'].every(isSpreadCondition)).toBe(true);
    expect(['absolute', 'percentage', 'bps', 'ticks'].every(isSpreadType)).toBe(true);
    expect(['base', 'notional'].every(isSizeType)).toBe(true);
    expect(isExecutionType('maker_taker')).toBe(true);
    expect(isQuoteMode('default') && isQuoteMode('aggressive')).toBe(true);
    expect(isPublicQuoteMode('aggressive')).toBe(true);
  });

  it('reject anything else, including other cases and non-strings', () => {
    for (const guard of [
      isMakerLeg,
      isSide,
      isSpreadCondition,
      isSpreadType,
      isSizeType,
      isExecutionType,
    ]) {
      expect(
        [undefined, null, 1, '', 'LONG', 'Gte', 'BPS', 'taker_maker', ['long']].some(guard),
      ).toBe(false);
    }
    expect(isPublicQuoteMode('default')).toBe(false);
  });
});

describe('trade statuses', () => {
  it('group the nine statuses as the interface and decisions 3 do', () => {
    expect(TRADE_STATUSES).toHaveLength(9);
    expect(TRADE_STATUSES.filter(isTerminalTradeStatus)).toEqual([
      'completed',
      'canceled',
      'rejected',
      'failed',
    ]);
    expect(TRADE_STATUSES.filter(isAmendableTradeStatus)).toEqual([
      'pending',
      'validating',
      'active',
      'paused',
      'recovering',
    ]);
    expect(TRADE_STATUSES.filter(isExecutingTradeStatus)).toEqual([...EXECUTING_TRADE_STATUSES]);
    expect(isExecutingTradeStatus('pending')).toBe(false);
    expect(tradeStatusList(LIVE_TRADE_STATUSES)).toEqual([
      'pending',
      ...tradeStatusList(EXECUTING_TRADE_STATUSES),
    ]);
    expect([
      ...tradeStatusList(LIVE_TRADE_STATUSES),
      ...tradeStatusList(TERMINAL_TRADE_STATUSES),
    ]).toEqual([...TRADE_STATUSES]);
    expect(isTradeStatus('active') && !isTradeStatus('running')).toBe(true);
  });
});

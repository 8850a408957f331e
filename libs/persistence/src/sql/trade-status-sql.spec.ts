import {
  EXECUTING_TRADE_STATUSES,
  isTerminalTradeStatus,
  LIVE_TRADE_STATUSES as LIVE,
  TRADE_STATUSES,
  type TradeStatus,
} from '@sts/domain';
import {
  EXECUTING_STATUS_SQL,
  LIVE_STATUS_SQL,
  LIVE_TRADE_STATUSES,
  sqlStatus,
  sqlStatusList,
} from './trade-status-sql';

describe('trade status lists for SQL', () => {
  it('are the domain sets, in the order of TRADE_STATUSES', () => {
    expect(LIVE_TRADE_STATUSES).toEqual(TRADE_STATUSES.filter((s) => !isTerminalTradeStatus(s)));
    expect(new Set(LIVE_TRADE_STATUSES)).toEqual(LIVE);
    // The literal the live trades' partial indexes (migration 1763700100000) and the budgets view
    // (1763700600000) were created with.
    expect(LIVE_STATUS_SQL).toBe(`('pending', 'validating', 'active', 'paused', 'recovering')`);
    expect(EXECUTING_STATUS_SQL).toBe(`('validating', 'active', 'paused', 'recovering')`);
    expect(sqlStatusList(EXECUTING_TRADE_STATUSES)).toBe(EXECUTING_STATUS_SQL);
    expect(sqlStatus('pending')).toBe(`'pending'`);
  });

  it('refuses what is not a status and an empty list', () => {
    expect(() => sqlStatusList(["pending'); DROP TABLE trades; --" as TradeStatus])).toThrow(
      RangeError,
    );
    expect(() => sqlStatusList([])).toThrow(RangeError);
    expect(() => sqlStatusList(new Set<TradeStatus>())).toThrow(RangeError);
  });
});

import { big } from '../testing/fixtures';
import {
  defaultFastMoveThresholdBps,
  isFastMoveGuardMode,
  isValidFastMoveGuardBps,
  isValidFastMoveSettleMs,
  isValidFastMoveWindowMs,
} from './fast-move-settings';

describe('fast-move guard settings', () => {
  it('validates the create fields against the interface limits', () => {
    expect([0.0001, 10, 1000].every(isValidFastMoveGuardBps)).toBe(true);
    expect(
      [0, -1, 1000.0001, Number.NaN, Number.POSITIVE_INFINITY, '10', null].some(
        isValidFastMoveGuardBps,
      ),
    ).toBe(false);
    expect([50, 250, 5000].every(isValidFastMoveWindowMs)).toBe(true);
    expect([49, 5001, 100.5, '250'].some(isValidFastMoveWindowMs)).toBe(false);
    expect([50, 10000].every(isValidFastMoveSettleMs)).toBe(true);
    expect([49, 10001, 500.5].some(isValidFastMoveSettleMs)).toBe(false);
    expect(['shadow', 'on', 'off'].every(isFastMoveGuardMode)).toBe(true);
    expect(isFastMoveGuardMode('ON')).toBe(false);
  });

  it('defaults the threshold to the quote cushion, floored at 10 and capped at 1000', () => {
    expect(defaultFastMoveThresholdBps(big('5'))).toBe(10);
    expect(defaultFastMoveThresholdBps(big('37.123456'))).toBe(37.1235);
    expect(defaultFastMoveThresholdBps(big('5000'))).toBe(1000);
  });
});

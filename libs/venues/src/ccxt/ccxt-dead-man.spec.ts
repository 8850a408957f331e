import { RateLimitedError, VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { ccxtDeadManSwitch } from './ccxt-dead-man';

// ccxt's error classes as the mapping knows them: by class name.
class ExchangeError extends Error {}
class BadRequest extends ExchangeError {}
class NetworkError extends Error {}
class RateLimitExceeded extends NetworkError {}

function fakeExchange(answer: () => Promise<unknown> = () => Promise.resolve({})) {
  const calls: unknown[][] = [];
  const exchange = {
    cancelAllOrdersAfter: (...args: unknown[]) => {
      calls.push(['cancelAllOrdersAfter', ...args]);
      return answer();
    },
    incrementingNonce: () => 1_700_000_000_000,
    signL1Action: (action: unknown, nonce: unknown) => {
      calls.push(['signL1Action', action, nonce]);
      return { r: '0x1', s: '0x2', v: 27 };
    },
    privatePostExchange: (request: unknown) => {
      calls.push(['privatePostExchange', request]);
      return answer();
    },
  };
  return { calls, exchange: exchange as unknown as CcxtExchangeLike };
}

describe('ccxtDeadManSwitch', () => {
  it('is null where ccxt offers no switch this client uses (Paradex) or lacks the method', () => {
    expect(ccxtDeadManSwitch('paradex', fakeExchange().exchange)).toBeNull();
    expect(ccxtDeadManSwitch('hyperliquid', {} as CcxtExchangeLike)).toBeNull();
  });

  it("has each venue's documented shortest timeout, plus 5 s where the venue holds an absolute time on arrival", () => {
    const minimum = (venue: string) =>
      ccxtDeadManSwitch(venue, fakeExchange().exchange)?.minTimeoutMs;
    expect([minimum('hyperliquid'), minimum('extended'), minimum('lighter')]).toEqual([
      10_000, 1_000, 305_000,
    ]);
  });

  it('arms through cancelAllOrdersAfter, cancelsAtMs no earlier than now plus the timeout', async () => {
    const { calls, exchange } = fakeExchange();
    const before = Date.now();
    const armed = await ccxtDeadManSwitch('hyperliquid', exchange)!.arm(15_000);
    expect(calls).toEqual([['cancelAllOrdersAfter', 15_000]]);
    expect(armed.armed && armed.cancelsAtMs).toBeGreaterThanOrEqual(before + 15_000);
  });

  it("answers a venue's refusal as {armed: false, reason} in its words", async () => {
    const text =
      'Cannot set scheduled cancel time until enough volume traded. Required: $1000000. Traded: $0.';
    const { exchange } = fakeExchange(() =>
      Promise.reject(new ExchangeError(`hyperliquid {"status":"err","response":"${text}"}`)),
    );
    expect(await ccxtDeadManSwitch('hyperliquid', exchange)!.arm(15_000)).toEqual({
      armed: false,
      reason: text,
    });
    const lighter = fakeExchange(() =>
      Promise.reject(new BadRequest('lighter timeout should be between 5 minutes and 15 days.')),
    );
    expect(await ccxtDeadManSwitch('lighter', lighter.exchange)!.arm(15_000)).toEqual({
      armed: false,
      reason: 'timeout should be between 5 minutes and 15 days.',
    });
  });

  it('rejects with the VenueError when the venue is not reached or limits the account', async () => {
    const down = fakeExchange(() => Promise.reject(new NetworkError('socket hang up')));
    await expect(ccxtDeadManSwitch('extended', down.exchange)!.arm(15_000)).rejects.toBeInstanceOf(
      VenueNetworkError,
    );
    const limited = fakeExchange(() => Promise.reject(new RateLimitExceeded('429')));
    await expect(
      ccxtDeadManSwitch('extended', limited.exchange)!.arm(15_000),
    ).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("disarms Hyperliquid with the scheduleCancel action without time (ccxt's 0 would arm at now)", async () => {
    const { calls, exchange } = fakeExchange();
    await ccxtDeadManSwitch('hyperliquid', exchange)!.disarm();
    const action = { type: 'scheduleCancel' };
    expect(calls).toEqual([
      ['signL1Action', action, 1_700_000_000_000],
      [
        'privatePostExchange',
        { action, nonce: 1_700_000_000_000, signature: { r: '0x1', s: '0x2', v: 27 } },
      ],
    ]);
  });

  it('disarms Extended with a countdown of 0 and Lighter with an ABORT cancel-all', async () => {
    const extended = fakeExchange();
    await ccxtDeadManSwitch('extended', extended.exchange)!.disarm();
    expect(extended.calls).toEqual([['cancelAllOrdersAfter', 0]]);
    const lighter = fakeExchange();
    await ccxtDeadManSwitch('lighter', lighter.exchange)!.disarm();
    expect(lighter.calls).toEqual([
      ['cancelAllOrdersAfter', 300_000, { time_in_force: 2, time: 0 }],
    ]);
  });

  it('refuses unsent an Extended countdown under a second (ccxt would send 0: off)', async () => {
    const { calls, exchange } = fakeExchange();
    const answer = await ccxtDeadManSwitch('extended', exchange)!.arm(999);
    expect(answer).toMatchObject({ armed: false });
    expect(calls).toEqual([]);
  });
});

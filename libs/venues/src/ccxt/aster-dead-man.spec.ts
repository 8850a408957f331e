import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import { ccxtDeadManSwitch } from './ccxt-dead-man';

// ccxt's error classes as the mapping knows them: by class name.
class ExchangeError extends Error {}
class BadSymbol extends ExchangeError {}
class NetworkError extends Error {}

const IDS: Record<string, string> = { 'ETH/USDT:USDT': 'ETHUSDT', 'BTC/USDT:USDT': 'BTCUSDT' };

function fakeAster(answer: () => Promise<unknown> = () => Promise.resolve({})) {
  const calls: unknown[] = [];
  const exchange = {
    market: (symbol: string) => ({ id: IDS[symbol] }),
    fapiPrivatePostV3CountdownCancelAll: (params: unknown) => {
      calls.push(params);
      return answer();
    },
  };
  return { calls, exchange: exchange as unknown as CcxtExchangeLike };
}

const traded =
  (...symbols: string[]) =>
  () =>
    new Set(symbols);

describe("Aster's dead-man switch (countdownCancelAll, per symbol)", () => {
  it('is built for aster where ccxt has the implicit endpoint, null where it lacks it', () => {
    expect(ccxtDeadManSwitch('aster', fakeAster().exchange)?.minTimeoutMs).toBe(1_000);
    expect(ccxtDeadManSwitch('aster', {} as CcxtExchangeLike)).toBeNull();
  });

  it('arms every traded market, one request each, by its Aster symbol', async () => {
    const { calls, exchange } = fakeAster();
    const markets = traded('ETH/USDT:USDT', 'BTC/USDT:USDT');
    const before = Date.now();
    const armed = await ccxtDeadManSwitch('aster', exchange, markets)!.arm(15_000);
    expect(calls).toEqual([
      { symbol: 'ETHUSDT', countdownTime: 15_000 },
      { symbol: 'BTCUSDT', countdownTime: 15_000 },
    ]);
    expect(armed.armed && armed.cancelsAtMs).toBeGreaterThanOrEqual(before + 15_000);
  });

  it('holds vacuously with no market traded, sending nothing', async () => {
    const { calls, exchange } = fakeAster();
    expect(await ccxtDeadManSwitch('aster', exchange)!.arm(15_000)).toMatchObject({ armed: true });
    expect(calls).toEqual([]);
  });

  it('disarms every traded market with countdownTime 0', async () => {
    const { calls, exchange } = fakeAster();
    await ccxtDeadManSwitch('aster', exchange, traded('ETH/USDT:USDT', 'BTC/USDT:USDT'))!.disarm();
    expect(calls).toEqual([
      { symbol: 'ETHUSDT', countdownTime: 0 },
      { symbol: 'BTCUSDT', countdownTime: 0 },
    ]);
  });

  it("answers a refusal in the venue's words; an unreached venue rejects", async () => {
    const refused = fakeAster(() =>
      Promise.reject(new BadSymbol('aster {"code":-1121,"msg":"Invalid symbol."}')),
    );
    const markets = traded('ETH/USDT:USDT');
    expect(await ccxtDeadManSwitch('aster', refused.exchange, markets)!.arm(15_000)).toEqual({
      armed: false,
      reason: 'Invalid symbol.',
    });
    const down = fakeAster(() => Promise.reject(new NetworkError('socket hang up')));
    await expect(
      ccxtDeadManSwitch('aster', down.exchange, markets)!.arm(15_000),
    ).rejects.toBeInstanceOf(VenueNetworkError);
  });

  it('refuses unsent a countdown under a second', async () => {
    const { calls, exchange } = fakeAster();
    const answer = await ccxtDeadManSwitch('aster', exchange, traded('ETH/USDT:USDT'))!.arm(999);
    expect(answer).toMatchObject({ armed: false });
    expect(calls).toEqual([]);
  });
});

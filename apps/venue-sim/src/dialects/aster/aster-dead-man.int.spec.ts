import { DeadManWorld } from '../../control/dead-man-test-kit';
import type { DeadManState } from '../../control/dead-man-switches';
import {
  asterTrader,
  loggedRequests,
  startAsterWorld,
  thrown,
  type AsterWorld,
} from './aster-test-kit';

jest.setTimeout(60_000);

/**
 * The same world and client resting orders on another market: the test kit
 * rests on its one symbol; Aster's switch is per symbol, so these tests
 * need two.
 */
function onMarket(world: DeadManWorld, symbol: string): DeadManWorld {
  return Object.assign(Object.create(DeadManWorld.prototype) as DeadManWorld, world, { symbol });
}

/** Time passes for the switches until none is due within `ms` (the board fires one entry per account a call). */
async function elapseAll(world: DeadManWorld, ms: number): Promise<DeadManState[]> {
  const fired: DeadManState[] = [];
  for (let round = 0; round < 10; round += 1) {
    const now = await world.elapse(ms);
    if (now.length === 0) {
      break;
    }
    fired.push(...now);
  }
  return fired;
}

const symbolsOf = (state: DeadManState) =>
  Object.keys((state.details?.['countdowns'] ?? {}) as Record<string, number>).sort();

// Aster's `POST /fapi/v3/countdownCancelAll` (per symbol) armed by the live
// client through ccxt's implicit API for every market it traded; time passes
// for the switches alone, and the simulator's own records tell what it canceled.
describe('Aster countdownCancelAll through the live client', () => {
  let world: DeadManWorld;
  let btc: DeadManWorld;

  beforeEach(async () => {
    world = await DeadManWorld.start('aster', 'ETHUSDT', `dm-aster:${Date.now()}`);
    btc = onMarket(world, 'BTCUSDT');
  });

  afterEach(async () => {
    await world.stop();
  });

  it('arms every traded market; when the countdowns end every resting order is canceled, and nothing after', async () => {
    await world.rest(2);
    await btc.rest(1);
    const armed = await world.deadMan.arm(60_000);
    expect(armed).toEqual({ armed: true, cancelsAtMs: expect.any(Number) });
    expect(symbolsOf(await world.state())).toEqual(['BTCUSDT', 'ETHUSDT']);
    const endpoint = `${world.sim.url}/dialects/aster`;
    const log = await loggedRequests({ endpoint } as AsterWorld, world.wallet);
    const sent = log.filter((r) => r.path.endsWith('/countdownCancelAll'));
    expect(sent.map((r) => [r.params['symbol'], r.params['countdownTime']]).sort()).toEqual([
      ['BTCUSDT', '60000'],
      ['ETHUSDT', '60000'],
    ]);

    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 3 });
    await elapseAll(world, 61_000);
    expect(await world.statuses()).toEqual({ canceled: 3 });
    const state = await world.state();
    expect(state).toMatchObject({ armed: false });
    expect(state.details?.['firings']).toEqual([
      expect.objectContaining({ symbol: 'ETHUSDT', canceled: 2 }),
      expect.objectContaining({ symbol: 'BTCUSDT', canceled: 1 }),
    ]);

    await world.rest(1);
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ canceled: 3, open: 1 });
  });

  // A countdown weighs 10 of A1 a market, every third of the timeout: an IOC never rests, so
  // a market the account only hedges on is not armed.
  it('arms no market where only IOCs were sent', async () => {
    await world.rest(1);
    await btc.take(1);
    await world.deadMan.arm(60_000);
    expect(symbolsOf(await world.state())).toEqual(['ETHUSDT']);
    const endpoint = `${world.sim.url}/dialects/aster`;
    const log = await loggedRequests({ endpoint } as AsterWorld, world.wallet);
    const sent = log.filter((r) => r.path.endsWith('/countdownCancelAll'));
    expect(sent.map((r) => r.params['symbol'])).toEqual(['ETHUSDT']);
  });

  // A market lingers a minute after its last order closed (RESTING_MARKET_LINGER_MS, so that a
  // re-quote's placement never waits for an arming of its own): here it lingers not at all.
  it('stops arming a market once every order of ours there closed', async () => {
    const prompt = await DeadManWorld.start(
      'aster',
      'ETHUSDT',
      `dm-aster-prune:${Date.now()}`,
      {},
      {
        restingMarketLingerMs: 0,
      },
    );
    try {
      await onMarket(prompt, 'BTCUSDT').rest(1);
      for (const order of await prompt.client.openOrders('BTCUSDT')) {
        await prompt.client.cancel({ clientOrderId: order.clientOrderId, symbol: 'BTCUSDT' });
      }
      await prompt.rest(1);
      await prompt.deadMan.arm(60_000);
      expect(symbolsOf(await prompt.state())).toEqual(['ETHUSDT']);
    } finally {
      await prompt.stop();
    }
  });

  it('keeps arming a market a minute after its last order closed', async () => {
    await btc.rest(1);
    for (const order of await world.client.openOrders('BTCUSDT')) {
      await world.client.cancel({ clientOrderId: order.clientOrderId, symbol: 'BTCUSDT' });
    }
    await world.rest(1);
    await world.deadMan.arm(60_000);
    expect(symbolsOf(await world.state())).toEqual(['BTCUSDT', 'ETHUSDT']);
  });

  // Lost after the venue took it, the order rests: its market stays armed until it is seen.
  it('keeps arming a market whose placement answer was lost', async () => {
    await world.rest(1);
    await world.control.loseNext('aster', { op: 'place', at: 'after', then: 'drop' });
    await expect(btc.rest(1)).rejects.toThrow();
    await world.deadMan.arm(60_000);
    expect(symbolsOf(await world.state())).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(await world.statuses()).toEqual({ open: 2 });
  });

  it('covers a market first traded while armed before its first resting order', async () => {
    await world.rest(1);
    await world.deadMan.arm(20_000);
    // Traded after the arming: its countdown starts before its order rests, not at the next push.
    await btc.rest(1);
    expect(symbolsOf(await world.state())).toEqual(['BTCUSDT', 'ETHUSDT']);
    await elapseAll(world, 21_000);
    const { orders } = await world.control.accountOrders('aster', world.wallet);
    expect(orders.map((o) => [o.symbol, o.status]).sort()).toEqual([
      ['BTCUSDT', 'canceled'],
      ['ETHUSDT', 'canceled'],
    ]);
  });

  it('holds vacuously before any market was traded; the first resting order is covered', async () => {
    expect(await world.deadMan.arm(20_000)).toMatchObject({ armed: true });
    expect(await world.state()).toMatchObject({ armed: false });
    await world.rest(1);
    expect(await world.state()).toMatchObject({ armed: true });
    await world.deadMan.disarm();
    await btc.rest(1);
    expect(symbolsOf(await world.state())).toEqual([]);
  });

  it('is pushed forward by arming again', async () => {
    await world.rest(1);
    await btc.rest(1);
    await world.deadMan.arm(20_000);
    const again = await world.deadMan.arm(120_000);
    expect(await world.elapse(30_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 2 });
    expect((await world.state()).cancelsAtMs).toBeLessThanOrEqual(
      again.armed ? again.cancelsAtMs : 0,
    );
    await elapseAll(world, 121_000);
    expect(await world.statuses()).toEqual({ canceled: 2 });
  });

  it('is taken off every market by disarming (countdownTime 0)', async () => {
    await world.rest(1);
    await btc.rest(1);
    await world.deadMan.arm(20_000);
    await world.deadMan.disarm();
    expect(await world.state()).toMatchObject({ armed: false, cancelsAtMs: null });
    expect(symbolsOf(await world.state())).toEqual([]);
    expect(await world.elapse(3_600_000)).toEqual([]);
    expect(await world.statuses()).toEqual({ open: 2 });
  });
});

describe('Aster countdownCancelAll on the wire', () => {
  it('answers {symbol, countdownTime} as the document shows, and refuses a bad symbol or a missing time', async () => {
    const world = await startAsterWorld();
    const { exchange } = await asterTrader(world, 'countdown');
    const ccxt = exchange as unknown as {
      fapiPrivatePostV3CountdownCancelAll(params: object): Promise<unknown>;
    };
    try {
      await exchange.loadMarkets();
      expect(
        await ccxt.fapiPrivatePostV3CountdownCancelAll({
          symbol: 'ETHUSDT',
          countdownTime: 120_000,
        }),
      ).toEqual({ symbol: 'ETHUSDT', countdownTime: '120000' });
      const unknown = await thrown(
        ccxt.fapiPrivatePostV3CountdownCancelAll({ symbol: 'NOPEUSDT', countdownTime: 1000 }),
      );
      expect(unknown.message).toContain('"code":-1121');
      const missing = await thrown(ccxt.fapiPrivatePostV3CountdownCancelAll({ symbol: 'ETHUSDT' }));
      expect(missing.message).toContain('"code":-1102');
    } finally {
      await exchange.close();
      await world.sim.stop();
    }
  });
});

describe('Aster countdownCancelAll in real time', () => {
  it('fires by itself when the countdown ends', async () => {
    const world = await DeadManWorld.start('aster', 'ETHUSDT', `dm-aster-rt:${Date.now()}`);
    try {
      await world.rest(1);
      await world.deadMan.arm(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await world.statuses()).toEqual({ canceled: 1 });
    } finally {
      await world.stop();
    }
  });
});

import Big from 'big.js';
import { sleep } from '@sts/platform';
import { createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

const MARKET = 'ETH-USD';

type ExtendedCcxt = CcxtExchangeLike & {
  createOrder(
    symbol: string,
    type: string,
    side: string,
    amount: number,
    price: number,
    params?: Record<string, unknown>,
  ): Promise<{ id?: string }>;
  fetchOrder(id: string, symbol?: string): Promise<{ info: Record<string, unknown> }>;
  loadMarkets(): Promise<Record<string, { id: string; symbol: string }>>;
  last_request_body?: string;
};

/**
 * The worker unwinds a trade's remainder with a reduce-only IOC, which ccxt
 * 4.5.84 sends to Extended as the order's `reduceOnly: true`, beside the
 * StarkEx settlement it signs (the flag is not in the settlement's hash).
 * Extended refuses a reduce-only order against the position at the request
 * (1136-1138), and rejects one the position no longer allows when its queue
 * reaches the engine (`REDUCE_ONLY_FAILED`).
 */
describe('Extended dialect: reduce-only IOCs through ccxt', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  let exchange: ExtendedCcxt;
  let wallet: string;
  /** ccxt's symbol of ETH-USD. */
  let UNIFIED: string;
  let seq = 0;
  const nextId = () => `reduce-${(seq += 1)}`;

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 43, tickMs: 0 });
    control = new SimControl(sim.url);
    const label = 'extended-reduce-only';
    const credentials = await liveAccountCredentials('extended', sim.url, label);
    exchange = (await createCcxtExchange('extended', credentials, {
      endpoint: `${sim.url}/dialects/extended`,
    })) as ExtendedCcxt;
    wallet = harnessWallet(label).address;
    await openLiveAccount('extended', exchange, control, wallet);
    UNIFIED = Object.values(await exchange.loadMarkets()).find((m) => m?.id === MARKET)!.symbol;
  });

  afterAll(async () => {
    await exchange?.close();
    await sim?.stop();
  });

  afterEach(async () => {
    await holdQueue(false);
    await control.setDialectProfile('extended', { reduce_only_min_size: 'applies' });
  });

  const holdQueue = (hold: boolean) =>
    fetch(`${sim.url}/dialects/extended/_sim/queue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hold }),
    });

  const top = () => {
    const market = sim.world().venue('extended').market(MARKET);
    return {
      bid: Number(market.price.format(market.book.bids.best()!.priceTicks)),
      ask: Number(market.price.format(market.book.asks.best()!.priceTicks)),
    };
  };

  /** The wallet's ETH position from the venue's own fills, once it is `expected` (the queue acts after). */
  const position = async (expected: string): Promise<string> => {
    let net = '';
    for (let tries = 0; tries < 100; tries += 1) {
      const { fills } = await control.accountFills('extended', wallet);
      net = fills
        .filter((fill) => fill['symbol'] === MARKET)
        .reduce(
          (sum, fill) =>
            fill['side'] === 'buy'
              ? sum.plus(fill['size'] as string)
              : sum.minus(fill['size'] as string),
          new Big(0),
        )
        .toFixed();
      if (net === expected) {
        break;
      }
      await sleep(20);
    }
    return net;
  };

  const ioc = (side: 'buy' | 'sell', size: number, reduceOnly: boolean, clientOrderId = nextId()) =>
    exchange.createOrder(UNIFIED, 'limit', side, size, side === 'buy' ? top().ask : top().bid, {
      timeInForce: 'IOC',
      clientOrderId,
      ...(reduceOnly ? { reduceOnly: true } : {}),
    });

  const refusal = async (call: Promise<unknown>): Promise<string> => {
    try {
      await call;
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  it('takes one as sent with its signed settlement, and refuses one against the position (1136-1138)', async () => {
    expect(await refusal(ioc('sell', 0.02, true))).toContain('"code":1137');
    await ioc('buy', 0.05, false);
    expect(await position('0.05')).toBe('0.05');

    const placed = await ioc('sell', 0.03, true, 'unwind-1');
    const sent = JSON.parse(exchange.last_request_body ?? '{}') as Record<string, unknown>;
    expect(sent).toMatchObject({ id: 'unwind-1', reduceOnly: true, timeInForce: 'IOC' });
    expect(sent['settlement']).toMatchObject({ signature: expect.any(Object) });
    expect(await position('0.02')).toBe('0.02');
    expect((await exchange.fetchOrder(placed.id!, UNIFIED)).info).toMatchObject({
      externalId: 'unwind-1',
      status: 'FILLED',
      reduceOnly: true,
    });

    expect(await refusal(ioc('sell', 0.05, true))).toContain('"code":1136');
    expect(await refusal(ioc('buy', 0.01, true))).toContain('"code":1138');
    expect(await position('0.02')).toBe('0.02');
  });

  it('rejects one the position no longer allows when its queue reaches the engine (REDUCE_ONLY_FAILED)', async () => {
    await holdQueue(true);
    await ioc('sell', 0.02, false);
    const late = await ioc('sell', 0.02, true, 'unwind-late');
    await holdQueue(false);
    expect(await position('0')).toBe('0');
    let order: Record<string, unknown> = {};
    for (let tries = 0; tries < 100 && order['status'] !== 'REJECTED'; tries += 1) {
      order = (await exchange.fetchOrder(late.id!, UNIFIED)).info;
      await sleep(20);
    }
    expect(order).toMatchObject({ status: 'REJECTED', statusReason: 'REDUCE_ONLY_FAILED' });
  });

  it.each([
    ['applies', '0.01'],
    ['waived', '0.005'],
  ])(
    'reduce_only_min_size=%s: one under the 0.01 minimum trade size is refused (1120) or taken',
    async (value, after) => {
      await control.setDialectProfile('extended', { reduce_only_min_size: value });
      const start = await position('0');
      await ioc('buy', 0.01, false);
      expect(await position(new Big(start).plus('0.01').toFixed())).toBe(
        new Big(start).plus('0.01').toFixed(),
      );
      if (value === 'applies') {
        expect(await refusal(ioc('sell', 0.005, true))).toContain('"code":1120');
      } else {
        await ioc('sell', 0.005, true);
      }
      const expected = new Big(start).plus(after).toFixed();
      expect(await position(expected)).toBe(expected);
      // Flat again for the next case (0.005 under the minimum: reduce-only, spared it).
      await ioc('sell', Number(expected), value === 'waived');
      expect(await position('0')).toBe('0');
    },
  );
});

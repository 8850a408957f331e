import Big from 'big.js';
import { SimControl } from '@sts/app-venue-sim';
import { sleep } from '@sts/platform';
import { GatewayHarness } from './gateway-harness';

interface Touch {
  bid: Big;
  ask: Big;
}

describe('GET /api/v1/markets/{market}/spread (issue 20, read from the paper venues)', () => {
  const gateway = new GatewayHarness();
  let sim: SimControl;

  beforeAll(async () => {
    await gateway.start({ venues: true });
    sim = new SimControl(gateway.venueSim!.url);
  });
  afterAll(() => gateway.stop());

  /** The simulator's own book: what the answer must show. */
  const simTouch = async (venue: string, symbol: string): Promise<Touch> => {
    const response = await fetch(`${gateway.venueSim!.url}/venues/${venue}/book/${symbol}?depth=1`);
    // Levels are [price, size] pairs, best first.
    const book = (await response.json()) as {
      bids: Array<[string, string]>;
      asks: Array<[string, string]>;
    };
    return { bid: new Big(book.bids[0][0]), ask: new Big(book.asks[0][0]) };
  };
  const tickOf = async (venue: string, symbol: string): Promise<Big> => {
    const response = await fetch(`${gateway.venueSim!.url}/venues/${venue}/markets`);
    const { markets } = (await response.json()) as {
      markets: Array<{ symbol: string; tick_size: string }>;
    };
    return new Big(markets.find((market) => market.symbol === symbol)!.tick_size);
  };
  const spread = (market: string, query: string) =>
    gateway.request('GET', `/api/v1/markets/${market}/spread?${query}`);

  it('shows both touches and the spread of a long maker at its touch against the short venue’s bid', async () => {
    const answer = await spread('BTC', 'long_exchange=hyperliquid&short_exchange=paradex');
    expect(answer.status).toBe(200);
    const long = await simTouch('hyperliquid', 'BTC');
    const short = await simTouch('paradex', 'BTC-USD-PERP');
    const longTick = await tickOf('hyperliquid', 'BTC');
    // The default quote buys at the long venue's best bid, on its tick grid; the hedge sells at H, the short bid.
    const makerPrice = long.bid.div(longTick).round(0, Big.roundDown).times(longTick);
    expect(answer.body).toEqual({
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'paradex',
      long: { bid: long.bid.toFixed(), ask: long.ask.toFixed() },
      short: { bid: short.bid.toFixed(), ask: short.ask.toFixed() },
      spread_type: 'absolute',
      spread: short.bid.minus(makerPrice).toFixed(),
      condition_met: null,
      at: expect.any(String),
    });
    expect(Math.abs(Date.parse(answer.body.at) - Date.now())).toBeLessThan(5_000);
  });

  it('a short maker sells at the short venue’s ask against the long venue’s ask', async () => {
    const answer = await spread(
      'ETH',
      'long_exchange=hyperliquid&short_exchange=paradex&maker_leg=short',
    );
    expect(answer.status).toBe(200);
    const long = await simTouch('hyperliquid', 'ETH');
    const short = await simTouch('paradex', 'ETH-USD-PERP');
    const shortTick = await tickOf('paradex', 'ETH-USD-PERP');
    const makerPrice = short.ask.div(shortTick).round(0, Big.roundUp).times(shortTick);
    expect(answer.body.spread).toBe(makerPrice.minus(long.ask).toFixed());
  });

  it('converts to bps of H and to ticks of the coarser tick', async () => {
    const base = 'long_exchange=hyperliquid&short_exchange=paradex';
    const absolute = new Big((await spread('BTC', base)).body.spread);
    const short = await simTouch('paradex', 'BTC-USD-PERP');
    const coarser = [
      await tickOf('hyperliquid', 'BTC'),
      await tickOf('paradex', 'BTC-USD-PERP'),
    ].reduce((a, b) => (a.gt(b) ? a : b));
    const bps = await spread('BTC', `${base}&spread_type=bps`);
    expect(bps.body.spread_type).toBe('bps');
    expect(bps.body.spread).toBe(
      absolute.times(10000).div(short.bid).round(10, Big.roundHalfEven).toFixed(),
    );
    const inTicks = await spread('BTC', `${base}&spread_type=ticks`);
    expect(inTicks.body.spread).toBe(absolute.div(coarser).round(10, Big.roundHalfEven).toFixed());
  });

  it('says whether the condition holds, exactly at the boundary', async () => {
    const base = 'long_exchange=hyperliquid&short_exchange=paradex';
    const now = (await spread('BTC', base)).body.spread as string;
    const above = new Big(now).plus('0.1').toFixed();
    const cases: Array<[string, string, boolean]> = [
      ['gte', now, true],
      ['gt', now, false],
      ['lte', now, true],
      ['lt', now, false],
      ['gte', above, false],
      ['lt', above, true],
    ];
    for (const [condition, target, met] of cases) {
      const answer = await spread(
        'BTC',
        `${base}&target_spread=${target}&spread_condition=${condition}`,
      );
      expect([condition, target, answer.body.condition_met]).toEqual([condition, target, met]);
    }
    // Half a target (a form being filled in) is no condition: null, not an error.
    for (const half of [`target_spread=${now}`, 'spread_condition=gte']) {
      const answer = await spread('BTC', `${base}&${half}`);
      expect([half, answer.status, answer.body.condition_met]).toEqual([half, 200, null]);
    }
  });

  it('refuses bad parameters with 400 naming the field', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['btc', 'long_exchange=hyperliquid&short_exchange=paradex', 'invalid_request', 'market'],
      ['BTC', 'short_exchange=paradex', 'invalid_request', 'long_exchange'],
      [
        'BTC',
        'long_exchange=hyperliquid&short_exchange=paradex&maker_leg=middle',
        'invalid_request',
        'maker_leg',
      ],
      [
        'BTC',
        'long_exchange=hyperliquid&short_exchange=paradex&spread_type=pips',
        'invalid_request',
        'spread_type',
      ],
      [
        'BTC',
        'long_exchange=hyperliquid&short_exchange=paradex&target_spread=1e3&spread_condition=gte',
        'invalid_request',
        'target_spread',
      ],
      ['BTC', 'long_exchange=hyperliquid&short_exchange=paradex&size=1', 'invalid_request', 'size'],
      ['BTC', 'long_exchange=binance&short_exchange=paradex', 'unknown_exchange', 'binance'],
      ['BTC', 'long_exchange=paradex&short_exchange=paradex', 'same_exchange', 'short_exchange'],
    ];
    for (const [market, query, code, field] of cases) {
      const answer = await spread(market, query);
      expect([query, answer.status, answer.body.code]).toEqual([query, 400, code]);
      expect(answer.body.error).toContain(field);
    }
  });

  it('is 404 for a market one of the venues does not list', async () => {
    const hype = await spread('HYPE', 'long_exchange=hyperliquid&short_exchange=paradex');
    expect(hype).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(hype.body.error).toContain('paradex');
    const unknown = await spread('NOPE', 'long_exchange=hyperliquid&short_exchange=paradex');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('is 503 naming the venue while its book cannot be read, and recovers', async () => {
    const query = 'long_exchange=hyperliquid&short_exchange=aster';
    expect((await spread('SOL', query)).status).toBe(200);
    // The simulator drops the book sockets of aster and refuses reconnects for 3 s.
    await sim.dropSockets('aster', 3_000);
    let refused: any;
    for (let attempt = 0; attempt < 20 && refused?.status !== 503; attempt += 1) {
      refused = await spread('SOL', query);
      await sleep(50);
    }
    expect(refused).toMatchObject({
      status: 503,
      body: { code: 'service_unavailable', reason: 'aster' },
    });
    expect(refused.headers.get('retry-after')).not.toBeNull();
    let recovered: any;
    for (let attempt = 0; attempt < 40 && recovered?.status !== 200; attempt += 1) {
      await sleep(250);
      recovered = await spread('SOL', query);
    }
    expect(recovered.status).toBe(200);
  });
});

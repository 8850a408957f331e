import {
  PaperVenueClient,
  signedHeaders,
  VenueAuthError,
  type PaperCredentials,
  type VenueMarket,
} from '@sts/venues';
import WebSocket from 'ws';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';
import { sleep } from '@sts/platform';

describe('venue simulator HTTP API', () => {
  let sim: RunningVenueSim;
  let control: SimControl;
  const clients: PaperVenueClient[] = [];

  const client = (
    venue: string,
    credentials: PaperCredentials,
    selfRegister = true,
  ): PaperVenueClient => {
    const created = new PaperVenueClient({
      venue,
      baseUrl: `${sim.url}/venues/${venue}`,
      credentials,
      selfRegister,
      connectTimeoutMs: 2_000,
    });
    clients.push(created);
    return created;
  };
  const marketsOf = async (venue: string): Promise<Map<string, VenueMarket>> => {
    const markets = await client(venue, {
      apiKey: `m-${venue}`,
      apiSecret: 's',
      wallet: '0xm',
    }).markets();
    return new Map(markets.map((market) => [market.entry.symbol, market]));
  };

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 5, tickMs: 0 });
    control = new SimControl(sim.url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim.stop();
  });

  describe('markets', () => {
    it('maps every venue spelling of the PEPE contract to 1000PEPE', async () => {
      const canonical = async (venue: string, symbol: string) =>
        (await marketsOf(venue)).get(symbol)?.canonical;
      expect(await canonical('hyperliquid', 'kPEPE')).toBe('1000PEPE');
      expect(await canonical('lighter', '1000PEPE')).toBe('1000PEPE');
      expect(await canonical('paradex', 'kPEPE-USD-PERP')).toBe('1000PEPE');
      expect(await canonical('extended', '1000PEPE-USD')).toBe('1000PEPE');
      expect(await canonical('aster', '1000PEPEUSDT')).toBe('1000PEPE');
      expect(await canonical('paradex', 'BTC-USD-PERP')).toBe('BTC');
    });

    it('lists HYPE on some venues only, twice on aster (ambiguous there)', async () => {
      const hype = async (venue: string) =>
        [...(await marketsOf(venue)).values()].filter((m) => m.canonical === 'HYPE');
      expect(await hype('hyperliquid')).toHaveLength(1);
      expect(await hype('lighter')).toHaveLength(1);
      expect(await hype('paradex')).toHaveLength(0);
      expect(await hype('extended')).toHaveLength(0);
      expect((await hype('aster')).map((m) => m.entry.symbol).sort()).toEqual([
        'HYPEUSD1',
        'HYPEUSDT',
      ]);
    });

    it('gives per-venue metadata and omits what a venue does not publish', async () => {
      const btc = (await marketsOf('paradex')).get('BTC-USD-PERP')!;
      expect(btc.entry).toEqual({
        symbol: 'BTC-USD-PERP',
        tick_size: '0.1',
        lot_size: '0.00001',
        min_size: '0.0001',
        min_notional: '100',
        max_leverage: 50,
        funding_interval_hours: 8,
        live_funding_rate: expect.stringMatching(/^-?\d+(\.\d+)?$/),
        live_funding_annualised: expect.stringMatching(/^-?\d+(\.\d+)?$/),
        volume_24h_usd: expect.stringMatching(/^\d+$/),
        open_interest_usd: expect.stringMatching(/^\d+$/),
      });
      const extended = (await marketsOf('extended')).get('BTC-USD')!.entry;
      expect(extended).not.toHaveProperty('min_notional');
      expect(extended).not.toHaveProperty('open_interest_usd');
      expect(extended.isolated_only).toBe(false);
      expect((await marketsOf('extended')).get('1000PEPE-USD')!.entry.isolated_only).toBe(true);
      expect((await marketsOf('hyperliquid')).get('BTC')!.entry.tick_size).toBe('1');
      expect((await marketsOf('aster')).get('BTCUSDT')!.entry.max_leverage).toBe(125);
    });
  });

  describe('authentication', () => {
    it('refuses unsigned, forged, stale and wrong-wallet requests with 401', async () => {
      const good = client('aster', {
        apiKey: 'auth-key',
        apiSecret: 'auth-secret',
        wallet: '0xAuth',
      });
      await good.connect();
      const path = '/venues/aster/orders/open';
      const status = async (headers: Record<string, string>) =>
        (await fetch(`${sim.url}${path}`, { headers })).status;
      const credentials = { apiKey: 'auth-key', apiSecret: 'auth-secret', wallet: '0xauth' };
      expect(await status(signedHeaders(credentials, 'GET', path, ''))).toBe(200);
      expect(await status({})).toBe(401);
      expect(
        await status(signedHeaders({ ...credentials, apiSecret: 'guess' }, 'GET', path, '')),
      ).toBe(401);
      expect(await status(signedHeaders(credentials, 'GET', path, '', Date.now() - 60_000))).toBe(
        401,
      );
      expect(
        await status(signedHeaders({ ...credentials, wallet: '0xother' }, 'GET', path, '')),
      ).toBe(401);
      expect(await status(signedHeaders(credentials, 'GET', `${path}?symbol=BTCUSDT`, ''))).toBe(
        401,
      );
    });

    it('keeps the first secret registered for a key (trust on first use)', async () => {
      await client('lighter', { apiKey: 'tofu', apiSecret: 'first', wallet: '0xt' }).connect();
      const impostor = client('lighter', { apiKey: 'tofu', apiSecret: 'second', wallet: '0xt' });
      await expect(impostor.connect()).rejects.toBeInstanceOf(VenueAuthError);
      const unregistered = client(
        'lighter',
        { apiKey: 'never-registered', apiSecret: 'x', wallet: '0xn' },
        false,
      );
      await expect(unregistered.openOrders()).rejects.toBeInstanceOf(VenueAuthError);
      await expect(unregistered.connect()).rejects.toBeInstanceOf(VenueAuthError);
    });

    it('accepts accounts registered by the operator through the control endpoint', async () => {
      await control.registerAccount('paradex', {
        apiKey: 'ops-key',
        apiSecret: 'ops-secret',
        wallet: '0xOps',
        collateral: '5000',
      });
      const ops = client(
        'paradex',
        { apiKey: 'ops-key', apiSecret: 'ops-secret', wallet: '0xops' },
        false,
      );
      await ops.connect();
      const [balance] = await ops.balances();
      expect(balance.total).toBe('5000');
    });
  });

  it('answers malformed stream messages with errors and keeps the socket', async () => {
    const socket = new WebSocket(`${sim.url.replace('http', 'ws')}/venues/paradex/ws`);
    const received: Array<{ type: string; code?: string }> = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as { type: string }));
    await new Promise((resolve) => socket.once('open', resolve));
    for (const text of [
      'null',
      '5',
      'not json',
      '{"op":"subscribe","channel":"book"}',
      '{"op":"dance"}',
    ]) {
      socket.send(text);
    }
    socket.send(JSON.stringify({ op: 'subscribe', channel: 'account' }));
    socket.send(JSON.stringify({ op: 'ping' }));
    const deadline = Date.now() + 2_000;
    while (received.length < 7 && Date.now() < deadline) {
      await sleep(10);
    }
    socket.close();
    expect(received.map((message) => message.code ?? message.type)).toEqual([
      'invalid_request',
      'invalid_request',
      'invalid_request',
      'unknown_market',
      'invalid_request',
      'unauthorized',
      'pong',
    ]);
  });

  it('refuses a malformed order with invalid_request', async () => {
    const trader = client('paradex', { apiKey: 'bad-order', apiSecret: 's', wallet: '0xb' });
    await trader.connect();
    const attempt = trader.placePostOnly({
      symbol: 'BTC-USD-PERP',
      side: 'buy',
      price: '1e5',
      size: '0.01',
      clientOrderId: 'x',
    });
    await expect(attempt).rejects.toMatchObject({ code: 'rejected', reason: 'invalid_request' });
    const offTick = trader.placePostOnly({
      symbol: 'BTC-USD-PERP',
      side: 'buy',
      price: '90000.05',
      size: '0.01',
      clientOrderId: 'y',
    });
    await expect(offTick).rejects.toMatchObject({ code: 'rejected', reason: 'invalid_tick' });
  });

  it('takes a reduce-only IOC from the paper client down to the position, and no further', async () => {
    const trader = client('hyperliquid', {
      apiKey: 'reducer',
      apiSecret: 's',
      wallet: '0xReducer',
    });
    await trader.connect();
    const response = await fetch(`${sim.url}/venues/hyperliquid/book/SOL?depth=1`);
    const book = (await response.json()) as { bids: string[][]; asks: string[][] };
    const [bid, ask] = [book.bids[0][0], book.asks[0][0]];
    const ioc = (side: 'buy' | 'sell', size: string, id: string, reduceOnly?: boolean) =>
      trader.placeIoc({
        symbol: 'SOL',
        side,
        price: side === 'buy' ? ask : bid,
        size,
        clientOrderId: id,
        ...(reduceOnly ? { reduceOnly } : {}),
      });
    await expect(ioc('sell', '0.23', 'r0', true)).rejects.toMatchObject({
      code: 'rejected',
      reason: 'reduce_only',
    });
    expect((await ioc('buy', '0.23', 'r1')).order.filledSize).toBe('0.23');
    const unwind = await ioc('sell', '0.5', 'r2', true);
    expect(unwind.order).toMatchObject({ filledSize: '0.23', status: 'canceled' });
    expect((await trader.positions()).filter((position) => position.symbol === 'SOL')).toEqual([]);
  });

  it("counts each account's requests per second, accepted and refused", async () => {
    await control.setRateLimit('extended', 5);
    const busy = client('extended', { apiKey: 'counted', apiSecret: 's', wallet: '0xCounted' });
    await busy.connect();
    // Start at the top of a wall-clock second so the burst falls in one window.
    await sleep(1_000 - (Date.now() % 1_000) + 5);
    await Promise.allSettled(Array.from({ length: 8 }, () => busy.positions()));
    const counts = await control.requestCounts('extended', '0xCounted');
    expect(counts.limit_per_s).toBe(5);
    expect(counts.max_accepted_per_s).toBe(5);
    const last = counts.seconds[counts.seconds.length - 1];
    expect(last).toMatchObject({ accepted: 5, rejected: 3 });
  });
});

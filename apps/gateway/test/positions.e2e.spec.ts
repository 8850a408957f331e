import { randomUUID } from 'node:crypto';
import Big from 'big.js';
import { connect } from '@nats-io/transport-node';
import { BudgetClient, type BudgetSharesChanged } from '@sts/budget-client';
import { sleep } from '@sts/platform';
import { PaperVenueClient } from '@sts/venues';
// The worker's end-to-end harness: this gateway, the venue simulator, the budget service and a worker.
import { SYMBOLS, WorkerHarness, type Trader } from '@sts/app-worker-testing';

jest.setTimeout(90_000);

/** The gateway answers each venue account from one read for this long (positions module). */
const CACHE_MS = 2_000;

/**
 * GET /api/v1/positions (issue 34), on the paper venues with a worker: the
 * venues' positions equal the simulator's own, the implied ones equal the
 * trade's logged fills, the nets are their sums; a position made on the
 * wallet outside the service is flagged; nobody sees another user's wallets;
 * account:read is required; a venue that cannot be read answers with an error.
 */
describe('GET /api/v1/positions', () => {
  const harness = new WorkerHarness();
  let trader: Trader;

  beforeAll(async () => {
    await harness.start();
    trader = await harness.trader();
  });
  afterAll(() => harness.stop());

  const positions = (who: Trader) =>
    harness.gateway.request('GET', '/api/v1/positions', { headers: who.headers });

  /** The simulator's own position of a wallet in one market of a venue, signed (long > 0). */
  const simPosition = async (venue: string, market: string, wallet: string): Promise<Big> => {
    const url = `${harness.sim.url}/control/venues/${venue}/accounts/${wallet.toLowerCase()}/positions`;
    const { positions: held } = (await (await fetch(url)).json()) as {
      positions: Array<{ symbol: string; side: 'long' | 'short'; size: string }>;
    };
    const position = held.find((entry) => entry.symbol === SYMBOLS[market][venue]);
    return position ? new Big(position.size).times(position.side === 'long' ? 1 : -1) : new Big(0);
  };

  /** What the trade's own log implies on a venue: maker fills once each by fill id, hedge fills. */
  const impliedByLog = async (tradeId: string, venue: string): Promise<Big> => {
    const seen = new Set<string>();
    let position = new Big(0);
    for (const event of await harness.events(trader, tradeId)) {
      const isFill = event.event_type === 'maker_fill' || event.event_type === 'hedge_filled';
      if (!isFill || event.data['exchange'] !== venue) {
        continue;
      }
      const fillId = event.event_type === 'maker_fill' ? String(event.data['fill_id']) : null;
      if (fillId !== null && seen.has(fillId)) {
        continue;
      }
      if (fillId !== null) {
        seen.add(fillId);
      }
      const size = new Big(event.data['size']);
      position = event.data['side'] === 'buy' ? position.plus(size) : position.minus(size);
    }
    return position;
  };

  const entryOf = (body: any, wallet: string, market: string) =>
    body.positions.find((entry: any) => entry.wallet === wallet && entry.market === market);
  const venueOf = (entry: any, venue: string) =>
    entry.venues.find((item: any) => item.exchange === venue);

  let tradeId: string;

  it("shows the venue's position as the simulator holds it, the fills' as logged, and their nets", async () => {
    tradeId = await harness.createTrade(trader, { target_size: '0.01', target_spread: '-1000' });
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.004');
    await harness.waitForEvent(trader, tradeId, 'hedge_outcome');
    await harness.cancelTrade(trader, tradeId);

    const answer = await positions(trader);
    expect(answer.status).toBe(200);
    const wallet = trader.wallet.toLowerCase();
    expect(answer.body.accounts).toEqual([
      { wallet, exchange: 'hyperliquid', as_of: expect.any(String), error: null },
      { wallet, exchange: 'paradex', as_of: expect.any(String), error: null },
    ]);
    const btc = entryOf(answer.body, wallet, 'BTC');
    let netVenue = new Big(0);
    let netImplied = new Big(0);
    for (const venue of ['hyperliquid', 'paradex']) {
      const sim = await simPosition(venue, 'BTC', wallet);
      const implied = await impliedByLog(tradeId, venue);
      expect(sim.eq(0)).toBe(false);
      expect(venueOf(btc, venue)).toEqual({
        exchange: venue,
        venue_position: sim.toFixed(),
        side: sim.gt(0) ? 'long' : 'short',
        entry_price: expect.any(String),
        implied_position: implied.toFixed(),
        difference: sim.minus(implied).toFixed(),
        unexplained: !sim.eq(implied),
        residual_unhedged: '0',
        residual_trade_ids: [],
        as_of: expect.any(String),
        error: null,
      });
      netVenue = netVenue.plus(sim);
      netImplied = netImplied.plus(implied);
    }
    // The service made every fill of this wallet: nothing is unexplained, and the hedge nets the maker.
    expect((await impliedByLog(tradeId, 'hyperliquid')).toFixed()).toBe('0.004');
    expect(btc).toMatchObject({
      net_venue_position: netVenue.toFixed(),
      net_implied_position: netImplied.toFixed(),
      unexplained: false,
      residual_unhedged: '0',
    });
  });

  it('flags a position made on the wallet outside the service, and shows nobody else’s wallets', async () => {
    const other = await harness.trader();
    const client = new PaperVenueClient({
      venue: 'paradex',
      baseUrl: `${harness.sim.url}/venues/paradex`,
      credentials: other.credentials['paradex'],
    });
    await client.connect();
    const book = await harness.sim.book('paradex', 'BTC-USD-PERP', 1);
    await client.placeIoc({
      symbol: 'BTC-USD-PERP',
      side: 'buy',
      price: book.asks[0][0],
      size: '0.003',
      clientOrderId: 'outside-the-service-1',
    });
    await client.close();
    const wallet = other.wallet.toLowerCase();
    const held = await simPosition('paradex', 'BTC', wallet);
    expect(held.gt(0)).toBe(true);

    const answer = await positions(other);
    expect(answer.status).toBe(200);
    const btc = entryOf(answer.body, wallet, 'BTC');
    expect(btc).toMatchObject({
      net_venue_position: held.toFixed(),
      net_implied_position: '0',
      unexplained: true,
    });
    expect(venueOf(btc, 'paradex')).toMatchObject({
      venue_position: held.toFixed(),
      side: 'long',
      implied_position: '0',
      difference: held.toFixed(),
      unexplained: true,
      error: null,
    });

    const wallets = (body: any) =>
      new Set([
        ...body.accounts.map((entry: any) => entry.wallet),
        ...body.positions.map((entry: any) => entry.wallet),
      ]);
    expect(wallets(answer.body)).toEqual(new Set([wallet]));
    expect(wallets((await positions(trader)).body)).toEqual(new Set([trader.wallet.toLowerCase()]));
  });

  it('needs account:read (403 insufficient_scope without it)', async () => {
    const reader = await harness.gateway.userWithKey('trades:read,trades:write');
    const refused = await harness.gateway.request('GET', '/api/v1/positions', {
      headers: { 'x-api-key': reader.apiKey },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
    const anonymous = await harness.gateway.request('GET', '/api/v1/positions');
    expect(anonymous.status).toBe(401);
  });

  it('answers a venue that cannot be read with its error, and the others still', async () => {
    await harness.sim.freeze('paradex', 'halt');
    try {
      await sleep(CACHE_MS + 100);
      const answer = await positions(trader);
      expect(answer.status).toBe(200);
      const wallet = trader.wallet.toLowerCase();
      const paradex = answer.body.accounts.find((entry: any) => entry.exchange === 'paradex');
      expect(paradex.error).toEqual(expect.stringContaining('paradex'));
      const btc = entryOf(answer.body, wallet, 'BTC');
      expect(venueOf(btc, 'paradex')).toMatchObject({
        venue_position: null,
        side: null,
        implied_position: (await impliedByLog(tradeId, 'paradex')).toFixed(),
        difference: null,
        unexplained: null,
        error: expect.stringContaining('paradex'),
      });
      expect(venueOf(btc, 'hyperliquid')).toMatchObject({
        venue_position: (await simPosition('hyperliquid', 'BTC', wallet)).toFixed(),
        error: null,
      });
      expect(btc.net_venue_position).toBeNull();
    } finally {
      await harness.sim.thaw('paradex');
    }
  });

  it("pays each read from the account's rate budget, and refuses one the budget cannot pay", async () => {
    const reader = await harness.trader();
    const account = { venue: 'hyperliquid' as const, wallet: reader.wallet.toLowerCase() };
    const nats = await connect({ servers: '127.0.0.1:4222' });
    const budget = new BudgetClient(nats, { natsPrefix: harness.gateway.env['NATS_PREFIX']! });
    const changes: BudgetSharesChanged[] = [];
    const stop = budget.onAnyChange(({ payload }) => {
      if (payload.venue === account.venue && payload.wallet === account.wallet) {
        changes.push(payload);
      }
    });
    const holds = Array.from({ length: 10 }, () => randomUUID());
    const hyperliquidRead = async () =>
      (await positions(reader)).body.accounts.find(
        (entry: any) => entry.exchange === 'hyperliquid',
      );
    try {
      // The read holds a share of the account while it runs, then gives it back.
      expect(await hyperliquidRead()).toMatchObject({ error: null });
      for (let waited = 0; changes.length < 2 && waited < 2_000; waited += 20) {
        await sleep(20);
      }
      expect(changes.map((change) => [change.holder_count, change.share])).toEqual([
        [1, 20],
        [0, 0],
      ]);
      expect(changes[1]!.left).toEqual(changes[0]!.joined);

      // Ten holders take hyperliquid's 20 requests/s at its minimum of 2 each:
      // a read would take them under it, so it is refused and nothing is sent.
      for (const hold of holds) {
        await budget.reserve({ tradeId: hold, maker: account });
      }
      await sleep(CACHE_MS + 100);
      const seen = changes.length;
      const refused = await hyperliquidRead();
      expect(refused.error).toEqual(expect.stringContaining('rate budget'));
      expect((await budget.account(account)).holders).toHaveLength(10);
      // Nobody joined for the refused read (the sweep's refreshes name nobody).
      expect(changes.slice(seen).flatMap((change) => change.joined)).toEqual([]);

      // One holder fewer, and the next read is paid again.
      await budget.release(holds.pop()!, 'canceled');
      await sleep(CACHE_MS + 100);
      expect(await hyperliquidRead()).toMatchObject({ error: null });
    } finally {
      for (const hold of holds) {
        await budget.release(hold, 'canceled');
      }
      stop();
      budget.close();
      await nats.close();
    }
  });
});

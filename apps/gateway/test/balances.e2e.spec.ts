import Big from 'big.js';
import { SimControl } from '@sts/app-venue-sim';
import { sleep } from '@sts/platform';
import type { PaperCredential } from '@sts/testing';
import { PaperVenueClient } from '@sts/venues';
import { GatewayHarness } from './gateway-harness';

jest.setTimeout(60_000);

/** The gateway answers each venue account from one read of each kind for this long. */
const CACHE_MS = 2_000;

type Trader = Awaited<ReturnType<GatewayHarness['trader']>>;

/**
 * GET /api/v1/balances (issue 58) on the paper venues: each account's
 * margin balance, equity and margin equal the simulator's own (its
 * `/balances`, whose total is the equity, and its positions' PnL); nobody
 * sees another user's accounts; a venue that cannot be read answers its
 * account with an error and the others still answer; account:read is
 * required.
 */
describe('GET /api/v1/balances', () => {
  const gateway = new GatewayHarness();
  let trader: Trader;

  // The budget service too: each venue read holds a share of the account's rate budget.
  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex']);
  });
  afterAll(() => gateway.stop());

  const balances = (who: Trader) =>
    gateway.request('GET', '/api/v1/balances', { headers: who.headers });
  const paperClient = (venue: string, credentials: PaperCredential) =>
    new PaperVenueClient({
      venue,
      baseUrl: `${gateway.venueSim!.url}/venues/${venue}`,
      credentials,
    });
  const plain = (value: string) => new Big(value).toFixed();

  /**
   * The simulator's own account of a wallet on a venue: its paper balance
   * (read with the wallet's credential) and its positions' PnL (control route).
   */
  const simAccount = async (who: Trader, venue: string) => {
    const client = paperClient(venue, who.credentials[venue]);
    await client.connectForReads();
    const [balance] = await client.balances();
    await client.close();
    const url = `${gateway.venueSim!.url}/control/venues/${venue}/accounts/${who.wallet.toLowerCase()}/positions`;
    const { positions } = (await (await fetch(url)).json()) as {
      positions: Array<{ unrealized_pnl: string }>;
    };
    const pnl = positions.reduce((sum, entry) => sum.plus(entry.unrealized_pnl), new Big(0));
    return { ...balance!, pnl };
  };

  it("equals the simulator's balances, equity and margin of each account, with the totals", async () => {
    // A paradex position, so that its equity is not its balance.
    const client = paperClient('paradex', trader.credentials['paradex']);
    await client.connect();
    const book = (await (
      await fetch(`${gateway.venueSim!.url}/venues/paradex/book/BTC-USD-PERP?depth=1`)
    ).json()) as { asks: string[][] };
    await client.placeIoc({
      symbol: 'BTC-USD-PERP',
      side: 'buy',
      // At the best ask: an IOC buy that crosses.
      price: book.asks[0]![0]!,
      size: '0.003',
      clientOrderId: 'balances-outside-1',
    });
    await client.close();

    const answer = await balances(trader);
    expect(answer.status).toBe(200);
    const wallet = trader.wallet.toLowerCase();
    const expected = [];
    for (const venue of ['hyperliquid', 'paradex']) {
      const sim = await simAccount(trader, venue);
      expected.push({
        exchange: venue,
        wallet,
        mode: 'paper',
        asset: 'USDC',
        balance: new Big(sim.total).minus(sim.pnl).toFixed(),
        unrealised_pnl: sim.pnl.toFixed(),
        equity: plain(sim.total),
        available_margin: plain(sim.available),
        margin_used: plain(sim.marginUsed!),
        in_totals: true,
        as_of: expect.any(String),
        error: null,
      });
    }
    expect(answer.body.accounts).toEqual(expected);
    expect(new Big(answer.body.accounts[1].unrealised_pnl).eq(0)).toBe(false);
    expect(answer.body.totals).toEqual({
      equity_usd: new Big(expected[0]!.equity).plus(expected[1]!.equity).toFixed(),
      available_margin_usd: new Big(expected[0]!.available_margin)
        .plus(expected[1]!.available_margin)
        .toFixed(),
      complete: true,
    });
  });

  it("shows nobody another user's accounts", async () => {
    const other = await gateway.trader(['paradex']);
    const wallets = (body: any) => new Set(body.accounts.map((entry: any) => entry.wallet));
    const theirs = await balances(other);
    expect(theirs.status).toBe(200);
    expect(wallets(theirs.body)).toEqual(new Set([other.wallet.toLowerCase()]));
    expect(theirs.body.accounts.map((entry: any) => entry.exchange)).toEqual(['paradex']);
    expect(wallets((await balances(trader)).body)).toEqual(new Set([trader.wallet.toLowerCase()]));
  });

  it('answers a venue that cannot be read with its error, and the others still', async () => {
    const sim = new SimControl(gateway.venueSim!.url);
    await sim.freeze('paradex', 'halt');
    try {
      await sleep(CACHE_MS + 100);
      const answer = await balances(trader);
      expect(answer.status).toBe(200);
      const [hyperliquid, paradex] = answer.body.accounts;
      expect(paradex).toEqual({
        exchange: 'paradex',
        wallet: trader.wallet.toLowerCase(),
        mode: 'paper',
        asset: null,
        balance: null,
        unrealised_pnl: null,
        equity: null,
        available_margin: null,
        margin_used: null,
        in_totals: false,
        as_of: expect.any(String),
        error: expect.stringContaining('paradex'),
      });
      const held = await simAccount(trader, 'hyperliquid');
      expect(hyperliquid).toMatchObject({ equity: plain(held.total), error: null });
      expect(answer.body.totals).toEqual({
        equity_usd: plain(held.total),
        available_margin_usd: plain(held.available),
        complete: false,
      });
    } finally {
      await sim.thaw('paradex');
    }
  });

  it('needs account:read (403 insufficient_scope without it)', async () => {
    const reader = await gateway.userWithKey('trades:read,trades:write');
    const refused = await gateway.request('GET', '/api/v1/balances', {
      headers: { 'x-api-key': reader.apiKey },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
    expect((await gateway.request('GET', '/api/v1/balances')).status).toBe(401);
  });
});

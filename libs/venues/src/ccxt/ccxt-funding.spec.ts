import type { FundingHistory, Market, Position } from 'ccxt';
import { VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import {
  asterFunding,
  extendedFunding,
  hyperliquidFunding,
  lighterFunding,
  paradexFunding,
} from './ccxt-funding';
import { CcxtVenueClient } from './ccxt-venue-client';
import { fetchFundingSince } from './funding-read';
import hyperliquidMarkets from './fixtures/hyperliquid-markets.json';
import paradexMarkets from './fixtures/paradex-markets.json';

type Raw = Record<string, unknown>;

/** ccxt's parse of one entry: the fields its parseIncome fills, the venue's answer in `info`. */
const income = (info: Raw, symbol: string, timestamp: number, amount: number): FundingHistory =>
  ({ info, symbol, code: 'USDC', timestamp, id: undefined, amount }) as unknown as FundingHistory;

describe('funding payments from each venue answer', () => {
  it('Hyperliquid userFunding: usdc signed as paid or received, szi the signed position', () => {
    // The info endpoint's documented example (hyperliquid-docs, Perpetuals, userFunding).
    const info = {
      delta: {
        coin: 'ETH',
        fundingRate: '0.0000417',
        szi: '49.1477',
        type: 'funding',
        usdc: '-3.625312',
        nSamples: null,
      },
      hash: '0xa166e3fa63c25663024b03f2e0da011a00307e4017465df020210d3d432e7cb8',
      time: 1681222254710,
    };
    expect(hyperliquidFunding(income(info, 'ETH/USDC:USDC', 1681222254710, -3.625312))).toEqual({
      unified: 'ETH/USDC:USDC',
      timeMs: 1681222254710,
      amount: '-3.625312',
      rate: '0.0000417',
      size: '49.1477',
    });
    // ccxt's recorded short that received (hyperliquid.js fetchFundingHistory).
    const short = {
      time: 1734026400057,
      hash: `0x${'0'.repeat(64)}`,
      delta: {
        type: 'funding',
        coin: 'SOL',
        usdc: '75.635093',
        szi: '-7375.9',
        fundingRate: '0.00004381',
        nSamples: null,
      },
    };
    expect(hyperliquidFunding(income(short, 'SOL/USDC:USDC', 1734026400057, 75.635093))).toEqual({
      unified: 'SOL/USDC:USDC',
      timeMs: 1734026400057,
      amount: '75.635093',
      rate: '0.00004381',
      size: '-7375.9',
    });
  });

  it("Aster income FUNDING_FEE: the venue's string and asset; other income types are not funding", () => {
    const fee = {
      symbol: '1000PEPEUSDT',
      incomeType: 'FUNDING_FEE',
      income: '-0.01234500',
      asset: 'USDT',
      info: 'FUNDING_FEE',
      time: 1733990400000,
      tranId: '9689322392',
      tradeId: '',
    };
    expect(asterFunding(income(fee, '1000PEPE/USDT:USDT', 1733990400000, -0.012345))).toEqual({
      unified: '1000PEPE/USDT:USDT',
      timeMs: 1733990400000,
      amount: '-0.012345',
      asset: 'USDT',
    });
    const commission = { ...fee, incomeType: 'COMMISSION', income: '-0.01000000' };
    expect(asterFunding(income(commission, '1000PEPE/USDT:USDT', 1, -0.01))).toBeUndefined();
  });

  describe('Extended funding history: the sign from side and rate, whatever the fee is written as', () => {
    const row = (side: string, fundingFee: string, fundingRate: string) => ({
      id: 8341,
      accountId: 3137,
      market: 'BNB-USD',
      positionId: 1821237954501148672,
      side,
      size: '1.116',
      value: '560.77401888',
      markPrice: '502.48568',
      fundingFee,
      fundingRate,
      paidTime: 1723147241346,
    });
    it.each([
      ['LONG', '0.05607740', '0.0001', '-0.0560774', '1.116'],
      ['LONG', '-0.05607740', '0.0001', '-0.0560774', '1.116'],
      ['SHORT', '0.05607740', '0.0001', '0.0560774', '-1.116'],
      ['SHORT', '-0.05607740', '0.0001', '0.0560774', '-1.116'],
      ['LONG', '0.05607740', '-0.0001', '0.0560774', '1.116'],
      ['SHORT', '0.05607740', '-0.0001', '-0.0560774', '-1.116'],
    ])('%s fee %s at rate %s: %s on %s', (side, fee, rate, amount, size) => {
      const entry = extendedFunding(income(row(side, fee, rate), 'BNB/USD:USDC', 1723147241346, 0));
      expect(entry).toEqual({
        unified: 'BNB/USD:USDC',
        timeMs: 1723147241346,
        amount,
        rate,
        size,
      });
    });
  });

  it('Paradex funding payments: payment signed, created_at in ms', () => {
    // docs.paradex.trade "Funding payments history" (ccxt's recorded answer).
    const result = {
      account: '0x1',
      created_at: 1681375481000,
      fill_id: '8615262148007718462',
      id: '1681375578221101699352320000',
      index: '-2819.53434361',
      market: 'BTC-USD-PERP',
      payment: '34.4490622',
    };
    expect(paradexFunding(result, 'BTC/USD:USDC')).toEqual({
      unified: 'BTC/USD:USDC',
      timeMs: 1681375481000,
      amount: '34.4490622',
    });
  });

  it('Lighter positionFunding: change signed, size by its side, a time in seconds or ms', () => {
    const row = {
      timestamp: 1640995200,
      market_id: 1,
      funding_id: 77,
      change: '-0.412300',
      rate: '0.0000125',
      position_size: '2.50',
      position_side: 'short',
      discount: '0',
    };
    expect(lighterFunding(row, 'BTC/USDC:USDC')).toEqual({
      unified: 'BTC/USDC:USDC',
      timeMs: 1640995200000,
      amount: '-0.4123',
      rate: '0.0000125',
      size: '-2.5',
    });
    expect(lighterFunding({ ...row, timestamp: 1640995200123 }, 'BTC/USDC:USDC').timeMs).toBe(
      1640995200123,
    );
  });
});

/** An exchange that answers funding reads from a script and records every request. */
class FundingVenue implements CcxtExchangeLike {
  readonly has = { watchMyTrades: true };
  readonly precisionMode = 4;
  readonly requests: Raw[] = [];
  readonly options: Raw = { accountIndex: 281474976710654 };
  positions: Position[] = [];

  constructor(
    readonly id: string,
    private readonly markets: object,
    private readonly answer: (request: Raw) => unknown,
  ) {}

  async loadMarkets(): Promise<Record<string, Market>> {
    return this.markets as Record<string, Market>;
  }
  async fetchFundingHistory(
    symbol?: string,
    since?: number,
    limit?: number,
    params: Raw = {},
  ): Promise<FundingHistory[]> {
    const request = { symbol, since, limit, ...params };
    this.requests.push(request);
    return this.answer(request) as FundingHistory[];
  }
  async fetchPositions(): Promise<Position[]> {
    return this.positions;
  }
  async authenticateRest(): Promise<string> {
    return 'jwt';
  }
  async privateGetFundingPayments(params: Raw): Promise<unknown> {
    this.requests.push(params);
    return this.answer(params);
  }
  async preLoadLighterLibrary(): Promise<boolean> {
    return true;
  }
  async privateGetPositionFunding(params: Raw): Promise<unknown> {
    this.requests.push(params);
    return this.answer(params);
  }
  createOrder = unused;
  cancelOrder = unused;
  fetchOrder = unused;
  fetchOpenOrders = unused;
  fetchMyTrades = unused;
  fetchBalance = unused;
  watchOrderBook = unused;
  watchOrders = unused;
  async close(): Promise<void> {}
}

async function unused(): Promise<never> {
  throw new Error('not part of a funding read');
}

/**
 * Hyperliquid as its info endpoint pages `userFunding`: the payments from
 * `startTime` (inclusive), oldest first, 500 at most, as ccxt parses them.
 */
function hyperliquidPages(payments: Array<{ coin: string; time: number; usdc: string }>) {
  const unified: Record<string, string> = { BTC: 'BTC/USDC:USDC', kPEPE: 'KPEPE/USDC:USDC' };
  return (request: Raw) =>
    payments
      .filter((payment) => payment.time >= (request['since'] as number))
      .slice(0, 500)
      .map(({ coin, time, usdc }) =>
        income(
          {
            time,
            hash: `0x${'0'.repeat(64)}`,
            delta: { type: 'funding', coin, usdc, szi: '1', fundingRate: '0.0001', nSamples: null },
          },
          unified[coin],
          time,
          Number(usdc),
        ),
      );
}

describe('CcxtVenueClient.fundingPayments', () => {
  const HOUR = 3_600_000;
  const T0 = 1_733_990_400_000;

  it('Hyperliquid: pages of 500 by startTime, the instant at a page boundary read once, markets named', async () => {
    // 3 payments an hour (BTC twice: two settlements of one instant are two payments)
    // for 300 hours: the first page of 500 ends inside hour 167, after two of its three.
    const payments = Array.from({ length: 300 }, (_, hour) => [
      { coin: 'BTC', time: T0 + hour * HOUR, usdc: `-${hour + 1}.5` },
      { coin: 'kPEPE', time: T0 + hour * HOUR, usdc: `0.${hour + 1}1` },
      { coin: 'BTC', time: T0 + hour * HOUR, usdc: `-${hour + 1}.25` },
    ]).flat();
    const venue = new FundingVenue('hyperliquid', hyperliquidMarkets, hyperliquidPages(payments));
    const client = new CcxtVenueClient({ venue: 'hyperliquid', exchange: venue });

    const read = await client.fundingPayments(T0 + HOUR);

    expect(venue.requests.map((request) => request['since'])).toEqual([T0 + HOUR, T0 + 167 * HOUR]);
    expect(read.map((payment) => payment.amount)).toEqual(
      payments.slice(3).map((payment) => payment.usdc),
    );
    expect(read[0]).toEqual({
      exchange: 'hyperliquid',
      symbol: 'BTC',
      market: 'BTC',
      timeMs: T0 + HOUR,
      amount: '-2.5',
      asset: 'USDC',
      rate: '0.0001',
      size: '1',
    });
    expect(read[1]).toMatchObject({ symbol: 'kPEPE', market: '1000PEPE', amount: '0.21' });
  });

  it('Hyperliquid: a window with more payments than 20 pages fails rather than answer part of it', async () => {
    const payments = Array.from({ length: 10_500 }, (_, i) => ({
      coin: 'BTC',
      time: T0 + i,
      usdc: '1',
    }));
    const venue = new FundingVenue('hyperliquid', hyperliquidMarkets, hyperliquidPages(payments));
    const client = new CcxtVenueClient({ venue: 'hyperliquid', exchange: venue });
    await expect(client.fundingPayments(T0)).rejects.toBeInstanceOf(VenueNetworkError);
    expect(venue.requests).toHaveLength(20);
  });

  it("Paradex: each market held or traded, following the venue's next cursor", async () => {
    const pages: Record<string, Raw> = {
      first: {
        next: 'c2',
        prev: null,
        results: [{ created_at: T0 + 2 * HOUR, market: 'ETH-USD-PERP', payment: '-1.25', id: 'b' }],
      },
      c2: {
        next: null,
        prev: 'c1',
        results: [{ created_at: T0 + HOUR, market: 'ETH-USD-PERP', payment: '0.5', id: 'a' }],
      },
    };
    const venue = new FundingVenue(
      'paradex',
      paradexMarkets,
      (request) => pages[(request['cursor'] as string | undefined) ?? 'first'],
    );
    venue.positions = [{ symbol: 'ETH/USD:USDC', contracts: 0.5 } as Position];
    const client = new CcxtVenueClient({ venue: 'paradex', exchange: venue });

    const read = await client.fundingPayments(T0);

    expect(venue.requests).toEqual([
      { market: 'ETH-USD-PERP', start_at: T0, page_size: 1000 },
      { market: 'ETH-USD-PERP', start_at: T0, page_size: 1000, cursor: 'c2' },
    ]);
    expect(read).toEqual([
      {
        exchange: 'paradex',
        symbol: 'ETH-USD-PERP',
        market: 'ETH',
        timeMs: T0 + HOUR,
        amount: '0.5',
        asset: 'USDC',
      },
      {
        exchange: 'paradex',
        symbol: 'ETH-USD-PERP',
        market: 'ETH',
        timeMs: T0 + 2 * HOUR,
        amount: '-1.25',
        asset: 'USDC',
      },
    ]);
  });

  it('Lighter: one read of every market, start in seconds, newest-first pages until one reaches past since', async () => {
    const lighterMarkets = {
      'ETH/USDC:USDC': { id: '0', symbol: 'ETH/USDC:USDC' },
      'BTC/USDC:USDC': { id: '1', symbol: 'BTC/USDC:USDC' },
    };
    const row = (hour: number, market_id: number, change: string) => ({
      timestamp: (T0 + hour * HOUR) / 1000,
      market_id,
      funding_id: hour,
      change,
      rate: '0.0001',
      position_size: '1',
      position_side: 'long',
      discount: '0',
    });
    const pages: Record<string, Raw> = {
      first: { code: 200, position_fundings: [row(3, 0, '-3'), row(2, 1, '-2')], next_cursor: 'n' },
      n: { code: 200, position_fundings: [row(1, 0, '-1'), row(-1, 0, '-9')], next_cursor: 'm' },
    };
    const venue = new FundingVenue(
      'lighter',
      lighterMarkets,
      (request) => pages[(request['cursor'] as string | undefined) ?? 'first'],
    );
    const entries = await fetchFundingSince(
      { exchange: venue, venue: 'lighter', marketsToRead: unused },
      T0,
    );

    expect(venue.requests).toEqual([
      { account_index: 281474976710654, limit: 100, start_timestamp: T0 / 1000 },
      { account_index: 281474976710654, limit: 100, start_timestamp: T0 / 1000, cursor: 'n' },
    ]);
    expect(entries.map((entry) => [entry.unified, entry.amount])).toEqual([
      ['ETH/USDC:USDC', '-3'],
      ['BTC/USDC:USDC', '-2'],
      ['ETH/USDC:USDC', '-1'],
      ['ETH/USDC:USDC', '-9'],
    ]);
  });

  it("Extended: ccxt's own cursor pagination, the time sent as startTime and the document's fromTime", async () => {
    const venue = new FundingVenue('extended', {}, () => []);
    await fetchFundingSince({ exchange: venue, venue: 'extended', marketsToRead: unused }, T0);
    expect(venue.requests).toEqual([
      {
        symbol: undefined,
        since: T0,
        limit: undefined,
        paginate: true,
        maxEntriesPerRequest: 1000,
        paginationCalls: 10,
        maxRetries: 0,
        fromTime: T0,
      },
    ]);
  });

  it('Aster: pages of 1,000 from the last time seen, income of other types left out', async () => {
    const fee = (time: number, amount: string, incomeType = 'FUNDING_FEE') =>
      income(
        {
          symbol: 'HYPEUSDT',
          incomeType,
          income: amount,
          asset: 'USDT',
          info: incomeType,
          time,
          tranId: String(time),
          tradeId: '',
        },
        'HYPE/USDT:USDT',
        time,
        Number(amount),
      );
    const all = Array.from({ length: 1_500 }, (_, i) => fee(T0 + i, `-0.${i + 1}1`));
    all.splice(10, 0, fee(T0 + 9, '-5', 'COMMISSION'));
    const venue = new FundingVenue('aster', {}, (request) =>
      all.filter((entry) => entry.timestamp! >= (request['since'] as number)).slice(0, 1000),
    );
    const entries = await fetchFundingSince(
      { exchange: venue, venue: 'aster', marketsToRead: unused },
      T0,
    );
    expect(venue.requests.map((request) => [request['since'], request['limit']])).toEqual([
      [T0, 1000],
      [T0 + 998, 1000],
    ]);
    expect(entries.map((entry) => entry.amount)).toEqual(
      Array.from({ length: 1_500 }, (_, i) => `-0.${i + 1}1`),
    );
  });
});

import Big from 'big.js';
import {
  CcxtVenueClient,
  createCcxtExchange,
  type VenueFundingPayment,
  type VenueMarket,
  type WireFundingPayment,
} from '@sts/venues';
import { harnessCredentials, openLiveAccount } from '../../testing/live-harness';
import { FUNDING_PAGE } from './hl-funding';
import { post, startHlWorld, type HlWorld } from './hl-test-kit';

// Funding payments through the live client (CcxtVenueClient over ccxt
// 4.5.84's fetchFundingHistory) against the dialect's `userFunding`: the
// amounts, signs, markets and times the engine recorded, from `since` on,
// and a history longer than one answer of 500, paged by startTime.

const VENUE = 'hyperliquid';

let world: HlWorld;

beforeAll(async () => {
  world = await startHlWorld();
});

afterAll(async () => {
  await world.sim.stop();
});

/** A funded wallet's live client, connected. */
async function liveClient(label: string): Promise<{ client: CcxtVenueClient; wallet: string }> {
  const credentials = harnessCredentials(`hl-funding:${label}`);
  const exchange = await createCcxtExchange(VENUE, credentials, { endpoint: world.endpoint });
  await openLiveAccount(VENUE, exchange, world.control, credentials.walletAddress!);
  const client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connect();
  return { client, wallet: credentials.walletAddress! };
}

/**
 * Opens a position of about $20 at the touch: bought at the best ask (long)
 * or sold at the best bid (short), the size the market's lot above its
 * minimum value.
 */
async function openPosition(
  client: CcxtVenueClient,
  market: VenueMarket,
  side: 'buy' | 'sell',
): Promise<void> {
  const book = await post(world, '/info', { type: 'l2Book', coin: market.entry.symbol });
  const levels = (book.body as { levels: Array<Array<{ px: string }>> }).levels;
  const price = side === 'buy' ? levels[1][0].px : levels[0][0].px;
  const lot = new Big(market.entry.lot_size);
  const size = new Big(20).div(price).div(lot).round(0, Big.roundUp).times(lot);
  const ack = await client.placeIoc({
    symbol: market.entry.symbol,
    side,
    price,
    size: size.toFixed(),
    clientOrderId: `${side}${market.entry.symbol}${Date.now()}`.padEnd(32, '0').slice(0, 32),
  });
  expect(new Big(ack.order.filledSize).gt(0)).toBe(true);
}

/** Settles a market's funding now at `rate` (the control route): the payments made. */
async function settle(symbol: string, rate: string): Promise<WireFundingPayment[]> {
  const response = await fetch(`${world.sim.url}/control/venues/${VENUE}/funding`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, rate }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { funding: WireFundingPayment[] }).funding;
}

/** The account's payments as the venue recorded them (the control read-out). */
async function recorded(wallet: string, since: number): Promise<WireFundingPayment[]> {
  const url = `${world.sim.url}/control/venues/${VENUE}/accounts/${wallet}/funding?since=${since}`;
  return ((await (await fetch(url)).json()) as { funding: WireFundingPayment[] }).funding;
}

/** What the client must read for each recorded payment. */
const expected = (
  payment: WireFundingPayment,
  markets: readonly VenueMarket[],
): VenueFundingPayment => ({
  exchange: VENUE,
  symbol: payment.symbol,
  market: markets.find((market) => market.entry.symbol === payment.symbol)!.canonical,
  timeMs: payment.ts_ms,
  amount: payment.amount,
  asset: payment.asset,
  rate: payment.rate,
  size: payment.size,
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Hyperliquid: funding payments through the live client', () => {
  it("reads each settlement since a time with the venue's amount, sign, market and time", async () => {
    const { client, wallet } = await liveClient('settlements');
    try {
      const markets = await client.markets();
      const sol = markets.find((market) => market.canonical === 'SOL')!;
      const pepe = markets.find((market) => market.canonical === '1000PEPE')!;
      await openPosition(client, sol, 'buy');
      await openPosition(client, pepe, 'sell');

      const before = await settle('SOL', '0.0001');
      await pause(5);
      const since = Date.now();
      await pause(5);
      // Each settlement pays every account holding the market; only this one's are read back.
      const [longPays] = await settle('SOL', '0.0001');
      const [shortReceives] = await settle('kPEPE', '0.0002');
      const [longReceives] = await settle('SOL', '-0.00005');

      const read = await client.fundingPayments(since);

      const venueRecord = await recorded(wallet, since);
      expect(venueRecord).toHaveLength(3);
      expect(read).toEqual(venueRecord.map((payment) => expected(payment, markets)));
      expect(before.some((payment) => read.some((r) => r.timeMs === payment.ts_ms))).toBe(false);
      // Longs pay at a positive rate, shorts receive; kPEPE is the canonical 1000PEPE.
      expect(
        read.map((payment) => [payment.symbol, payment.market, Math.sign(+payment.amount)]),
      ).toEqual([
        ['SOL', 'SOL', -1],
        ['kPEPE', '1000PEPE', 1],
        ['SOL', 'SOL', 1],
      ]);
      expect(read.map((payment) => payment.timeMs)).toEqual(
        [longPays, shortReceives, longReceives].map((payment) => payment.ts_ms),
      );
      expect(new Big(read[0].size!).gt(0)).toBe(true);
      expect(new Big(read[1].size!).lt(0)).toBe(true);
      expect(await client.fundingPayments(longReceives.ts_ms + 1)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('pages a history longer than one answer by startTime, each payment once, 20 of H1 a page', async () => {
    const { client, wallet } = await liveClient('paging');
    try {
      const markets = await client.markets();
      const held = ['SOL', 'ETH', 'BTC'].map((canonical) =>
        markets.find((market) => market.canonical === canonical)!,
      );
      for (const market of held) {
        await openPosition(client, market, 'buy');
      }
      // 200 settlement instants of the three markets, an hour apart, from a day ago: 600
      // payments; the answer's 500 end inside the 167th instant, after two of its three.
      const venue = world.sim.world().venue(VENUE);
      const start = Date.now() - 86_400_000 * 10;
      for (let i = 0; i < 200; i += 1) {
        for (const market of held) {
          venue.settleFunding(market.entry.symbol, start + i * 3_600_000, new Big('0.00001'));
        }
      }
      const firstAnswer = await post(world, '/info', {
        type: 'userFunding',
        user: wallet,
        startTime: start,
      });
      expect(firstAnswer.body).toHaveLength(FUNDING_PAGE);
      // startTime is required (the docs' table): without it the body is not the venue's type.
      expect(await post(world, '/info', { type: 'userFunding', user: wallet })).toMatchObject({
        status: 422,
      });
      expect((firstAnswer.body as unknown[])[0]).toEqual({
        time: start,
        hash: `0x${'0'.repeat(64)}`,
        delta: {
          type: 'funding',
          coin: 'SOL',
          usdc: expect.stringMatching(/^-\d+(\.\d+)?$/),
          szi: expect.stringMatching(/^\d+(\.\d+)?$/),
          fundingRate: '0.00001',
          nSamples: null,
        },
      });

      await world.control.resetDialectRateLimits(VENUE);
      const read = await client.fundingPayments(start);

      const venueRecord = await recorded(wallet, start);
      expect(venueRecord).toHaveLength(600);
      expect(read).toEqual(venueRecord.map((payment) => expected(payment, markets)));
      const h1 = (await world.control.dialectRateLimits(VENUE)).pools.find((p) => p.id === 'H1')!;
      expect(h1.keys.find((key) => key.key === 'ip:127.0.0.1')?.admitted_weight).toBe(2 * 20);
      // From the 101st instant on: what the first read held from there, nothing before.
      const later = await client.fundingPayments(start + 100 * 3_600_000);
      expect(later).toEqual(read.slice(300));
    } finally {
      await client.close();
    }
  });
});

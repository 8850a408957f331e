import Big from 'big.js';
import {
  CcxtVenueClient,
  createCcxtExchange,
  type CcxtExchangeLike,
  type VenueFundingPayment,
  type VenueMarket,
  type WireFundingPayment,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { ASTER_READINGS } from './aster-readings';

// Funding payments through the live client (CcxtVenueClient over ccxt
// 4.5.84's fetchFundingHistory) against the dialect's signed
// `GET /fapi/v3/income?incomeType=FUNDING_FEE`: the amounts, signs, markets
// and times the engine recorded, from `since` on, and a history longer than
// one answer of 1,000, paged by startTime; each request 30 of A1.

const VENUE = 'aster';

let sim: RunningVenueSim;
let control: SimControl;
let endpoint: string;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 7, tickMs: 0 });
  control = new SimControl(sim.url);
  endpoint = `${sim.url}/dialects/${VENUE}`;
});

afterAll(async () => {
  await sim.stop();
});

/** ccxt's implicit method of the income endpoint. */
type IncomeReader = CcxtExchangeLike & {
  fapiPrivateGetV3Income(params: Record<string, unknown>): Promise<unknown>;
};

/** A funded wallet's live client (through an API wallet when the profile wants one), ready to read. */
async function liveClient(
  label: string,
): Promise<{ client: CcxtVenueClient; wallet: string; exchange: IncomeReader }> {
  const name = `aster-funding:${label}`;
  const wallet = harnessWallet(name).address;
  const credentials = await liveAccountCredentials(VENUE, sim.url, name);
  const exchange = (await createCcxtExchange(VENUE, credentials, { endpoint })) as IncomeReader;
  await openLiveAccount(VENUE, exchange, control, wallet);
  const client = new CcxtVenueClient({ venue: VENUE, exchange });
  await client.connectForReads();
  return { client, wallet, exchange };
}

/** Opens a position of about $20 at the touch: bought at the best ask or sold at the best bid. */
async function openPosition(
  client: CcxtVenueClient,
  market: VenueMarket,
  side: 'buy' | 'sell',
): Promise<void> {
  const depth = (await (
    await fetch(`${endpoint}/fapi/v3/depth?symbol=${market.entry.symbol}&limit=5`)
  ).json()) as { bids: [string, string][]; asks: [string, string][] };
  const price = side === 'buy' ? depth.asks[0][0] : depth.bids[0][0];
  const lot = new Big(market.entry.lot_size);
  const bySize = new Big(20).div(price).div(lot).round(0, Big.roundUp).times(lot);
  const size = bySize.gt(market.entry.min_size) ? bySize : new Big(market.entry.min_size);
  const ack = await client.placeIoc({
    symbol: market.entry.symbol,
    side,
    price,
    size: size.toFixed(),
    clientOrderId: `fund-${side}-${market.entry.symbol}-${Date.now()}`.slice(0, 36),
  });
  expect(new Big(ack.order.filledSize).gt(0)).toBe(true);
}

/** Settles a market's funding now at `rate` (the control route): the payments made. */
async function settle(symbol: string, rate: string): Promise<WireFundingPayment[]> {
  const response = await fetch(`${sim.url}/control/venues/${VENUE}/funding`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, rate }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { funding: WireFundingPayment[] }).funding;
}

/** The account's payments as the venue recorded them (the control read-out). */
async function recorded(wallet: string, since: number): Promise<WireFundingPayment[]> {
  const url = `${sim.url}/control/venues/${VENUE}/accounts/${wallet}/funding?since=${since}`;
  return ((await (await fetch(url)).json()) as { funding: WireFundingPayment[] }).funding;
}

/** What the client must read for a recorded payment: Aster's income gives no rate or size. */
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
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A1's weight admitted since its counts were last reset. */
async function a1Weight(): Promise<number | undefined> {
  const a1 = (await control.dialectRateLimits(VENUE)).pools.find((pool) => pool.id === 'A1')!;
  return a1.keys.find((key) => key.key === 'ip:127.0.0.1')?.admitted_weight;
}

describe.each(ASTER_READINGS.main_wallet_signs.values)(
  'Aster (main_wallet_signs=%s): funding payments through the live client',
  (mainWalletSigns) => {
    beforeAll(async () => {
      await control.setDialectProfile(VENUE, { main_wallet_signs: mainWalletSigns });
    });

    it("reads each settlement since a time with the venue's amount, sign, market and time", async () => {
      const { client, wallet } = await liveClient(`settlements-${mainWalletSigns}`);
      try {
        const markets = await client.markets();
        const sol = markets.find((market) => market.entry.symbol === 'SOLUSDT')!;
        const pepe = markets.find((market) => market.entry.symbol === '1000PEPEUSDT')!;
        await openPosition(client, sol, 'buy');
        await openPosition(client, pepe, 'sell');

        const [before] = await settle('SOLUSDT', '0.0001');
        await pause(5);
        const since = Date.now();
        await pause(5);
        // Each settlement pays every account holding the market; only this one's are read back.
        const [longPays] = await settle('SOLUSDT', '0.0001');
        const [shortReceives] = await settle('1000PEPEUSDT', '0.0002');
        const [longReceives] = await settle('SOLUSDT', '-0.00005');

        const read = await client.fundingPayments(since);

        const venueRecord = await recorded(wallet, since);
        expect(venueRecord).toHaveLength(3);
        expect(read).toEqual(venueRecord.map((payment) => expected(payment, markets)));
        expect(read.map((payment) => payment.timeMs)).toEqual(
          [longPays, shortReceives, longReceives].map((payment) => payment.ts_ms),
        );
        expect(read.some((payment) => payment.timeMs === before.ts_ms)).toBe(false);
        // Longs pay at a positive rate, shorts receive; the margin asset is named by the venue.
        expect(
          read.map((payment) => [payment.market, payment.asset, Math.sign(+payment.amount)]),
        ).toEqual([
          ['SOL', 'USDT', -1],
          ['1000PEPE', 'USDT', 1],
          ['SOL', 'USDT', 1],
        ]);
        expect(await client.fundingPayments(longReceives.ts_ms + 1)).toEqual([]);
      } finally {
        await client.close();
      }
    });
  },
);

describe('Aster: a funding history longer than one income answer', () => {
  it('is paged by startTime, each payment once, 30 of A1 a page', async () => {
    const { client, wallet } = await liveClient('paging');
    try {
      const markets = await client.markets();
      const held = ['SOLUSDT', 'ETHUSDT', 'BTCUSDT'].map((symbol) =>
        markets.find((market) => market.entry.symbol === symbol)!,
      );
      for (const market of held) {
        await openPosition(client, market, 'sell');
      }
      // 400 settlement instants of three markets, 8 hours apart: 1,200 payments; an
      // answer's 1,000 end inside the 334th instant, after one of its three.
      const venue = sim.world().venue(VENUE);
      const start = Date.now() - 400 * 8 * 3_600_000;
      for (let i = 0; i < 400; i += 1) {
        for (const market of held) {
          venue.settleFunding(market.entry.symbol, start + i * 8 * 3_600_000, new Big('0.00003'));
        }
      }

      await control.resetDialectRateLimits(VENUE);
      const read = await client.fundingPayments(start);

      const venueRecord = await recorded(wallet, start);
      expect(venueRecord).toHaveLength(1_200);
      expect(read).toEqual(venueRecord.map((payment) => expected(payment, markets)));
      expect(read.every((payment) => new Big(payment.amount).gt(0))).toBe(true);
      expect(await a1Weight()).toBe(2 * 30);
    } finally {
      await client.close();
    }
  });
});

describe('Aster dialect: GET /fapi/v3/income as the v3 document answers it', () => {
  it('lists FUNDING_FEE entries in the documented shape; other types none, an unknown type -1130', async () => {
    const { client, wallet, exchange } = await liveClient('shape');
    try {
      const markets = await client.markets();
      await openPosition(
        client,
        markets.find((m) => m.entry.symbol === 'ETHUSDT')!,
        'buy',
      );
      await settle('ETHUSDT', '0.0001');
      // The settlement paid every account holding ETHUSDT: this wallet's one payment.
      const [payment] = await recorded(wallet, 0);
      const entries = await exchange.fapiPrivateGetV3Income({
        incomeType: 'FUNDING_FEE',
        startTime: payment.ts_ms,
      });
      expect(entries).toEqual([
        {
          symbol: 'ETHUSDT',
          incomeType: 'FUNDING_FEE',
          income: new Big(payment.amount).toFixed(8),
          asset: 'USDT',
          info: 'FUNDING_FEE',
          time: payment.ts_ms,
          tranId: expect.stringMatching(/^\d+$/),
          tradeId: '',
        },
      ]);
      await expect(
        exchange.fapiPrivateGetV3Income({ incomeType: 'COMMISSION', startTime: payment.ts_ms }),
      ).resolves.toEqual([]);
      await expect(exchange.fapiPrivateGetV3Income({ incomeType: 'FUNDING' })).rejects.toThrow(
        /-1130/,
      );
    } finally {
      await client.close();
    }
  });
});

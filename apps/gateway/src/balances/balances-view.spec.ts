import type { VenueBalance, VenueMarket, VenuePosition } from '@sts/venues';
import {
  balancesView,
  marginAssetsOf,
  type AccountBalanceRead,
  type MarginAssets,
} from './balances-view';

const AT = new Date('2026-01-05T09:30:00.000Z');
const EARLIER = new Date('2026-01-05T09:29:59.000Z');
const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';

const market = (symbol: string, marginAsset: string) =>
  ({ canonical: symbol, marginAsset, entry: { symbol } }) as VenueMarket;
const position = (symbol: string, fields: Partial<VenuePosition>): VenuePosition => ({
  exchange: 'x',
  symbol,
  market: symbol,
  side: 'long',
  size: '1',
  entryPrice: '100',
  ...fields,
});
const USDC_MARKETS = marginAssetsOf([market('BTC-PERP', 'USDC'), market('ETH-PERP', 'USDC')]);

/** A read account: its balances and positions as the venue gave them, the rest as given or Paradex live. */
const account = (
  fields: Omit<Partial<AccountBalanceRead>, 'balances' | 'positions'> & {
    balances: VenueBalance[];
    positions?: VenuePosition[];
  },
): AccountBalanceRead => ({
  exchange: 'paradex',
  wallet: WALLET,
  mode: 'live',
  totalIsEquity: false,
  margin: USDC_MARKETS,
  ...fields,
  balances: { ok: true, value: fields.balances, asOf: AT },
  positions: { ok: true, value: fields.positions ?? [], asOf: AT },
});

describe('balancesView', () => {
  it('adds the positions’ PnL to a venue’s wallet balance for the equity', () => {
    const view = balancesView([
      account({
        balances: [{ asset: 'USDC', total: '1000', available: '800', marginUsed: '150' }],
        positions: [
          position('BTC-PERP', { unrealizedPnl: '-12.5' }),
          position('ETH-PERP', { side: 'short', unrealizedPnl: '2.25' }),
        ],
      }),
    ]);
    expect(view).toEqual({
      accounts: [
        {
          exchange: 'paradex',
          wallet: WALLET,
          mode: 'live',
          asset: 'USDC',
          balance: '1000',
          unrealised_pnl: '-10.25',
          equity: '989.75',
          available_margin: '800',
          margin_used: '150',
          in_totals: true,
          as_of: AT.toISOString(),
          error: null,
        },
      ],
      totals: { equity_usd: '989.75', available_margin_usd: '800', complete: true },
    });
  });

  it('takes the PnL out of a total that is the equity (paper, hyperliquid) for the balance', () => {
    const view = balancesView([
      account({
        exchange: 'hyperliquid',
        mode: 'paper',
        totalIsEquity: true,
        balances: [{ asset: 'USDC', total: '989.75', available: '800' }],
        positions: [position('BTC-PERP', { unrealizedPnl: '-10.25' })],
      }),
    ]);
    expect(view.accounts[0]).toMatchObject({
      balance: '1000',
      unrealised_pnl: '-10.25',
      equity: '989.75',
      margin_used: null,
    });
  });

  it('lists each margin asset with its own markets’ PnL, and no asset that margins nothing', () => {
    const margin = marginAssetsOf([
      market('BTCUSDT', 'USDT'),
      market('ETHUSDT', 'USDT'),
      market('HYPEUSD1', 'USD1'),
    ]);
    expect(margin.assets).toEqual(['USDT', 'USD1']);
    const view = balancesView([
      account({
        exchange: 'aster',
        margin,
        balances: [
          { asset: 'BNB', total: '5000', available: '5000' },
          { asset: 'USD1', total: '50', available: '40' },
          { asset: 'USDT', total: '100', available: '90' },
        ],
        positions: [
          position('BTCUSDT', { unrealizedPnl: '3' }),
          position('HYPEUSD1', { unrealizedPnl: '-1' }),
        ],
      }),
    ]);
    expect(view.accounts.map((entry) => [entry.asset, entry.balance, entry.equity])).toEqual([
      ['USD1', '50', '49'],
      ['USDT', '100', '103'],
    ]);
    expect(view.totals).toEqual({ equity_usd: '152', available_margin_usd: '130', complete: true });
  });

  it('leaves an asset that is not a USD stablecoin out of the totals, and says so', () => {
    const view = balancesView([
      account({ balances: [{ asset: 'USDC', total: '10', available: '10' }] }),
      account({
        exchange: 'inverse',
        margin: marginAssetsOf([market('BTCUSD', 'BTC')]),
        balances: [{ asset: 'BTC', total: '0.5', available: '0.5' }],
      }),
    ]);
    expect(view.accounts.find((entry) => entry.asset === 'BTC')).toMatchObject({
      equity: '0.5',
      in_totals: false,
    });
    expect(view.totals).toEqual({ equity_usd: '10', available_margin_usd: '10', complete: false });
  });

  it('answers an unreadable account with its error and nulls, and the others still', () => {
    const down: AccountBalanceRead = {
      ...account({ exchange: 'lighter', balances: [] }),
      balances: { ok: false, error: 'lighter balances unavailable: down', asOf: AT },
    };
    const noPositions: AccountBalanceRead = {
      ...account({
        exchange: 'extended',
        balances: [{ asset: 'USDC', total: '5', available: '5' }],
      }),
      positions: { ok: false, error: 'extended positions unavailable: 503', asOf: AT },
    };
    const view = balancesView([
      down,
      noPositions,
      account({ balances: [{ asset: 'USDC', total: '7', available: '6' }] }),
    ]);
    const nulls = {
      asset: null,
      balance: null,
      unrealised_pnl: null,
      equity: null,
      available_margin: null,
      margin_used: null,
      in_totals: false,
    };
    expect(view.accounts).toEqual([
      expect.objectContaining({
        exchange: 'extended',
        ...nulls,
        error: expect.stringContaining('503'),
      }),
      expect.objectContaining({
        exchange: 'lighter',
        ...nulls,
        error: 'lighter balances unavailable: down',
      }),
      expect.objectContaining({ exchange: 'paradex', equity: '7', error: null }),
    ]);
    expect(view.totals).toEqual({ equity_usd: '7', available_margin_usd: '6', complete: false });
  });

  it('shows an account holding none of its margin assets at zero in the main one', () => {
    const view = balancesView([
      account({ balances: [{ asset: 'ETH', total: '3', available: '3' }] }),
    ]);
    expect(view.accounts).toEqual([
      expect.objectContaining({ asset: 'USDC', balance: '0', equity: '0', available_margin: '0' }),
    ]);
  });

  it('works the PnL out from the mark where the venue gives none, and refuses without a mark', () => {
    const balances = [{ asset: 'USDC', total: '100', available: '100' }];
    const marked = balancesView([
      account({
        balances,
        positions: [position('BTC-PERP', { side: 'short', size: '2', markPrice: '101.5' })],
      }),
    ]);
    expect(marked.accounts[0]).toMatchObject({ unrealised_pnl: '-3', equity: '97' });
    const unmarked = balancesView([account({ balances, positions: [position('BTC-PERP', {})] })]);
    expect(unmarked.accounts[0]).toMatchObject({
      equity: null,
      error: 'paradex reported no unrealised PnL for BTC-PERP',
    });
  });

  it('dates an entry by the older of its two reads, and knows no margin without a market list', () => {
    const read = account({ balances: [{ asset: 'USDC', total: '1', available: '1' }] });
    const older = { ...read, positions: { ...read.positions, asOf: EARLIER } };
    expect(balancesView([older]).accounts[0]!.as_of).toBe(EARLIER.toISOString());
    const unknown: MarginAssets | { error: string } = { error: 'paradex market list unavailable' };
    expect(balancesView([{ ...read, margin: unknown }]).accounts[0]).toMatchObject({
      equity: null,
      error: 'paradex market list unavailable',
    });
  });
});

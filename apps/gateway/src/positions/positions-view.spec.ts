import Big from 'big.js';
import type { VenuePosition } from '@sts/venues';
import { positionsView, type AccountReadOf } from './positions-view';

const AT = new Date('2026-01-05T09:30:00.000Z');
const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';

const held = (exchange: string, market: string, side: 'long' | 'short', size: string) =>
  ({ exchange, symbol: market, market, side, size, entryPrice: '100' }) as VenuePosition;
const read = (exchange: string, positions: VenuePosition[]): AccountReadOf => ({
  wallet: WALLET,
  exchange,
  read: { ok: true, value: positions, asOf: AT },
});
const implied = (exchange: string, market: string, position: string) => ({
  wallet: WALLET,
  exchange,
  market,
  position: new Big(position),
});

describe('positionsView', () => {
  it('nets the venues and the fills per wallet and market, and flags only a difference', () => {
    const view = positionsView(
      [
        read('hyperliquid', [held('hyperliquid', 'BTC', 'long', '0.005')]),
        read('paradex', [held('paradex', 'BTC', 'short', '0.004')]),
      ],
      [implied('hyperliquid', 'BTC', '0.004'), implied('paradex', 'BTC', '-0.004')],
    );
    expect(view.positions).toHaveLength(1);
    const [btc] = view.positions;
    expect(btc).toMatchObject({
      wallet: WALLET,
      market: 'BTC',
      net_venue_position: '0.001',
      net_implied_position: '0',
      unexplained: true,
    });
    expect(
      btc.venues.map((venue) => [venue.exchange, venue.difference, venue.unexplained]),
    ).toEqual([
      ['hyperliquid', '0.001', true],
      ['paradex', '0', false],
    ]);
    expect(btc.venues[1]).toMatchObject({ venue_position: '-0.004', side: 'short' });
  });

  it('shows a position the fills closed but the venue holds, and hides one flat on both', () => {
    const view = positionsView(
      [read('paradex', [held('paradex', 'ETH', 'long', '1')])],
      [implied('paradex', 'BTC', '0'), implied('paradex', 'ETH', '0')],
    );
    expect(view.positions.map((entry) => entry.market)).toEqual(['ETH']);
    expect(view.positions[0].venues[0]).toMatchObject({
      implied_position: '0',
      difference: '1',
      unexplained: true,
    });
  });

  it('answers an unreadable venue with its error, unknown net, the fills still shown', () => {
    const view = positionsView(
      [
        read('hyperliquid', [held('hyperliquid', 'BTC', 'long', '0.004')]),
        {
          wallet: WALLET,
          exchange: 'paradex',
          read: { ok: false, error: 'paradex down', asOf: AT },
        },
      ],
      [implied('hyperliquid', 'BTC', '0.004'), implied('paradex', 'BTC', '-0.004')],
    );
    const [btc] = view.positions;
    expect(btc.net_venue_position).toBeNull();
    expect(btc.unexplained).toBe(false);
    expect(btc.venues[1]).toEqual({
      exchange: 'paradex',
      venue_position: null,
      side: null,
      entry_price: null,
      implied_position: '-0.004',
      difference: null,
      unexplained: null,
      residual_unhedged: '0',
      residual_trade_ids: [],
      as_of: AT.toISOString(),
      error: 'paradex down',
    });
    expect(view.accounts.map((account) => account.error)).toEqual([null, 'paradex down']);
  });

  it("names what ended trades left one-sided on the maker venue, part of the fills' position", () => {
    const view = positionsView(
      [
        read('hyperliquid', [held('hyperliquid', 'SOL', 'long', '2')]),
        read('paradex', [held('paradex', 'SOL', 'short', '1.77')]),
      ],
      [implied('hyperliquid', 'SOL', '2'), implied('paradex', 'SOL', '-1.77')],
      [
        {
          tradeId: 'trade-1',
          wallet: WALLET,
          exchange: 'hyperliquid',
          market: 'SOL',
          left: new Big('0.23'),
        },
      ],
    );
    const [sol] = view.positions;
    expect(sol).toMatchObject({
      net_implied_position: '0.23',
      unexplained: false,
      residual_unhedged: '0.23',
    });
    expect(sol.venues.map((venue) => [venue.exchange, venue.residual_unhedged])).toEqual([
      ['hyperliquid', '0.23'],
      ['paradex', '0'],
    ]);
    expect(sol.venues[0].residual_trade_ids).toEqual(['trade-1']);
  });
});

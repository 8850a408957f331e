import { initialForm, requestOf } from './create-trade-form';

const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';

describe('the create body the new-trade form sends', () => {
  it('sends every required field as typed, and no optional field left empty', () => {
    const body = requestOf({
      ...initialForm(WALLET),
      target_spread: ' -1000 ',
      target_size: '0.002',
    });
    expect(body).toEqual({
      market: 'BTC',
      long_exchange: 'hyperliquid',
      long_wallet: WALLET,
      short_exchange: 'paradex',
      short_wallet: WALLET,
      maker_leg: 'long',
      execution_type: 'maker_taker',
      spread_type: 'absolute',
      spread_condition: 'gte',
      target_spread: '-1000',
      size_type: 'base',
      target_size: '0.002',
      max_slippage: '0.001',
    });
  });

  it('sends the guard settings as numbers, and anything else as typed for the API to judge', () => {
    const body = requestOf({
      ...initialForm(WALLET),
      quote_mode: 'aggressive',
      worst_spread: '2',
      fast_move_guard: 'on',
      fast_move_guard_bps: '12.5',
      fast_move_window_ms: '250',
      fast_move_settle_ms: 'soon',
    }) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      quote_mode: 'aggressive',
      worst_spread: '2',
      fast_move_guard: 'on',
      fast_move_guard_bps: 12.5,
      fast_move_window_ms: 250,
      fast_move_settle_ms: 'soon',
    });
  });

  it('leaves a required field empty rather than dropping it (the API names it)', () => {
    expect(requestOf(initialForm(WALLET))).toMatchObject({ target_spread: '', target_size: '' });
  });
});

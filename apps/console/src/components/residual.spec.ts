import { residualSummary, type ResidualFields } from './residual';

const trade = (residual_unhedged: string, residual_unwound: string): ResidualFields => ({
  market: 'SOL',
  maker_leg: 'long',
  long_exchange: 'hyperliquid',
  short_exchange: 'paradex',
  residual_unhedged,
  residual_unwound,
});

describe('residualSummary', () => {
  it('says nothing when every maker fill was hedged', () => {
    expect(residualSummary(trade('0', '0'))).toBeNull();
  });

  it('notes a remainder unwound on the maker venue', () => {
    expect(residualSummary(trade('0.23', '0.23'))).toMatchObject({
      left: '0',
      oneSided: false,
      makerExchange: 'hyperliquid',
      text: '0.23 SOL of the maker fills could not be hedged; it was unwound on hyperliquid (reduce-only IOC).',
    });
  });

  it('warns of what stays one-sided, named on the maker venue', () => {
    expect(residualSummary(trade('0.23', '0'))).toMatchObject({
      left: '0.23',
      oneSided: true,
      text: '0.23 SOL of the maker fills could not be hedged nor unwound: 0.23 SOL stays one-sided in the maker wallet on hyperliquid.',
    });
    expect(residualSummary({ ...trade('0.23', '0.1'), maker_leg: 'short' })).toMatchObject({
      left: '0.13',
      makerExchange: 'paradex',
      oneSided: true,
    });
  });
});

import { big, btcMarket } from '../testing/fixtures';
import { coarserTickSize } from '../market/market-rules';
import {
  hedgeExchange,
  hedgeReferenceFrom,
  hedgeSide,
  makerExchange,
  makerSide,
  makerSideTouch,
} from './legs';
import { type SpreadBasis, absoluteSpread, toAbsoluteSpread, toSpreadUnits } from './spread';
import { eqToleranceAbsolute, satisfiesSpreadCondition } from './spread-condition';

const basis: SpreadBasis = { hedgeReference: big('100000.5'), coarserTickSize: big('0.5') };
const hedgeBook = { bestBid: big('100000.5'), bestAsk: big('100001') };

describe('legs', () => {
  it('buys on the long venue and sells on the short one', () => {
    expect([makerSide('long'), hedgeSide('long')]).toEqual(['buy', 'sell']);
    expect([makerSide('short'), hedgeSide('short')]).toEqual(['sell', 'buy']);
    const venues = { longExchange: 'paradex', shortExchange: 'hyperliquid' };
    expect([makerExchange(venues, 'long'), hedgeExchange(venues, 'long')]).toEqual([
      'paradex',
      'hyperliquid',
    ]);
    expect([makerExchange(venues, 'short'), hedgeExchange(venues, 'short')]).toEqual([
      'hyperliquid',
      'paradex',
    ]);
  });

  it('takes H from the touch the hedge would take', () => {
    expect(hedgeReferenceFrom('long', hedgeBook).toFixed()).toBe('100000.5');
    expect(hedgeReferenceFrom('short', hedgeBook).toFixed()).toBe('100001');
    expect(makerSideTouch('long', hedgeBook).toFixed()).toBe('100000.5');
    expect(makerSideTouch('short', hedgeBook).toFixed()).toBe('100001');
  });

  it('uses the larger tick as the coarser one', () => {
    expect(coarserTickSize(btcMarket()).toFixed()).toBe('0.5');
  });
});

describe('spread', () => {
  it('is sell price minus buy price', () => {
    expect(absoluteSpread('long', big('99990.3'), big('100000.5')).toFixed()).toBe('10.2');
    expect(absoluteSpread('short', big('100010.3'), big('100001')).toFixed()).toBe('9.3');
    expect(absoluteSpread('long', big('100001'), big('100000.5')).toFixed()).toBe('-0.5');
  });

  it('converts USD to every unit against H and the coarser tick', () => {
    const usd = big('10.2');
    expect(toSpreadUnits(usd, 'absolute', basis).toFixed()).toBe('10.2');
    expect(toSpreadUnits(usd, 'bps', basis).toFixed()).toBe('1.0199949');
    expect(toSpreadUnits(usd, 'percentage', basis).toFixed()).toBe('0.010199949');
    expect(toSpreadUnits(usd, 'ticks', basis).toFixed()).toBe('20.4');
  });

  it('converts a target to USD exactly', () => {
    expect(toAbsoluteSpread(big('1.5'), 'bps', basis).toFixed()).toBe('15.000075');
    expect(toAbsoluteSpread(big('0.25'), 'percentage', basis).toFixed()).toBe('250.00125');
    expect(toAbsoluteSpread(big('3'), 'ticks', basis).toFixed()).toBe('1.5');
    expect(toAbsoluteSpread(big('-2'), 'absolute', basis).toFixed()).toBe('-2');
  });
});

describe('spread condition', () => {
  const terms = (condition: 'gte' | 'gt' | 'lte' | 'lt' | 'eq', target: string) => ({
    spreadType: 'bps' as const,
    condition,
    targetSpread: big(target),
  });

  it('compares at the exact boundary, without rounding a quotient', () => {
    // 1.5 bps of 100000.5 is exactly 15.000075 USD.
    const at = big('15.000075');
    const below = big('15.000074');
    expect(satisfiesSpreadCondition(at, terms('gte', '1.5'), basis)).toBe(true);
    expect(satisfiesSpreadCondition(below, terms('gte', '1.5'), basis)).toBe(false);
    expect(satisfiesSpreadCondition(at, terms('gt', '1.5'), basis)).toBe(false);
    expect(satisfiesSpreadCondition(at, terms('lte', '1.5'), basis)).toBe(true);
    expect(satisfiesSpreadCondition(at, terms('lt', '1.5'), basis)).toBe(false);
    expect(satisfiesSpreadCondition(below, terms('lt', '1.5'), basis)).toBe(true);
  });

  it('reads eq as within half the coarser tick, the same band in every unit', () => {
    expect(eqToleranceAbsolute(basis).toFixed()).toBe('0.25');
    expect(satisfiesSpreadCondition(big('15.250075'), terms('eq', '1.5'), basis)).toBe(true);
    expect(satisfiesSpreadCondition(big('14.750075'), terms('eq', '1.5'), basis)).toBe(true);
    expect(satisfiesSpreadCondition(big('15.250076'), terms('eq', '1.5'), basis)).toBe(false);
    const ticks = {
      spreadType: 'ticks' as const,
      condition: 'eq' as const,
      targetSpread: big('4'),
    };
    expect(satisfiesSpreadCondition(big('2.25'), ticks, basis)).toBe(true);
    expect(satisfiesSpreadCondition(big('1.75'), ticks, basis)).toBe(true);
    expect(satisfiesSpreadCondition(big('2.26'), ticks, basis)).toBe(false);
  });
});

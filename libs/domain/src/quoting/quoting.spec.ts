import type Big from 'big.js';
import { big, btcMarket } from '../testing/fixtures';
import type { SpreadCondition, SpreadType } from '../trade/trade-terms';
import { aggressiveQuote } from './aggressive-quote';
import { defaultQuote } from './default-quote';
import { quoteMakerPrice } from './quote';
import { quoteCushionBps } from './quote-cushion';
import { requoteAction } from './requote';
import type { QuoteInput } from './quote-input';
import { isValidMakerPrice } from './valid-maker-price';
import { isWorstSpreadAllowed } from './worst-spread';

const terms = (
  condition: SpreadCondition,
  target: string,
  spreadType: SpreadType = 'absolute',
) => ({
  spreadType,
  condition,
  targetSpread: big(target),
});

/** Maker long: buys on the 0.1-tick long venue, hedged by selling at H on the 0.5-tick short venue. */
const longMaker = (
  condition: SpreadCondition,
  target: string,
  book: [string, string] = ['99990', '99992'],
  spreadType: SpreadType = 'absolute',
): QuoteInput => ({
  makerLeg: 'long',
  terms: terms(condition, target, spreadType),
  market: btcMarket(),
  makerTouch: { bestBid: big(book[0]), bestAsk: big(book[1]) },
  hedgeReference: big('100000.5'),
});

/** Maker short: sells on the 0.5-tick short venue, hedged by buying at H = 100001 on the long venue. */
const shortMaker = (
  condition: SpreadCondition,
  target: string,
  book: [string, string] = ['100010', '100012'],
): QuoteInput => ({
  makerLeg: 'short',
  terms: terms(condition, target),
  market: btcMarket(),
  makerTouch: { bestBid: big(book[0]), bestAsk: big(book[1]) },
  hedgeReference: big('100001'),
});

const text = (price: Big | null): string | null => (price === null ? null : price.toFixed());

describe('default quote', () => {
  it('joins the best bid when it is valid', () => {
    expect(text(defaultQuote(longMaker('gte', '5')))).toBe('99990');
  });

  it('rests at the valid price nearest the touch when the touch is not valid', () => {
    expect(text(defaultQuote(longMaker('gte', '12')))).toBe('99988.5');
    expect(text(defaultQuote(longMaker('gt', '12')))).toBe('99988.4');
    // 1.5 bps of 100000.5 is 15.000075 USD: the bid may be at most 99985.499925.
    expect(text(defaultQuote(longMaker('gte', '1.5', undefined, 'bps')))).toBe('99985.4');
  });

  it('improves the bid when only prices above it are valid, never reaching the ask', () => {
    expect(text(defaultQuote(longMaker('lte', '9')))).toBe('99991.5');
    expect(text(defaultQuote(longMaker('lte', '12')))).toBe('99990');
    expect(text(defaultQuote(longMaker('eq', '10')))).toBe('99990.3');
  });

  it('joins the best ask for a short maker, or the valid price nearest it on its grid', () => {
    expect(text(defaultQuote(shortMaker('gte', '5')))).toBe('100012');
    expect(text(defaultQuote(shortMaker('gte', '12')))).toBe('100013');
    expect(text(defaultQuote(shortMaker('gte', '12.2')))).toBe('100013.5');
    expect(text(defaultQuote(shortMaker('lte', '10')))).toBe('100011');
    expect(text(defaultQuote(shortMaker('lte', '9.5')))).toBe('100010.5');
  });

  it('holds no order when no price is valid', () => {
    expect(defaultQuote(longMaker('lte', '5'))).toBeNull();
    expect(defaultQuote(shortMaker('lte', '9'))).toBeNull();
    // eq band [99995.25, 99995.75] lies above the ask.
    expect(defaultQuote(longMaker('eq', '5'))).toBeNull();
  });

  it('never quotes on a crossed or locked book, or without a positive H', () => {
    expect(defaultQuote(longMaker('gte', '5', ['99992', '99992']))).toBeNull();
    expect(defaultQuote(longMaker('gte', '5', ['99993', '99992']))).toBeNull();
    expect(defaultQuote({ ...longMaker('gte', '5'), hedgeReference: big('0') })).toBeNull();
  });

  it('snaps an off-grid touch away from the other side', () => {
    expect(text(defaultQuote(longMaker('gte', '5', ['99990.05', '99992'])))).toBe('99990');
  });
});

describe('aggressive quote', () => {
  it('rests one tick from crossing when the target allows it', () => {
    expect(text(aggressiveQuote(longMaker('gte', '5')))).toBe('99991.9');
    expect(text(aggressiveQuote(shortMaker('gte', '5')))).toBe('100010.5');
    expect(text(quoteMakerPrice('aggressive', longMaker('lte', '12')))).toBe('99991.9');
  });

  it('is pulled back so the projected spread is no worse than worst_spread', () => {
    expect(text(aggressiveQuote({ ...longMaker('gte', '5'), worstSpread: big('9') }))).toBe(
      '99991.5',
    );
    expect(text(aggressiveQuote({ ...shortMaker('gte', '5'), worstSpread: big('10') }))).toBe(
      '100011',
    );
    // A limit behind the touch rests behind the touch.
    expect(text(aggressiveQuote({ ...longMaker('gte', '5'), worstSpread: big('11') }))).toBe(
      '99989.5',
    );
    // eq: no farther from the target than worst_spread is.
    expect(text(aggressiveQuote({ ...longMaker('eq', '10'), worstSpread: big('10.1') }))).toBe(
      '99990.6',
    );
  });

  it('is limited by the target alone without worst_spread', () => {
    expect(text(aggressiveQuote(longMaker('gte', '12')))).toBe('99988.5');
    expect(aggressiveQuote(longMaker('lte', '5'))).toBeNull();
  });

  it('never lets a worst_spread widen what the target allows', () => {
    const quote = aggressiveQuote({ ...longMaker('gte', '12'), worstSpread: big('5') });
    expect(text(quote)).toBe('99988.5');
  });

  it('quotes the default way in default mode', () => {
    expect(text(quoteMakerPrice('default', longMaker('gte', '5')))).toBe('99990');
  });
});

describe('valid maker price', () => {
  it('must be post-only, on the maker grid and meet the condition', () => {
    const input = longMaker('gte', '5');
    expect(isValidMakerPrice(big('99991.9'), input)).toBe(true);
    expect(isValidMakerPrice(big('99992'), input)).toBe(false);
    expect(isValidMakerPrice(big('99991.95'), input)).toBe(false);
    expect(
      isValidMakerPrice(big('99995.5'), {
        ...input,
        makerTouch: { bestBid: big('99996'), bestAsk: big('99997') },
      }),
    ).toBe(true);
    expect(
      isValidMakerPrice(big('99995.6'), {
        ...input,
        makerTouch: { bestBid: big('99996'), bestAsk: big('99997') },
      }),
    ).toBe(false);
  });
});

describe('worst_spread validation', () => {
  it('must itself satisfy the condition', () => {
    expect(isWorstSpreadAllowed(terms('gte', '5'), big('5'), null)).toBe(true);
    expect(isWorstSpreadAllowed(terms('gte', '5'), big('4.99'), null)).toBe(false);
    expect(isWorstSpreadAllowed(terms('gt', '5'), big('5'), null)).toBe(false);
    expect(isWorstSpreadAllowed(terms('lte', '5'), big('3'), null)).toBe(true);
    expect(isWorstSpreadAllowed(terms('lte', '5'), big('6'), null)).toBe(false);
    expect(isWorstSpreadAllowed(terms('lt', '5'), big('5'), null)).toBe(false);
  });

  it('checks eq against the half-tick band when a basis is known', () => {
    const basis = { hedgeReference: big('100000'), coarserTickSize: big('0.5') };
    // Half a 0.5 tick at 100000 is 0.025 bps.
    expect(isWorstSpreadAllowed(terms('eq', '2', 'bps'), big('2.025'), basis)).toBe(true);
    expect(isWorstSpreadAllowed(terms('eq', '2', 'bps'), big('2.026'), basis)).toBe(false);
    expect(isWorstSpreadAllowed(terms('eq', '4', 'ticks'), big('4.5'), null)).toBe(true);
    expect(isWorstSpreadAllowed(terms('eq', '4', 'ticks'), big('4.6'), null)).toBe(false);
    expect(isWorstSpreadAllowed(terms('eq', '2', 'bps'), big('2'), null)).toBe(true);
    expect(isWorstSpreadAllowed(terms('eq', '2', 'bps'), big('2.001'), null)).toBe(false);
  });
});

describe('quote cushion', () => {
  it('is the distance from the maker price to H, in bps of H', () => {
    expect(quoteCushionBps(big('99000'), big('100000')).toFixed()).toBe('100');
    expect(quoteCushionBps(big('100500'), big('100000')).toFixed()).toBe('50');
    // 1.04999475... bps, to 4 places.
    expect(quoteCushionBps(big('99990'), big('100000.5')).toFixed()).toBe('1.05');
    expect(quoteCushionBps(big('100000.5'), big('99990.05')).toFixed()).toBe('1.0451');
  });
});

describe('requote action', () => {
  it('places, keeps, replaces or cancels the resting order', () => {
    expect(requoteAction(null, null)).toEqual({ kind: 'none' });
    expect(requoteAction(big('100'), null)).toEqual({ kind: 'cancel' });
    expect(requoteAction(null, big('100'))).toEqual({ kind: 'place', price: big('100') });
    expect(requoteAction(big('100'), big('100.0'))).toEqual({ kind: 'keep' });
    expect(requoteAction(big('100'), big('100.1'))).toEqual({
      kind: 'replace',
      price: big('100.1'),
    });
  });
});

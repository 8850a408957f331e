import {
  liveTradeConfirmation,
  listOfVenues,
  needsConfirmation,
  venueBookOf,
  venueChoiceLabel,
  venuesToConfirm,
  type VenueFacts,
} from './venue-modes';

const venue = (exchange: string, mode: 'paper' | 'live', halted = false): VenueFacts => ({
  exchange: exchange as VenueFacts['exchange'],
  mode,
  trading_halted: halted,
});

const BOOK = venueBookOf([
  venue('hyperliquid', 'paper'),
  venue('paradex', 'paper', true),
  venue('aster', 'live'),
  venue('extended', 'live'),
]);

describe('which legs of a create trade real money', () => {
  it('asks nothing of a trade whose two venues are paper', () => {
    const venues = venuesToConfirm(
      { long_exchange: 'hyperliquid', short_exchange: 'paradex' },
      BOOK,
    );
    expect(venues).toEqual({ live: [], unknown: [] });
    expect(needsConfirmation(venues)).toBe(false);
  });

  it('names the live leg of a mixed trade, whichever side it is on', () => {
    expect(
      venuesToConfirm({ long_exchange: 'hyperliquid', short_exchange: 'aster' }, BOOK),
    ).toEqual({ live: ['aster'], unknown: [] });
    expect(venuesToConfirm({ long_exchange: 'aster', short_exchange: 'paradex' }, BOOK)).toEqual({
      live: ['aster'],
      unknown: [],
    });
  });

  it('names both live venues once each, and a venue used on both legs once', () => {
    expect(
      venuesToConfirm({ long_exchange: 'extended', short_exchange: 'aster' }, BOOK).live,
    ).toEqual(['extended', 'aster']);
    expect(venuesToConfirm({ long_exchange: 'aster', short_exchange: 'aster' }, BOOK).live).toEqual(
      ['aster'],
    );
  });

  it('treats a venue whose mode was not read as one that may be live', () => {
    const unread = venuesToConfirm(
      { long_exchange: 'hyperliquid', short_exchange: 'lighter' },
      BOOK,
    );
    expect(unread).toEqual({ live: [], unknown: ['lighter'] });
    expect(needsConfirmation(unread)).toBe(true);
    const nothingRead = venuesToConfirm(
      { long_exchange: 'hyperliquid', short_exchange: 'paradex' },
      null,
    );
    expect(nothingRead).toEqual({ live: [], unknown: ['hyperliquid', 'paradex'] });
  });
});

describe('the confirmation before a live create', () => {
  it('names the live venue in its title, its sentence and its button', () => {
    expect(liveTradeConfirmation({ live: ['aster'], unknown: [] })).toEqual({
      title: 'Trade real money on aster?',
      sentences: [
        'aster is a live venue: this trade places real orders there, and its fills move real money.',
      ],
      confirm: 'Trade real money on aster',
    });
  });

  it('names two live venues together', () => {
    const asked = liveTradeConfirmation({ live: ['extended', 'aster'], unknown: [] });
    expect(asked.title).toBe('Trade real money on extended and aster?');
    expect(asked.sentences).toEqual([
      'extended and aster are live venues: this trade places real orders there, and its fills move real money.',
    ]);
  });

  it('says when a venue’s mode is unknown, and asks as for a live one', () => {
    expect(liveTradeConfirmation({ live: ['aster'], unknown: ['lighter'] })).toEqual({
      title: 'Trade real money on aster and lighter?',
      sentences: [
        'aster is a live venue: this trade places real orders there, and its fills move real money.',
        'The console could not read whether lighter is paper or live: treat it as live.',
      ],
      confirm: 'Trade real money on aster and lighter',
    });
    expect(
      liveTradeConfirmation({ live: [], unknown: ['hyperliquid', 'paradex'] }).sentences,
    ).toEqual([
      'The console could not read whether hyperliquid and paradex are paper or live: treat them as live.',
    ]);
  });

  it('lists venues as a sentence does', () => {
    expect(listOfVenues([])).toBe('');
    expect(listOfVenues(['aster'])).toBe('aster');
    expect(listOfVenues(['aster', 'extended', 'lighter'])).toBe('aster, extended and lighter');
  });
});

describe('a venue as a choice in the new-trade form', () => {
  it('says paper or LIVE in words, and a halt', () => {
    expect(venueChoiceLabel('hyperliquid', BOOK.get('hyperliquid'))).toBe('hyperliquid (paper)');
    expect(venueChoiceLabel('aster', BOOK.get('aster'))).toBe('aster (LIVE, real money)');
    expect(venueChoiceLabel('paradex', BOOK.get('paradex'))).toBe(
      'paradex (paper; trading halted)',
    );
    expect(venueChoiceLabel('extended', venue('extended', 'live', true))).toBe(
      'extended (LIVE, real money; trading halted)',
    );
  });

  it('is the bare name while the modes are unknown', () => {
    expect(venueChoiceLabel('lighter', BOOK.get('lighter'))).toBe('lighter');
  });
});

import type { CancelAllAnswer } from '@sts/sdk';
import { STOP_ALL_CONFIRMATION, stopAllSummary } from './stop-all-summary';

const answer = (...statuses: Array<'canceled' | 'cancel_sent'>): CancelAllAnswer => ({
  trades: statuses.map((status, index) => ({
    trade_id: `00000000-0000-4000-8000-00000000000${index}`,
    status,
    http_status: status === 'canceled' ? 200 : 202,
  })),
});

describe('"Stop all my trades"', () => {
  it('says what it does before it does it: every running trade canceled, positions left open', () => {
    const said = STOP_ALL_CONFIRMATION.sentences.join(' ');
    expect(said).toContain('cancels every running trade of yours');
    expect(said).toContain('Positions already filled stay open');
    // "live" names a real-money venue in the console; the confirmation does not use it for trades.
    expect(said).not.toMatch(/live trade/i);
  });

  it('counts the trades canceled at once and those whose cancel was sent', () => {
    expect(stopAllSummary(answer('cancel_sent', 'canceled', 'cancel_sent'))).toEqual({
      canceled: 1,
      cancelSent: 2,
      text:
        'Stopped 3 trades: 1 canceled, 2 cancel sent (their open orders are being canceled). ' +
        'Filled positions stay open.',
    });
  });

  it('speaks of one trade in the singular, and adds no note when nothing is being canceled', () => {
    expect(stopAllSummary(answer('canceled')).text).toBe(
      'Stopped 1 trade: 1 canceled, 0 cancel sent. Filled positions stay open.',
    );
  });

  it('says so when there was nothing to stop', () => {
    expect(stopAllSummary(answer())).toEqual({
      canceled: 0,
      cancelSent: 0,
      text: 'You had no running trades: nothing to stop.',
    });
  });
});

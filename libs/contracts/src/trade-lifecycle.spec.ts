import { transitionTrade } from '@sts/domain';
import { parseTradeLifecycle, tradeLifecycleMessage } from './trade-lifecycle';

describe('tradeLifecycleMessage', () => {
  const change = {
    tradeId: '8f14e45f-ceea-467a-9575-6c3f1b2a9e01',
    userId: 'user-1',
    at: new Date('2026-01-05T09:30:00.000Z'),
    correlationId: 'req-1',
  };

  it("builds the transition's event on the trade's subject; a terminal one has a fixed id", () => {
    const built = tradeLifecycleMessage('sts', transitionTrade('pending', 'canceled'), {
      ...change,
      data: { canceled_while: 'pending' },
    });
    expect(built?.subject).toBe(`sts.events.trades.${change.tradeId}`);
    expect(built?.message).toMatchObject({
      message_id: `lifecycle-${change.tradeId}-canceled`,
      type: 'trade.lifecycle',
      correlation_id: 'req-1',
    });
    expect(parseTradeLifecycle(built?.message.payload)).toEqual({
      event: 'trade.canceled',
      trade_id: change.tradeId,
      user_id: 'user-1',
      status: 'canceled',
      timestamp: '2026-01-05T09:30:00.000Z',
      data: { canceled_while: 'pending' },
    });
  });

  it('gives a repeatable event (pause, resume) a fresh id each time', () => {
    const first = tradeLifecycleMessage('sts', transitionTrade('active', 'paused'), change);
    const second = tradeLifecycleMessage('sts', transitionTrade('active', 'paused'), change);
    expect(first?.message.payload).toMatchObject({ event: 'trade.paused', data: {} });
    expect(first?.message.message_id).not.toBe(second?.message.message_id);
  });

  it('is null for a transition clients are not shown', () => {
    expect(tradeLifecycleMessage('sts', transitionTrade('pending', 'validating'), change)).toBe(
      null,
    );
  });
});

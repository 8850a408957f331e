import {
  canTransition,
  isExecutingTradeStatus,
  TRADE_STATUSES,
  type TradeStatus,
  transitionTrade,
} from '@sts/domain';
import { GatewayHarness } from './gateway-harness';

/**
 * DELETE decides by the domain's transition table, for every status a trade
 * can be in: what the table lets move to canceled without a worker is
 * canceled here with the transition's event; what a worker owns is asked of
 * it; what the table forbids is left exactly as it was. The expectations are
 * read from the table, so a cancel that bypasses it (a hand-written status
 * list, a status written outright) answers differently for some status.
 */
describe('DELETE follows the trade transition table', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex']);
  });
  afterAll(() => gateway.stop());

  async function tradeIn(status: TradeStatus): Promise<string> {
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { market: 'ETH', maker_leg: 'short' }),
    });
    expect(created.status).toBe(202);
    const tradeId: string = created.body.trade_id;
    await gateway.query(
      `UPDATE trades SET status = $2, updated_at = now() - interval '1 minute' WHERE id = $1`,
      [tradeId, status],
    );
    return tradeId;
  }

  const row = async (tradeId: string) =>
    (
      await gateway.query<{
        status: string;
        cancel_requested_at: Date | null;
        completed_at: Date | null;
        updated_at: Date;
      }>(`SELECT status, cancel_requested_at, completed_at, updated_at FROM trades WHERE id = $1`, [
        tradeId,
      ])
    )[0];

  const lifecycleMessages = (tradeId: string) =>
    gateway.query<{ message_id: string; payload: { payload: Record<string, unknown> } }>(
      `SELECT message_id, payload FROM outbox WHERE subject = $1`,
      [`${gateway.env.NATS_PREFIX}.events.trades.${tradeId}`],
    );

  it.each(TRADE_STATUSES.map((status) => [status]))('a %s trade', async (status) => {
    const tradeId = await tradeIn(status);
    const before = await row(tradeId);
    const response = await gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
      headers: trader.headers,
    });
    const after = await row(tradeId);
    const messages = await lifecycleMessages(tradeId);

    if (!canTransition(status, 'canceled')) {
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'cancel_sent', trade_id: tradeId });
      expect(after).toEqual(before);
      expect(messages).toEqual([]);
    } else if (isExecutingTradeStatus(status)) {
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'cancel_sent', trade_id: tradeId });
      expect(after.status).toBe(status);
      expect(after.cancel_requested_at).not.toBeNull();
      expect(messages).toEqual([]);
    } else {
      const transition = transitionTrade(status, 'canceled');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'canceled', trade_id: tradeId });
      expect(after.status).toBe(transition.to);
      expect(after.completed_at !== null).toBe(transition.setsCompletedAt);
      expect(messages.map((message) => message.message_id)).toEqual([
        `lifecycle-${tradeId}-${transition.to}`,
      ]);
      const { payload } = messages[0].payload;
      expect(payload).toEqual({
        event: transition.event,
        trade_id: tradeId,
        user_id: trader.userId,
        status: transition.to,
        timestamp: after.updated_at.toISOString(),
        data: { canceled_while: status },
      });
    }
    // Out of the maker cap for the next case.
    await gateway.query(`UPDATE trades SET status = 'failed' WHERE id = $1`, [tradeId]);
  });
});

import type { OperationAnswers } from './answers';
import { API_KEY_OR_JWT, AT, ref, TRADE_ID } from './answers';

const distribution = (count: number, mean: string, p5: string, p50: string, p95: string) => ({
  count,
  mean,
  p5,
  p50,
  p95,
});

/** Execution quality (issue 60; decisions section 8): per trade, and over a window. */
export const QUALITY_OPERATIONS: Record<string, OperationAnswers> = {
  'get /api/v1/trades/{tradeId}/quality': {
    operationId: 'getTradeQuality',
    description:
      "One trade's execution quality from its log: per maker fill its markouts (the maker venue's mid 1, 10 and 60 s after the fill against its price, in bps, positive when good for the trader; null where no sample was logged) and the hedges it caused (slippage against the decision and against the hedge venue's arrival mid, positive when good); per trade the realised spread against its target and against the spread the market offered as the trade went active (in the trade's spread_type units), the time from creation to the first maker fill and to the end, the quoting (time quoted and its share of the trade's life, orders placed, replaced and canceled, fills per quote-hour, re-quotes and cancels per fill), the fills and the mean markout per horizon. An unknown trade, another user's and a tradeId that is not a UUID all answer 404 `trade not found`. Scope account:read.",
    successes: [
      {
        status: 200,
        description: "the trade's execution quality",
        schema: ref('TradeQuality'),
        example: {
          trade_id: TRADE_ID,
          status: 'completed',
          market: 'BTC',
          maker_leg: 'long',
          spread_type: 'absolute',
          target_spread: '5',
          realised_spread: '6',
          realised_vs_target: '1',
          spread_at_start: '2.5',
          realised_vs_start: '3.5',
          created_at: AT,
          first_fill_at: '2026-01-05T09:30:04.250Z',
          time_to_first_fill_ms: 4250,
          ended_at: '2026-01-05T09:31:10.000Z',
          time_to_end_ms: 70000,
          fills_count: 1,
          quoting: {
            quoted_ms: 61_200,
            orders_placed: 7,
            orders_replaced: 0,
            cancels: 6,
            requotes: 6,
            fills_per_quote_hour: '58.823529',
            requotes_per_fill: '6',
            cancels_per_fill: '6',
          },
          quoted_share: '0.8743',
          mean_markout_bps: { '1': '0.5', '10': '-1.2', '60': null },
          fills: [
            {
              fill_id: 'fill-1',
              exchange: 'hyperliquid',
              side: 'buy',
              price: '65000',
              size: '0.004',
              timestamp: '2026-01-05T09:30:04.250Z',
              markout_bps: { '1': '0.5', '10': '-1.2', '60': null },
              markout_mid: { '1': '65003.25', '10': '64992.2', '60': null },
              hedges: [
                {
                  result: 'filled',
                  exchange: 'paradex',
                  side: 'sell',
                  requested_size: '0.004',
                  filled_size: '0.004',
                  avg_price: '65006',
                  slippage_bps: '-0.769',
                  arrival_mid: '65008.5',
                  arrival_slippage_bps: '-0.384565',
                },
              ],
            },
          ],
        },
      },
    ],
    errors: [...API_KEY_OR_JWT, 'trade_not_found'],
  },
  'get /api/v1/quality': {
    operationId: 'getQuality',
    description:
      "The caller's maker fills with a venue time in [from, to) (ISO 8601; default the 7 days before now; a reversed or empty window, or one wider than 90 days, is 400), and quoting spells that ended in it (trades that quoted and never filled too), grouped by the maker venue, the trade's market or the maker side: per group the fills, per horizon the count, mean, p5, p50 and p95 of the markouts sampled, the same of the slippage of the hedges those fills caused against the decision and against the arrival mid (bps, positive when good for the trader), of the time from a trade's creation to its first fill (ms), and the quoting against the fills (time quoted, fills per quote-hour, re-quotes and cancels per fill); percentiles by nearest rank. Only the caller's trades are read. Scope account:read.",
    successes: [
      {
        status: 200,
        description: 'the window and its groups, by name',
        schema: ref('QualityReport'),
        example: {
          from: '2025-12-29T09:30:00.000Z',
          to: AT,
          group_by: 'venue',
          groups: [
            {
              group: 'hyperliquid',
              fills: 40,
              markout_bps: {
                '1': distribution(40, '0.21', '-1.5', '0.2', '1.9'),
                '10': distribution(40, '-0.8', '-4.1', '-0.6', '2.2'),
                '60': distribution(38, '-1.1', '-7.3', '-0.9', '4.8'),
              },
              hedge_slippage_bps: distribution(35, '-0.4', '-2.1', '-0.3', '0.6'),
              hedge_arrival_slippage_bps: distribution(35, '-0.5', '-1.2', '-0.45', '0.1'),
              time_to_first_fill_ms: distribution(12, '8420', '310', '2750', '41200'),
              quoting: {
                quoted_ms: 5_400_000,
                orders_placed: 310,
                orders_replaced: 0,
                cancels: 298,
                requotes: 298,
                fills_per_quote_hour: '26.666667',
                requotes_per_fill: '7.45',
                cancels_per_fill: '7.45',
              },
            },
          ],
        },
      },
    ],
    errors: API_KEY_OR_JWT,
  },
};

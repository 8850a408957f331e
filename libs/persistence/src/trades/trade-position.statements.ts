import { TradeLeaseStatements } from './trade-lease.statements';

/** A wallet's position on one venue and market as the user's fills imply it. */
export interface ImpliedPositionRow {
  wallet: string;
  exchange: string;
  market: string;
  /** Decimal text, long > 0. */
  position: string;
}

/** What one ended trade left unhedged on its maker wallet and venue. */
export interface ResidualLeftRow {
  tradeId: string;
  wallet: string;
  exchange: string;
  market: string;
  /** Decimal text, signed as the maker fills (long > 0). */
  left: string;
}

/**
 * The statements of TradeRepository behind GET /positions: what a user's
 * trades leave each wallet holding, by their execution logs and rows.
 */
export class TradePositionStatements extends TradeLeaseStatements {
  /**
   * What the user's trades' logs leave each wallet holding, per venue and
   * market (a buy adds, a sell takes away; decimal text): every maker fill
   * once by its fill id (as the worker counts it after a takeover) on the
   * maker wallet, every hedge_filled on the hedge wallet, and every unwind of
   * a residual once by its client order id (a takeover may log it again) on
   * the maker wallet.
   */
  impliedPositionsOf(userId: string): Promise<ImpliedPositionRow[]> {
    return this.db.query(
      `WITH maker AS (
         SELECT DISTINCT ON (e.trade_id, COALESCE(e.data->>'fill_id', 'sequence:' || e.sequence))
           t.maker_wallet AS wallet, e.data->>'exchange' AS exchange, t.market,
           e.data->>'side' AS side, (e.data->>'size')::numeric AS size
         FROM trades t JOIN trade_events e ON e.trade_id = t.id
         WHERE t.user_id = $1 AND e.event_type = 'maker_fill'
         ORDER BY e.trade_id, COALESCE(e.data->>'fill_id', 'sequence:' || e.sequence), e.sequence
       ), hedge AS (
         SELECT t.hedge_wallet AS wallet, e.data->>'exchange' AS exchange, t.market,
           e.data->>'side' AS side, (e.data->>'size')::numeric AS size
         FROM trades t JOIN trade_events e ON e.trade_id = t.id
         WHERE t.user_id = $1 AND e.event_type = 'hedge_filled'
       ), unwind AS (
         SELECT DISTINCT ON (e.trade_id, e.data->>'client_order_id')
           t.maker_wallet AS wallet, e.data->>'exchange' AS exchange, t.market,
           e.data->>'side' AS side, (e.data->>'filled_size')::numeric AS size
         FROM trades t JOIN trade_events e ON e.trade_id = t.id
         WHERE t.user_id = $1 AND e.event_type = 'unwind_outcome'
           AND e.data->>'client_order_id' IS NOT NULL
         ORDER BY e.trade_id, e.data->>'client_order_id', e.sequence
       )
       SELECT wallet, exchange, market,
         SUM(CASE WHEN side = 'buy' THEN size ELSE -size END)::text AS position
       FROM (SELECT * FROM maker UNION ALL SELECT * FROM hedge UNION ALL SELECT * FROM unwind)
         AS fills
       GROUP BY wallet, exchange, market`,
      [userId],
    );
  }

  /**
   * The caller's ended trades that left maker fills one-sided: their
   * residual_unhedged less what the unwind took back, signed as the maker
   * fills were (long > 0), on the maker wallet and venue.
   */
  residualsLeftOf(userId: string): Promise<ResidualLeftRow[]> {
    return this.db.query(
      `SELECT id AS "tradeId", maker_wallet AS wallet, maker_exchange AS exchange, market,
         ((residual_unhedged - residual_unwound) * CASE WHEN maker_leg = 'long' THEN 1 ELSE -1 END)
           ::text AS "left"
       FROM trades
       WHERE user_id = $1 AND residual_unhedged > residual_unwound
       ORDER BY created_at, id`,
      [userId],
    );
  }
}

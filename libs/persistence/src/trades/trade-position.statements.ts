import { logFieldSql, type LogDataOf } from '@sts/contracts';
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

const maker = (field: keyof LogDataOf['maker_fill'] & string) => logFieldSql('maker_fill', field);
const hedge = (field: keyof LogDataOf['hedge_filled'] & string) =>
  logFieldSql('hedge_filled', field);
const unwind = (field: keyof LogDataOf['unwind_outcome'] & string) =>
  logFieldSql('unwind_outcome', field);

/** impliedPositionsOf's statement; the entries' fields are named by the log's schema (logFieldSql). */
const IMPLIED_POSITIONS_SQL = `WITH maker AS (
     SELECT DISTINCT ON (e.trade_id, COALESCE(${maker('fill_id')}, 'sequence:' || e.sequence))
       t.maker_wallet AS wallet, ${maker('exchange')} AS exchange, t.market,
       ${maker('side')} AS side, (${maker('size')})::numeric AS size
     FROM trades t JOIN trade_events e ON e.trade_id = t.id
     WHERE t.user_id = $1 AND e.event_type = 'maker_fill'
     ORDER BY e.trade_id, COALESCE(${maker('fill_id')}, 'sequence:' || e.sequence), e.sequence
   ), hedge AS (
     SELECT t.hedge_wallet AS wallet, ${hedge('exchange')} AS exchange, t.market,
       ${hedge('side')} AS side, (${hedge('size')})::numeric AS size
     FROM trades t JOIN trade_events e ON e.trade_id = t.id
     WHERE t.user_id = $1 AND e.event_type = 'hedge_filled'
   ), unwind AS (
     SELECT DISTINCT ON (e.trade_id, ${unwind('client_order_id')})
       t.maker_wallet AS wallet, ${unwind('exchange')} AS exchange, t.market,
       ${unwind('side')} AS side, (${unwind('filled_size')})::numeric AS size
     FROM trades t JOIN trade_events e ON e.trade_id = t.id
     WHERE t.user_id = $1 AND e.event_type = 'unwind_outcome'
       AND ${unwind('client_order_id')} IS NOT NULL
     ORDER BY e.trade_id, ${unwind('client_order_id')}, e.sequence
   )
   SELECT wallet, exchange, market,
     SUM(CASE WHEN side = 'buy' THEN size ELSE -size END)::text AS position
   FROM (SELECT * FROM maker UNION ALL SELECT * FROM hedge UNION ALL SELECT * FROM unwind)
     AS fills
   GROUP BY wallet, exchange, market`;

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
    return this.db.query(IMPLIED_POSITIONS_SQL, [userId]);
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

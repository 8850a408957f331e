import Big from 'big.js';
import type { EntityManager } from 'typeorm';
import { TradeRepository } from '@sts/persistence';

/** What the service's own fills leave a wallet holding on one venue in one market (long > 0). */
export interface ImpliedPosition {
  wallet: string;
  exchange: string;
  market: string;
  position: Big;
}

/**
 * The caller's positions as their trades' execution logs imply them: every
 * maker fill once (by the venue's fill id, as the worker counts it after a
 * takeover) on the trade's maker wallet, every hedge_filled on its hedge
 * wallet, and every unwind of a residual once (by its client order id) on the
 * maker wallet; a buy adds, a sell takes away. Only the caller's trades are read.
 */
export async function readImpliedPositions(
  manager: EntityManager,
  userId: string,
): Promise<ImpliedPosition[]> {
  const rows = await new TradeRepository(manager).impliedPositionsOf(userId);
  return rows.map((row) => ({
    wallet: row.wallet.toLowerCase(),
    exchange: row.exchange,
    market: row.market,
    position: new Big(row.position),
  }));
}

/** What one ended trade left one-sided on its maker wallet and venue (long > 0). */
export interface ResidualLeft {
  tradeId: string;
  wallet: string;
  exchange: string;
  market: string;
  left: Big;
}

/** The caller's ended trades whose residual_unhedged the unwind did not take back in full. */
export async function readResidualsLeft(
  manager: EntityManager,
  userId: string,
): Promise<ResidualLeft[]> {
  const rows = await new TradeRepository(manager).residualsLeftOf(userId);
  return rows.map((row) => ({
    tradeId: row.tradeId,
    wallet: row.wallet.toLowerCase(),
    exchange: row.exchange,
    market: row.market,
    left: new Big(row.left),
  }));
}

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
 * takeover) on the trade's maker wallet, and every hedge_filled on its hedge
 * wallet; a buy adds, a sell takes away. Only the caller's trades are read.
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

import Big from 'big.js';
import type { EntityManager } from 'typeorm';
import { fillAmount, type SizeType } from '@sts/domain';
import { TradeEventRepository } from '@sts/persistence';

/**
 * The trade's filled size in `sizeType`, from its execution log: every maker
 * fill once (by the venue's fill id), in base units or at its own price in
 * USD. This is how the worker counts it (its maker fills, rebuilt from the
 * same entries after a takeover), so the gateway's check of an amended
 * `size_type` and the filled_size the worker writes in the new unit agree.
 */
export async function filledSizeIn(
  manager: EntityManager,
  tradeId: string,
  sizeType: SizeType,
): Promise<Big> {
  const fills = await new TradeEventRepository(manager).makerFillsOf(tradeId);
  return fills.reduce(
    (filled, fill) => filled.plus(fillAmount(sizeType, new Big(fill.price), new Big(fill.size))),
    new Big(0),
  );
}

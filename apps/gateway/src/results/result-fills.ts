import Big from 'big.js';
import type { TradeFillLog } from '@sts/persistence';
import { countedFills } from '@sts/domain';

/** One fill of a trade on one venue account, as results and funding shares count it. */
export interface ResultFill {
  tradeId: string;
  /** The trade's market. */
  market: string;
  exchange: string;
  /** Lower-case. */
  wallet: string;
  side: 'buy' | 'sell';
  price: Big;
  size: Big;
  /** Null when the venue reported none. */
  fee: Big | null;
  feeAsset: string | null;
  /** By the venue's clock; an unwind by when it was logged (epoch ms). */
  timeMs: number;
}

/**
 * A trade's fills from its log: each maker fill on the maker account and
 * each hedge fill on the hedge account once (countedFills, as the worker
 * counts them after a takeover), and each unwind of a residual that filled
 * once by its client order id, on the maker account. Oldest first.
 */
export function resultFills(log: TradeFillLog): ResultFill[] {
  const fills: ResultFill[] = [];
  const trade = { tradeId: log.tradeId, market: log.market };
  for (const { entry } of countedStored(log)) {
    if (entry.eventType === 'maker_fill' || entry.eventType === 'hedge_filled') {
      const maker = entry.eventType === 'maker_fill';
      fills.push({
        ...trade,
        exchange: entry.data.exchange,
        wallet: maker ? log.makerWallet : log.hedgeWallet,
        side: entry.data.side,
        price: new Big(entry.data.price),
        size: new Big(entry.data.size),
        fee: entry.data.fee === null ? null : new Big(entry.data.fee),
        feeAsset: entry.data.fee_asset,
        timeMs: entry.data.timestamp_ms,
      });
    }
  }
  fills.push(...unwindFills(log));
  return fills.sort((a, b) => a.timeMs - b.timeMs);
}

function countedStored(log: TradeFillLog): TradeFillLog['entries'] {
  const counted = new Set(countedFills(log.entries.map(({ entry }) => entry)));
  return log.entries.filter(({ entry }) => counted.has(entry));
}

function unwindFills(log: TradeFillLog): ResultFill[] {
  const seen = new Set<string>();
  const fills: ResultFill[] = [];
  for (const { entry, createdAt } of log.entries) {
    if (entry.eventType !== 'unwind_outcome') {
      continue;
    }
    const data = entry.data;
    const id = data.client_order_id;
    if (
      id === null ||
      seen.has(id) ||
      data.avg_price === null ||
      new Big(data.filled_size).lte(0)
    ) {
      continue;
    }
    seen.add(id);
    fills.push({
      tradeId: log.tradeId,
      market: log.market,
      exchange: data.exchange,
      wallet: log.makerWallet,
      side: data.side,
      price: new Big(data.avg_price),
      size: new Big(data.filled_size),
      fee: data.fee === null ? null : new Big(data.fee),
      feeAsset: data.fee_asset,
      timeMs: createdAt.getTime(),
    });
  }
  return fills;
}

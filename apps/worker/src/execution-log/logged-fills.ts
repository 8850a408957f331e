import Big from 'big.js';
import type { DataSource } from 'typeorm';
import { TradeEventRepository } from '@sts/persistence';

export interface LoggedMakerFill {
  fillId: string;
  price: Big;
  size: Big;
  timestampMs: number;
}

/** What a trade's execution log says was filled, for a worker that takes the trade over. */
export interface LoggedFills {
  makerFills: LoggedMakerFill[];
  /** Hedge orders with a hedge_filled entry (by venue order id). */
  hedgeOrderIds: Set<string>;
  /** Sum of hedge_filled sizes. */
  hedged: Big;
  /** Every client order id a hedge_sent entry names. */
  hedgeClientOrderIds: Set<string>;
  /** Set once a chunk_started entry exists. */
  chunkStarted: boolean;
}

/** Reads the fills recorded in a trade's log (maker_fill, hedge_sent, hedge_filled), decoded. */
export async function readLoggedFills(db: DataSource, tradeId: string): Promise<LoggedFills> {
  const stored = await new TradeEventRepository(db.manager).entriesOfTrade(tradeId, [
    'maker_fill',
    'hedge_sent',
    'hedge_filled',
    'chunk_started',
  ]);
  const logged: LoggedFills = {
    makerFills: [],
    hedgeOrderIds: new Set(),
    hedged: new Big(0),
    hedgeClientOrderIds: new Set(),
    chunkStarted: false,
  };
  for (const { entry } of stored) {
    switch (entry.eventType) {
      case 'maker_fill':
        logged.makerFills.push({
          fillId: entry.data.fill_id,
          price: new Big(entry.data.price),
          size: new Big(entry.data.size),
          timestampMs: entry.data.timestamp_ms,
        });
        break;
      case 'hedge_sent':
        logged.hedgeClientOrderIds.add(entry.data.client_order_id);
        break;
      case 'hedge_filled':
        logged.hedgeOrderIds.add(entry.data.order_id);
        logged.hedged = logged.hedged.plus(entry.data.size);
        break;
      case 'chunk_started':
        logged.chunkStarted = true;
        break;
      case 'hedge_outcome':
      case 'hedge_timeout':
      case 'chunk_completed':
      case 'recovery_completed':
      case 'fast_move_guard':
      case 'unwind_sent':
      case 'unwind_outcome':
        break;
    }
  }
  return logged;
}

import Big from 'big.js';
import type { DataSource } from 'typeorm';
import { queryRows } from '@sts/persistence';

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

/** Reads the fills recorded in a trade's log (maker_fill, hedge_sent, hedge_filled). */
export async function readLoggedFills(db: DataSource, tradeId: string): Promise<LoggedFills> {
  const rows = await queryRows<{ event_type: string; data: Record<string, unknown> }>(
    db.manager,
    `SELECT event_type, data FROM trade_events
     WHERE trade_id = $1 AND event_type IN ('maker_fill', 'hedge_sent', 'hedge_filled', 'chunk_started')
     ORDER BY sequence`,
    [tradeId],
  );
  const logged: LoggedFills = {
    makerFills: [],
    hedgeOrderIds: new Set(),
    hedged: new Big(0),
    hedgeClientOrderIds: new Set(),
    chunkStarted: false,
  };
  for (const { event_type: type, data } of rows) {
    switch (type) {
      case 'maker_fill':
        logged.makerFills.push({
          fillId: String(data['fill_id']),
          price: new Big(String(data['price'])),
          size: new Big(String(data['size'])),
          timestampMs: Number(data['timestamp_ms']),
        });
        break;
      case 'hedge_sent':
        logged.hedgeClientOrderIds.add(String(data['client_order_id']));
        break;
      case 'hedge_filled':
        logged.hedgeOrderIds.add(String(data['order_id']));
        logged.hedged = logged.hedged.plus(String(data['size']));
        break;
      case 'chunk_started':
        logged.chunkStarted = true;
        break;
      default:
        break;
    }
  }
  return logged;
}

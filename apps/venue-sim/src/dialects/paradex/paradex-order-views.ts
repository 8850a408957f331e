import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';

export type ParadexInstruction = 'GTC' | 'POST_ONLY' | 'IOC';

/** What the dialect knows of an order beyond the engine: its instruction, and why it closed. */
export interface OrderNotes {
  instruction: ParadexInstruction;
  cancelReason?: string;
  /** The id a held order was answered with (`order_queue=held`): its id everywhere after. */
  id?: string;
}

/** An order the venue queued and then closed without it ever reaching the book. */
export interface ClosedUnplaced {
  id: string;
  account: string;
  market: string;
  side: 'BUY' | 'SELL';
  size: string;
  price: string;
  clientId: string;
  instruction: ParadexInstruction;
  /** Sent with the REDUCE_ONLY flag. */
  reduceOnly: boolean;
  cancelReason: string;
  createdAtMs: number;
}

/** The order as the queue acknowledged it: NEW, nothing filled. */
export function queuedOrder(order: Omit<ClosedUnplaced, 'cancelReason'>) {
  return {
    id: order.id,
    account: order.account,
    market: order.market,
    side: order.side,
    type: 'LIMIT',
    size: order.size,
    remaining_size: order.size,
    price: order.price,
    status: 'NEW',
    created_at: order.createdAtMs,
    last_updated_at: order.createdAtMs,
    timestamp: order.createdAtMs,
    received_at: order.createdAtMs,
    published_at: order.createdAtMs,
    cancel_reason: '',
    client_id: order.clientId,
    instruction: order.instruction,
    avg_fill_price: '',
    flags: order.reduceOnly ? ['REDUCE_ONLY'] : [],
    stp: 'EXPIRE_TAKER',
    trigger_price: '',
    seq_no: order.createdAtMs,
  };
}

/** An engine order in Paradex's words: OPEN while on the book, CLOSED after (why, if not filled). */
export function paradexOrder(venue: VenueEngine, order: EngineOrder, notes: OrderNotes) {
  const market = venue.market(order.symbol);
  const closed = order.status === 'filled' || order.status === 'canceled';
  const filled = market.lot.toBig(order.filledLots);
  return {
    id: notes.id ?? String(numericId(order.orderId)),
    account: order.accountId,
    market: order.symbol,
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    type: 'LIMIT',
    size: market.lot.format(order.sizeLots),
    remaining_size: market.lot.format(order.sizeLots - order.filledLots),
    price: market.price.format(order.priceTicks),
    status: closed ? 'CLOSED' : 'OPEN',
    created_at: order.createdAtMs,
    last_updated_at: order.updatedAtMs,
    timestamp: order.updatedAtMs,
    received_at: order.createdAtMs,
    published_at: order.updatedAtMs,
    cancel_reason: order.status === 'canceled' ? (notes.cancelReason ?? 'USER_CANCELED') : '',
    client_id: order.clientOrderId.startsWith('pdx-') ? '' : order.clientOrderId,
    instruction: notes.instruction,
    avg_fill_price: filled.gt(0) ? order.filledValue.div(filled).round(8).toFixed() : '',
    flags: order.reduceOnly ? ['REDUCE_ONLY'] : [],
    stp: 'EXPIRE_TAKER',
    trigger_price: '',
    seq_no: order.updatedAtMs,
  };
}

export function closedUnplaced(order: ClosedUnplaced) {
  return {
    ...queuedOrder(order),
    status: 'CLOSED',
    remaining_size: order.size,
    cancel_reason: order.cancelReason,
  };
}

/** One fill as `GET /v1/fills` gives it (`orderId`: the id the venue shows its order by). */
export function paradexFill(venue: VenueEngine, fill: EngineFill, orderId: string) {
  const market = venue.market(fill.symbol);
  const order = venue.registry.orderById(fill.orderId);
  return {
    id: String(numericId(fill.fillId)),
    side: fill.side === 'buy' ? 'BUY' : 'SELL',
    liquidity: fill.liquidity === 'maker' ? 'MAKER' : 'TAKER',
    market: fill.symbol,
    order_id: orderId,
    price: market.price.format(fill.priceTicks),
    size: market.lot.format(fill.lots),
    fee: fill.fee.toFixed(),
    fee_currency: 'USDC',
    created_at: fill.tsMs,
    remaining_size: order ? market.lot.format(order.sizeLots - order.filledLots) : '0',
    client_id: fill.clientOrderId.startsWith('pdx-') ? '' : fill.clientOrderId,
    fill_type: 'FILL',
    realized_pnl: '0',
  };
}

/** What a batch cancel found of one order (cancel-batch page: `status`, and the order when found). */
export type BatchCancelOutcome =
  | { status: 'NOT_FOUND' }
  | {
      status: 'QUEUED_FOR_CANCELLATION' | 'ALREADY_CLOSED';
      id: string;
      clientId: string;
      market: string;
    };

import { createHash } from 'node:crypto';
import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import type { MarketState } from '../../engine/market-state';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import { numericId } from '../engine-ids';
import { shownOrderIndex } from './lighter-indices';
import { decimalsOf, marketIndexOf } from './lighter-markets';
import { TIME_IN_FORCE, type CreateOrderTx, type SignedTx } from './lighter-tx';

/**
 * Lighter's orders and trades as its reads and streams give them, and the
 * answer to an accepted transaction (its hash, at the next block height of
 * the simulated chain).
 */

/** Statuses of an order the engine never held (refused before the book). */
export type UnplacedStatus =
  'canceled-post-only' | 'canceled-margin-not-allowed' | 'canceled-reduce-only';

export interface Unplaced {
  orderIndex: number;
  account: number;
  wallet: string;
  market: MarketState;
  tx: CreateOrderTx;
  status: UnplacedStatus;
  createdMs: number;
}

/** Each accepted transaction's place in the simulated chain (Lighter answers its hash). */
let blockHeight = 1_000;

const txHash = (txInfo: unknown): string =>
  createHash('sha256').update(JSON.stringify(txInfo)).digest('hex') +
  createHash('sha256').update(String(blockHeight)).digest('hex').slice(0, 16);

/** The Lighter client order index behind an engine client order id (`<index>` or `<index>~<n>`). */
export const clientIndexOf = (engineClientOrderId: string): number =>
  Number(engineClientOrderId.split('~')[0]);

export function accepted(tx: SignedTx): HttpReply {
  blockHeight += 1;
  return {
    status: 200,
    body: {
      code: 200,
      message: '{"ratelimit": "didn\'t use volume quota"}',
      tx_hash: txHash(tx),
      predicted_execution_time_ms: Date.now() + 1,
    },
  };
}

export function statusOf(order: EngineOrder): string {
  switch (order.status) {
    case 'open':
    case 'partially_filled':
      return 'open';
    case 'filled':
      return 'filled';
    case 'canceled':
      return order.type === 'ioc' ? 'canceled-not-enough-liquidity' : 'canceled';
  }
}

interface OrderFacts {
  orderIndex: number;
  clientOrderIndex: number;
  marketIndex: number;
  account: number;
  size: string;
  price: string;
  nonce: number;
  remaining: string;
  isAsk: boolean;
  filled: string;
  filledQuote: string;
  timeInForce: string;
  reduceOnly: boolean;
  status: string;
  createdMs: number;
  updatedMs: number;
}

export function orderView(facts: OrderFacts) {
  const seconds = (ms: number) => Math.floor(ms / 1000);
  return {
    order_index: facts.orderIndex,
    client_order_index: facts.clientOrderIndex,
    order_id: String(facts.orderIndex),
    client_order_id: String(facts.clientOrderIndex),
    market_index: facts.marketIndex,
    owner_account_index: facts.account,
    initial_base_amount: facts.size,
    price: facts.price,
    nonce: facts.nonce,
    remaining_base_amount: facts.remaining,
    is_ask: facts.isAsk,
    base_size: 0,
    base_price: 0,
    filled_base_amount: facts.filled,
    filled_quote_amount: facts.filledQuote,
    side: '',
    type: 'limit',
    time_in_force: facts.timeInForce,
    reduce_only: facts.reduceOnly,
    trigger_price: '0.00',
    order_expiry:
      facts.timeInForce === 'immediate-or-cancel' ? 0 : facts.createdMs + 28 * 86_400_000,
    status: facts.status,
    trigger_status: 'na',
    trigger_time: 0,
    parent_order_index: 0,
    parent_order_id: '0',
    block_height: blockHeight,
    timestamp: seconds(facts.updatedMs),
    created_at: seconds(facts.createdMs),
    updated_at: seconds(facts.updatedMs),
  };
}

export function unplacedView(entry: Unplaced) {
  return txOrderView(entry, entry.status);
}

/**
 * An order the venue took and its sequencer has not executed yet
 * (`order_queue=held`): `in-progress`, nothing filled, all of it remaining.
 */
export function inProgressView(entry: Omit<Unplaced, 'status'>) {
  return txOrderView(entry, 'in-progress', entry.tx.baseAmount);
}

/** An order as its transaction describes it, with a status and what remains (in base units). */
function txOrderView(entry: Omit<Unplaced, 'status'>, status: string, remainingUnits = 0) {
  const { market, tx } = entry;
  const priceScale = new Big(10).pow(decimalsOf(market.spec.tickSize));
  const sizeScale = new Big(10).pow(decimalsOf(market.spec.lotSize));
  const zero = (0).toFixed(decimalsOf(market.spec.lotSize));
  const remaining = new Big(remainingUnits).div(sizeScale).toFixed(decimalsOf(market.spec.lotSize));
  return orderView({
    orderIndex: entry.orderIndex,
    clientOrderIndex: tx.clientOrderIndex,
    marketIndex: tx.marketIndex,
    account: entry.account,
    size: new Big(tx.baseAmount).div(sizeScale).toFixed(decimalsOf(market.spec.lotSize)),
    price: new Big(tx.price).div(priceScale).toFixed(decimalsOf(market.spec.tickSize)),
    nonce: tx.nonce,
    remaining,
    isAsk: tx.isAsk,
    filled: zero,
    filledQuote: '0.000000',
    timeInForce: tx.timeInForce === TIME_IN_FORCE.ioc ? 'immediate-or-cancel' : 'post-only',
    reduceOnly: tx.reduceOnly,
    status,
    createdMs: entry.createdMs,
    updatedMs: entry.createdMs,
  });
}

/** One of the account's fills as Lighter's trade reads and the account trade stream give it. */
export function lighterTrade(venue: VenueEngine, fill: EngineFill, accountIndex: number) {
  const market = venue.market(fill.symbol);
  const price = market.price.toBig(fill.priceTicks);
  const size = market.lot.toBig(fill.lots);
  const value = price.times(size);
  const buy = fill.side === 'buy';
  const maker = fill.liquidity === 'maker';
  const orderIndex = shownOrderIndex(venue, fill);
  const clientIndex = clientIndexOf(fill.clientOrderId);
  // Lighter states fees in millionths of the trade's value.
  const rate = value.gt(0) ? fill.fee.div(value).times(1_000_000).round(0).toNumber() : 0;
  return {
    trade_id: numericId(fill.fillId),
    tx_hash: createHash('sha256').update(fill.fillId).digest('hex'),
    type: 'trade',
    market_id: marketIndexOf(venue, fill.symbol),
    size: market.lot.format(fill.lots),
    price: market.price.format(fill.priceTicks),
    usd_amount: value.toFixed(6),
    ask_id: buy ? 0 : orderIndex,
    bid_id: buy ? orderIndex : 0,
    ask_client_id: buy ? 0 : clientIndex,
    bid_client_id: buy ? clientIndex : 0,
    ask_account_id: buy ? 0 : accountIndex,
    bid_account_id: buy ? accountIndex : 0,
    is_maker_ask: buy !== maker,
    block_height: blockHeight,
    timestamp: fill.tsMs,
    ...(maker ? { maker_fee: rate } : { taker_fee: rate }),
  };
}

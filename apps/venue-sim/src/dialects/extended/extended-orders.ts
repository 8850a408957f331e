import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { engineOrderId, numericId } from '../engine-ids';
import { ExtendedError, type ExtendedAccount } from './extended-accounts';
import { orderMessageHash, verifyOrderSignature } from './extended-signing';

export const EXTENDED = 'extended';

/** The resolutions of the simulated markets' StarkEx assets (units per whole asset). */
export const SYNTHETIC_RESOLUTION = 1_000_000;
export const COLLATERAL_RESOLUTION = 1_000_000;
/** The collateral asset's StarkEx id (USD), and each synthetic's: the market name as a short string. */
export const COLLATERAL_ID = '0x1';
/** A settlement outlives its order by 14 days (ccxt and the venue's SDK add it). */
const SETTLEMENT_MARGIN_S = 1_209_600;
const DECIMAL = /^\d+(\.\d+)?$/;
const EXTERNAL_ID = /^[\x21-\x7e]{1,128}$/;

export type ExtendedTif = 'GTT' | 'IOC';

interface OrderNotes {
  tif: ExtendedTif;
  postOnly: boolean;
  statusReason?: string;
  payedFee?: string;
}

/** An order the venue accepted, then rejected before the book (the engine never held it). */
interface Unplaced {
  id: string;
  account: number;
  wallet: string;
  externalId: string;
  market: string;
  side: 'BUY' | 'SELL';
  qty: string;
  price: string;
  tif: ExtendedTif;
  postOnly: boolean;
  statusReason: string;
  createdTime: number;
}

const MAX_REMEMBERED = 10_000;

/** The synthetic asset id of a market: its name as a short string, in hex. */
export function syntheticIdOf(market: string): string {
  return `0x${Buffer.from(market, 'ascii').toString('hex')}`;
}

/**
 * Extended's orders over the engine. `POST /api/v1/user/order` carries a
 * StarkEx settlement signed with the account's stark key (extended-signing.ts):
 * the venue rebuilds it from the order (its quantity and value in the assets'
 * resolutions, the fee cap, the expiry plus 14 days, the nonce as salt, the
 * account's vault) and refuses an order whose signature does not verify (1101).
 * Placement answers `{id, externalId}` only; the order's status (NEW resting,
 * PARTIALLY_FILLED, FILLED, CANCELLED, or REJECTED with a `statusReason`
 * such as `POST_ONLY_FAILED`) is what `GET /api/v1/user/orders/...` and the
 * account stream say after.
 */
export class ExtendedOrders {
  private readonly notes = new Map<string, OrderNotes>();
  private readonly unplaced = new Map<string, Unplaced>();
  private seq = 0;
  /** Told of an order rejected before the book. */
  onUnplaced: (wallet: string, order: unknown) => void = () => undefined;

  constructor(private readonly deps: DialectDeps) {}

  notesOf(order: EngineOrder): OrderNotes {
    return (
      this.notes.get(order.orderId) ?? {
        tif: order.type === 'ioc' ? 'IOC' : 'GTT',
        postOnly: order.type !== 'ioc',
      }
    );
  }

  place(
    request: SignedRequest,
    account: ExtendedAccount,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const order = parseOrder(body);
    const kind = order.tif === 'IOC' ? 'ioc' : 'post_only';
    return this.deps.orders.execute(request, { op: 'place', fields: { type: kind } }, (venue) => {
      const market = venue.markets.get(order.market);
      if (!market) {
        throw new ExtendedError(400, 1001, 'Market not found.');
      }
      this.checkSettlement(account, order, market);
      const createdTime = Date.now();
      let id: string;
      try {
        const outcome = venue.desk.place(request.accountId, {
          symbol: order.market,
          side: order.side === 'BUY' ? 'buy' : 'sell',
          type: kind,
          price: order.price,
          size: order.qty,
          clientOrderId: order.externalId,
        });
        if (outcome.duplicate) {
          throw new ExtendedError(400, 1134, 'Duplicate Order.');
        }
        this.notes.set(outcome.order.orderId, { tif: order.tif, postOnly: order.postOnly });
        id = String(numericId(outcome.order.orderId));
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'post_only_would_cross') {
          id = this.reject(account, request.accountId, order, 'POST_ONLY_FAILED', createdTime);
        } else if (code === 'insufficient_margin') {
          throw new ExtendedError(400, 1140, 'New order cost exceeds available balance.');
        } else if (code === 'duplicate_client_order_id') {
          throw new ExtendedError(400, 1134, 'Duplicate Order.');
        } else if (code === 'invalid_order') {
          const reason = (error as { reason?: unknown }).reason;
          if (reason === 'invalid_tick') {
            throw new ExtendedError(400, 1124, 'Invalid price due to wrong price movement.');
          }
          if (reason === 'below_min_size') {
            throw new ExtendedError(400, 1120, 'Order quantity less than min trade size.');
          }
          throw new ExtendedError(400, 1121, 'Invalid quantity due to the wrong size increment.');
        } else {
          throw error;
        }
      }
      return { status: 200, body: { status: 'OK', data: { id, externalId: order.externalId } } };
    });
  }

  /** DELETE /api/v1/user/order/{id} or ?externalId=: `{status: "OK"}`, the order canceled. */
  cancel(request: SignedRequest, target: { id?: string; externalId?: string }): Promise<HttpReply> {
    return this.deps.orders.execute(request, { op: 'cancel', fields: {} }, (venue) => {
      const order = this.find(venue, request.accountId, target);
      if (!order || (order.status !== 'open' && order.status !== 'partially_filled')) {
        throw new ExtendedError(404, 1142, 'Order not found.');
      }
      venue.desk.cancel(request.accountId, { orderId: order.orderId });
      return { status: 200, body: { status: 'OK' } };
    });
  }

  lookup(
    venue: VenueEngine,
    account: ExtendedAccount,
    wallet: string,
    target: { id?: string; externalId?: string },
  ) {
    const order = this.find(venue, wallet, target);
    if (order) {
      return extendedOrder(venue, order, account.accountId, this.notesOf(order));
    }
    const unplaced =
      target.id !== undefined
        ? this.unplaced.get(target.id)
        : [...this.unplaced.values()].find(
            (entry) => entry.wallet === wallet && entry.externalId === target.externalId,
          );
    if (unplaced && unplaced.wallet === wallet) {
      return unplacedOrder(unplaced);
    }
    throw new ExtendedError(404, 1142, 'Order not found.');
  }

  open(venue: VenueEngine, account: ExtendedAccount, wallet: string, market: string | null) {
    return venue.registry
      .open(wallet)
      .filter((order) => market === null || order.symbol === market)
      .sort((a, b) => a.createdAtMs - b.createdAtMs)
      .map((order) => extendedOrder(venue, order, account.accountId, this.notesOf(order)));
  }

  trades(venue: VenueEngine, account: ExtendedAccount, wallet: string, query: URLSearchParams) {
    const market = query.get('market');
    const limit = Math.min(Number(query.get('limit') ?? 1000), 5000);
    return venue.registry
      .fillsSince(wallet, 0)
      .filter((fill) => market === null || fill.symbol === market)
      .slice(-limit)
      .map((fill) => extendedTrade(venue, fill, account.accountId));
  }

  private find(venue: VenueEngine, wallet: string, target: { id?: string; externalId?: string }) {
    if (target.externalId !== undefined) {
      return venue.registry.byClientOrderId(wallet, target.externalId);
    }
    const engineId = target.id !== undefined ? engineOrderId(target.id) : undefined;
    return engineId ? venue.registry.get(wallet, engineId) : undefined;
  }

  private reject(
    account: ExtendedAccount,
    wallet: string,
    order: ParsedOrder,
    statusReason: string,
    createdTime: number,
  ): string {
    this.seq += 1;
    const id = String(900_000_000_000_000 + this.seq);
    const entry: Unplaced = {
      id,
      account: account.accountId,
      wallet,
      externalId: order.externalId,
      market: order.market,
      side: order.side,
      qty: order.qty,
      price: order.price,
      tif: order.tif,
      postOnly: order.postOnly,
      statusReason,
      createdTime,
    };
    this.unplaced.set(id, entry);
    if (this.unplaced.size > MAX_REMEMBERED) {
      this.unplaced.delete(this.unplaced.keys().next().value as string);
    }
    this.onUnplaced(wallet, unplacedOrder(entry));
    return id;
  }

  /** Rebuilds the settlement the order implies and checks its signature against the account's key. */
  private checkSettlement(account: ExtendedAccount, order: ParsedOrder, market: MarketState): void {
    const { settlement } = order;
    if (BigInt(settlement.starkKey) !== account.starkKey) {
      throw new ExtendedError(400, 1100, 'Invalid Starknet public key.');
    }
    if (BigInt(settlement.collateralPosition) !== BigInt(account.vault)) {
      throw new ExtendedError(400, 1102, 'Invalid Starknet vault.');
    }
    if (
      new Big(order.fee).lt(
        new Big(this.deps.world().venue(EXTENDED).profile.takerFeeBps).div(10_000),
      )
    ) {
      throw new ExtendedError(400, 1128, 'Trading fees are invalid.');
    }
    const isBuy = order.side === 'BUY';
    const value = new Big(order.qty).times(order.price);
    const base = starkAmount(new Big(order.qty), SYNTHETIC_RESOLUTION, isBuy);
    const quote = starkAmount(value, COLLATERAL_RESOLUTION, isBuy);
    const fee = starkAmount(new Big(order.fee).times(value), COLLATERAL_RESOLUTION, true);
    const hash = orderMessageHash(
      {
        positionId: BigInt(account.vault),
        baseAssetId: BigInt(syntheticIdOf(market.spec.symbol)),
        baseAmount: isBuy ? base : -base,
        quoteAssetId: BigInt(COLLATERAL_ID),
        quoteAmount: isBuy ? -quote : quote,
        feeAssetId: BigInt(COLLATERAL_ID),
        feeAmount: fee,
        expiration: BigInt(
          Math.floor((order.expiryEpochMillis + 999) / 1000) + SETTLEMENT_MARGIN_S,
        ),
        salt: BigInt(order.nonce),
      },
      account.starkKey,
    );
    if (!verifyOrderSignature(settlement.r, settlement.s, hash, account.starkKey)) {
      throw new ExtendedError(400, 1101, 'Invalid Starknet signature.');
    }
  }
}

interface ParsedOrder {
  externalId: string;
  market: string;
  side: 'BUY' | 'SELL';
  qty: string;
  price: string;
  tif: ExtendedTif;
  postOnly: boolean;
  fee: string;
  nonce: string;
  expiryEpochMillis: number;
  settlement: { r: bigint; s: bigint; starkKey: string; collateralPosition: string };
}

function parseOrder(body: Record<string, unknown>): ParsedOrder {
  const invalid = (): ExtendedError => new ExtendedError(400, 1133, 'Invalid order parameters.');
  const { id, market, type, side, qty, price, timeInForce, fee, nonce, postOnly, reduceOnly } =
    body;
  if (typeof id !== 'string' || !EXTERNAL_ID.test(id)) {
    throw invalid();
  }
  if (typeof market !== 'string') {
    throw invalid();
  }
  if (type !== 'LIMIT') {
    throw new ExtendedError(400, 1132, 'Order type is not allowed.');
  }
  if (side !== 'BUY' && side !== 'SELL') {
    throw invalid();
  }
  if (typeof qty !== 'string' || !DECIMAL.test(qty) || new Big(qty).lte(0)) {
    throw invalid();
  }
  if (typeof price !== 'string' || !DECIMAL.test(price) || new Big(price).lte(0)) {
    throw new ExtendedError(400, 1141, 'Invalid price value.');
  }
  if (timeInForce !== 'GTT' && timeInForce !== 'IOC') {
    throw invalid();
  }
  if (typeof fee !== 'string' || !DECIMAL.test(fee)) {
    throw new ExtendedError(400, 1128, 'Trading fees are invalid.');
  }
  if (typeof nonce !== 'string' || !/^\d{1,19}$/.test(nonce)) {
    throw invalid();
  }
  if (reduceOnly === true) {
    throw new ExtendedError(400, 1145, 'Non reduce-only orders are not allowed.');
  }
  if (body['builderId'] !== undefined || body['builderFee'] !== undefined) {
    throw new ExtendedError(400, 1133, 'the simulated venue has no builders.');
  }
  const expiry = body['expiryEpochMillis'];
  if (!Number.isSafeInteger(expiry)) {
    throw invalid();
  }
  const settlement = body['settlement'] as Record<string, unknown> | undefined;
  const signature = settlement?.['signature'] as Record<string, unknown> | undefined;
  const r = signature?.['r'];
  const s = signature?.['s'];
  const starkKey = settlement?.['starkKey'];
  const position = settlement?.['collateralPosition'];
  if (
    typeof r !== 'string' ||
    typeof s !== 'string' ||
    !/^0x[0-9a-fA-F]+$/.test(r) ||
    !/^0x[0-9a-fA-F]+$/.test(s)
  ) {
    throw new ExtendedError(400, 1101, 'Invalid Starknet signature.');
  }
  if (typeof starkKey !== 'string' || !/^0x[0-9a-fA-F]+$/.test(starkKey)) {
    throw new ExtendedError(400, 1100, 'Invalid Starknet public key.');
  }
  if (typeof position !== 'string' || !/^\d+$/.test(position)) {
    throw new ExtendedError(400, 1102, 'Invalid Starknet vault.');
  }
  return {
    externalId: id,
    market,
    side,
    qty,
    price,
    tif: timeInForce,
    postOnly: postOnly === true,
    fee,
    nonce,
    expiryEpochMillis: expiry as number,
    settlement: { r: BigInt(r), s: BigInt(s), starkKey, collateralPosition: position },
  };
}

/** An amount in a StarkEx resolution: truncated, or up to the next unit when asked. */
function starkAmount(amount: Big, resolution: number, roundUp: boolean): bigint {
  const scaled = amount.times(resolution);
  const whole = scaled.round(0, Big.roundDown);
  return BigInt((roundUp && scaled.gt(whole) ? whole.plus(1) : whole).toFixed(0));
}

function statusOf(order: EngineOrder, notes: OrderNotes): string {
  switch (order.status) {
    case 'open':
      return 'NEW';
    case 'partially_filled':
      return 'PARTIALLY_FILLED';
    case 'filled':
      return 'FILLED';
    case 'canceled':
      return notes.tif === 'IOC' ? 'EXPIRED' : 'CANCELLED';
  }
}

/** An engine order as Extended's order endpoints and account stream give it. */
export function extendedOrder(
  venue: VenueEngine,
  order: EngineOrder,
  accountId: number,
  notes: OrderNotes,
) {
  const market = venue.market(order.symbol);
  const filled = market.lot.toBig(order.filledLots);
  return {
    id: numericId(order.orderId),
    accountId,
    externalId: order.clientOrderId,
    market: order.symbol,
    type: 'LIMIT',
    side: order.side === 'buy' ? 'BUY' : 'SELL',
    status: statusOf(order, notes),
    ...(notes.statusReason ? { statusReason: notes.statusReason } : {}),
    price: market.price.format(order.priceTicks),
    averagePrice: filled.gt(0) ? order.filledValue.div(filled).round(8).toFixed() : '0',
    qty: market.lot.format(order.sizeLots),
    filledQty: market.lot.format(order.filledLots),
    payedFee: '0',
    reduceOnly: false,
    postOnly: notes.postOnly,
    createdTime: order.createdAtMs,
    updatedTime: order.updatedAtMs,
    timeInForce: notes.tif,
    expireTime: Math.floor(order.createdAtMs / 1000) + 3_600,
  };
}

function unplacedOrder(order: Unplaced) {
  return {
    id: Number(order.id),
    accountId: order.account,
    externalId: order.externalId,
    market: order.market,
    type: 'LIMIT',
    side: order.side,
    status: 'REJECTED',
    statusReason: order.statusReason,
    price: order.price,
    averagePrice: '0',
    qty: order.qty,
    filledQty: '0',
    payedFee: '0',
    reduceOnly: false,
    postOnly: order.postOnly,
    createdTime: order.createdTime,
    updatedTime: order.createdTime,
    timeInForce: order.tif,
    expireTime: Math.floor(order.createdTime / 1000) + 3_600,
  };
}

/** One of the account's trades as `GET /api/v1/user/trades` and the account stream give it. */
export function extendedTrade(venue: VenueEngine, fill: EngineFill, accountId: number) {
  const market = venue.market(fill.symbol);
  const price = market.price.toBig(fill.priceTicks);
  const qty = market.lot.toBig(fill.lots);
  return {
    id: numericId(fill.fillId),
    accountId,
    market: fill.symbol,
    orderId: numericId(fill.orderId),
    externalId: fill.clientOrderId,
    externalOrderId: fill.clientOrderId,
    side: fill.side === 'buy' ? 'BUY' : 'SELL',
    price: price.toFixed(),
    qty: qty.toFixed(),
    value: price.times(qty).toFixed(),
    fee: fill.fee.toFixed(),
    tradeType: 'TRADE',
    isTaker: fill.liquidity === 'taker',
    createdTime: fill.tsMs,
  };
}

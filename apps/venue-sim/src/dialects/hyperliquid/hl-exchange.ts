import Big from 'big.js';
import { AnswerLost, HttpFailure, type HttpReply } from '../../api/http-kit';
import type { RequestChannel, SignedRequest } from '../../api/order-entry';
import type { OrderKind, OrderOp } from '../../control/faults';
import type { MarketState } from '../../engine/market-state';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { engineOrderId, numericId } from '../engine-ids';
import {
  HlActionError,
  HlBodyError,
  HlOrderError,
  actionRefusal,
  hlText,
  orderRefusal,
} from './hl-errors';
import { HlNonceError, HlNonces } from './hl-nonces';
import {
  HlSignatureError,
  isUserSignedAction,
  recoverL1ActionSigner,
  recoverUserSignedActionSigner,
  venueText,
  type HlSignature,
} from './hl-signing';
import type { HlState } from './hl-state';
import { assetOf, decimalsOf, plain, universe, type HlTif } from './hl-wire';

export const HYPERLIQUID = 'hyperliquid';

/** Hyperliquid's perp prices: at most 5 significant figures, at most 6 − szDecimals decimals. */
const SIGNIFICANT_FIGURES = 5;
const PERP_MAX_DECIMALS = 6;
const DECIMAL = /^\d+(\.\d+)?$/;
const CLOID = /^0x[0-9a-fA-F]{32}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** One order of an `order` action, as the venue's wire names its fields. */
interface WireOrder {
  a: number;
  b: boolean;
  p: string;
  s: string;
  r: boolean;
  t: { limit?: { tif?: unknown }; trigger?: unknown };
  c?: string;
}

/** An `/exchange` body. */
interface ExchangeRequest {
  action: Record<string, unknown>;
  nonce: number;
  signature: HlSignature;
  vaultAddress?: string | null;
  expiresAfter?: number | null;
}

/** What an action handler gets: the account it acts for and how to reach it. */
interface ActionCall {
  action: Record<string, unknown>;
  request: SignedRequest;
  expiresAfter?: number;
}

export interface HlExchangeDeps extends DialectDeps {
  state: HlState;
}

/**
 * Hyperliquid's `/exchange`: signed actions, over HTTP or a socket's `post`.
 * The venue recovers the signer from the signature (hl-signing.ts), checks
 * the signer's nonce (hl-nonces.ts), and acts for the signer when it is a
 * funded wallet or for the user that approved it as an API wallet; any other
 * signer is `User or API Wallet 0x… does not exist.` Order actions then run
 * through the shared order path (OrderEntry: rate limit, faults, expiry,
 * engine), as a paper request does.
 *
 * Actions: `order` (limit orders, `Alo` post-only, `Ioc`, `Gtc` resting when
 * it does not cross; optional `c` cloid; a `builder` only with an approved
 * builder fee), `cancel`, `cancelByCloid`, `modify`, `batchModify`,
 * `updateLeverage` (acknowledged: the engine margins every market at its
 * maximum leverage), `setReferrer` and `noop`, and the user-signed
 * `approveAgent` and `approveBuilderFee`. Every action is logged
 * (`GET /dialects/hyperliquid/_sim/actions?user=`).
 */
export class HlExchange {
  private readonly nonces = new HlNonces();
  private cloidlessSeq = 0;

  constructor(private readonly deps: HlExchangeDeps) {}

  /** Answers one `/exchange` body; `channel` is the connection it came on. */
  async handle(raw: unknown, channel: RequestChannel): Promise<HttpReply> {
    let logged: { user: string; signer: string; request: ExchangeRequest } | undefined;
    try {
      const request = parseRequest(raw);
      const signer = await this.recoverSigner(request);
      const user = this.actingUser(signer, request.action);
      logged = { user: user ?? signer, signer, request };
      if (!user) {
        throw new HlActionError(venueText.unknownSigner(signer));
      }
      this.nonces.check(signer, request.nonce, Date.now());
      const call: ActionCall = {
        action: request.action,
        request: { venueId: HYPERLIQUID, accountId: user, channel },
        ...(typeof request.expiresAfter === 'number' ? { expiresAfter: request.expiresAfter } : {}),
      };
      const reply = await this.act(call);
      this.record(logged, reply.body);
      return reply;
    } catch (error) {
      if (error instanceof AnswerLost) {
        if (logged) {
          this.record(logged, undefined);
        }
        throw error;
      }
      const reply =
        error instanceof HlSignatureError || error instanceof HlNonceError
          ? new HlActionError(error.message).reply()
          : actionRefusal(error);
      if (reply instanceof AnswerLost) {
        throw reply;
      }
      if (logged) {
        this.record(logged, reply.body);
      }
      return reply;
    }
  }

  private record(
    logged: { user: string; signer: string; request: ExchangeRequest },
    answer: unknown,
  ): void {
    const { action, nonce, vaultAddress, expiresAfter } = logged.request;
    this.deps.state.log({
      atMs: Date.now(),
      user: logged.user,
      signer: logged.signer,
      action,
      nonce,
      ...(vaultAddress !== undefined ? { vaultAddress } : {}),
      ...(expiresAfter !== undefined ? { expiresAfter } : {}),
      answer,
    });
  }

  private async recoverSigner(request: ExchangeRequest): Promise<string> {
    if (isUserSignedAction(request.action['type'])) {
      return recoverUserSignedActionSigner({
        action: request.action,
        signature: request.signature,
      });
    }
    return recoverL1ActionSigner({
      action: request.action,
      nonce: request.nonce,
      signature: request.signature,
      vaultAddress: request.vaultAddress,
      expiresAfter: request.expiresAfter,
    });
  }

  /** The funded user a signer acts for; a user-signed action only for the user itself. */
  private actingUser(signer: string, action: Record<string, unknown>): string | undefined {
    const own = this.deps.funding.account(HYPERLIQUID, signer);
    if (own || isUserSignedAction(action['type'])) {
      return own;
    }
    const user = this.deps.state.userOfAgent(signer);
    return user && this.deps.funding.account(HYPERLIQUID, user);
  }

  private act(call: ActionCall): Promise<HttpReply> {
    const { action } = call;
    switch (action['type']) {
      case 'order':
        return this.order(call);
      case 'cancel':
        return this.cancel(call, 'o');
      case 'cancelByCloid':
        return this.cancel(call, 'cloid');
      case 'modify':
        return this.modify(call, [{ oid: action['oid'], order: action['order'] }]);
      case 'batchModify':
        return this.modify(call, arrayOf(action['modifies']));
      case 'approveAgent':
        return Promise.resolve(this.approveAgent(call));
      case 'approveBuilderFee':
        return Promise.resolve(this.approveBuilderFee(call));
      case 'updateLeverage':
        return this.acknowledge(call, () => {
          this.asset(call.action['asset']);
          if (!Number.isSafeInteger(call.action['leverage'])) {
            throw new HlBodyError();
          }
        });
      case 'setReferrer':
      case 'noop':
        return this.acknowledge(call, () => undefined);
      default:
        throw new HlBodyError();
    }
  }

  /** `order`: each order answered by its own status, in the order sent. */
  private order(call: ActionCall): Promise<HttpReply> {
    const { action } = call;
    const orders = arrayOf(action['orders']).map(parseWireOrder);
    if (orders.length === 0 || action['grouping'] !== 'na') {
      if (action['grouping'] === 'normalTpsl' || action['grouping'] === 'positionTpsl') {
        throw new HlActionError(hlText.unsupported('TP/SL groupings'));
      }
      throw new HlBodyError();
    }
    for (const order of orders) {
      this.asset(order.a);
    }
    this.checkBuilder(call.request.accountId, action['builder']);
    const first = orders[0];
    const kind: OrderKind = first.t.limit?.tif === 'Ioc' ? 'ioc' : 'post_only';
    return this.run(call, 'place', kind, (venue) => ({
      statuses: orders.map((order) => this.placeOne(venue, call.request.accountId, order)),
    }));
  }

  private placeOne(venue: VenueEngine, accountId: string, order: WireOrder): unknown {
    const market = this.market(venue, order.a);
    try {
      const tif = this.checkOrder(market, order);
      const clientOrderId = order.c?.toLowerCase() ?? this.cloidless();
      try {
        const outcome = venue.desk.place(accountId, {
          symbol: market.spec.symbol,
          side: order.b ? 'buy' : 'sell',
          type: tif === 'Ioc' ? 'ioc' : 'post_only',
          price: order.p,
          size: order.s,
          clientOrderId,
        });
        // A cloid names one order for good: sent again, it is refused.
        if (outcome.duplicate) {
          throw new HlOrderError(hlText.duplicateCloid(order.a));
        }
        this.deps.state.setTif(outcome.order.orderId, tif);
        return placed(venue, outcome.order, order.c);
      } catch (error) {
        if (tif === 'Gtc' && isCode(error, 'post_only_would_cross')) {
          throw new HlOrderError(hlText.gtcWouldCross(order.a));
        }
        throw error;
      }
    } catch (error) {
      const text = orderRefusal(error, order.a, () => bbo(market));
      if (order.c) {
        this.rememberRejection(accountId, market, order, text);
      }
      return { error: text };
    }
  }

  /** The venue's price and size rules, before the engine's own checks. */
  private checkOrder(market: MarketState, order: WireOrder): HlTif {
    if (order.t.trigger !== undefined) {
      throw new HlOrderError(hlText.unsupported('trigger orders'));
    }
    const tif = order.t.limit?.tif;
    if (tif !== 'Alo' && tif !== 'Ioc' && tif !== 'Gtc') {
      throw new HlBodyError();
    }
    if (order.r) {
      throw new HlOrderError(hlText.unsupported('reduce-only orders'));
    }
    const szDecimals = decimalsOf(market.spec.lotSize);
    if (new Big(order.s).eq(0)) {
      throw new HlOrderError(hlText.zeroSize(order.a));
    }
    if (decimalsOf(order.s) > szDecimals) {
      throw new HlOrderError(hlText.invalidSize(order.a));
    }
    if (!priceAllowed(order.p, szDecimals)) {
      throw new HlOrderError(hlText.tick(order.a));
    }
    return tif;
  }

  private rememberRejection(
    accountId: string,
    market: MarketState,
    order: WireOrder,
    text: string,
  ): void {
    const tif = (order.t.limit?.tif ?? 'Gtc') as HlTif;
    this.deps.state.reject(accountId, {
      coin: market.spec.symbol,
      side: order.b ? 'B' : 'A',
      limitPx: order.p,
      sz: order.s,
      tif,
      cloid: order.c!.toLowerCase(),
      status: rejectionStatus(text, tif),
      timestamp: Date.now(),
    });
  }

  /** `cancel` ({a, o}) and `cancelByCloid` ({asset, cloid}): `success` or an error per cancel. */
  private cancel(call: ActionCall, by: 'o' | 'cloid'): Promise<HttpReply> {
    const cancels = arrayOf(call.action['cancels']).map((entry) => {
      const asset = by === 'o' ? entry['a'] : entry['asset'];
      const id = by === 'o' ? entry['o'] : entry['cloid'];
      if (!Number.isSafeInteger(asset)) {
        throw new HlBodyError();
      }
      if (by === 'o' ? !Number.isSafeInteger(id) : !(typeof id === 'string' && CLOID.test(id))) {
        throw new HlBodyError();
      }
      return { asset: asset as number, id: id as number | string };
    });
    if (cancels.length === 0) {
      throw new HlBodyError();
    }
    for (const { asset } of cancels) {
      this.asset(asset);
    }
    return this.run(call, 'cancel', undefined, (venue) => ({
      statuses: cancels.map(({ asset, id }) => {
        const market = this.market(venue, asset);
        try {
          const target = targetOf(id);
          const order = venue.desk.find(call.request.accountId, target);
          if (order.symbol !== market.spec.symbol) {
            throw new HlOrderError(hlText.cancelMissing(asset));
          }
          venue.desk.cancel(call.request.accountId, target);
          return 'success';
        } catch (error) {
          return { error: orderRefusal(error, asset, () => bbo(market)) };
        }
      }),
    }));
  }

  /** `modify` / `batchModify`: the order is canceled and its replacement placed (a new oid). */
  private modify(call: ActionCall, modifies: Record<string, unknown>[]): Promise<HttpReply> {
    const parsed = modifies.map((entry) => {
      const oid = entry['oid'];
      if (!Number.isSafeInteger(oid) && !(typeof oid === 'string' && CLOID.test(oid))) {
        throw new HlBodyError();
      }
      return { oid: oid as number | string, order: parseWireOrder(entry['order']) };
    });
    if (parsed.length === 0) {
      throw new HlBodyError();
    }
    for (const { order } of parsed) {
      this.asset(order.a);
    }
    const kind: OrderKind = parsed[0].order.t.limit?.tif === 'Ioc' ? 'ioc' : 'post_only';
    return this.run(
      call,
      'replace',
      kind,
      (venue) => ({
        statuses: parsed.map(({ oid, order }) => {
          let known: EngineOrder;
          try {
            known = venue.desk.find(call.request.accountId, targetOf(oid));
          } catch {
            return { error: 'Cannot modify canceled or filled order' };
          }
          if (known.status !== 'open' && known.status !== 'partially_filled') {
            return { error: 'Cannot modify canceled or filled order' };
          }
          venue.desk.cancel(call.request.accountId, { orderId: known.orderId });
          return this.placeOne(venue, call.request.accountId, order);
        }),
      }),
      'order',
    );
  }

  private approveAgent(call: ActionCall): HttpReply {
    const agent = call.action['agentAddress'];
    if (typeof agent !== 'string' || !ADDRESS.test(agent)) {
      throw new HlBodyError();
    }
    this.deps.state.approveAgent(call.request.accountId, agent);
    return ok();
  }

  private approveBuilderFee(call: ActionCall): HttpReply {
    const { builder, maxFeeRate } = call.action;
    if (typeof builder !== 'string' || !ADDRESS.test(builder)) {
      throw new HlBodyError();
    }
    if (typeof maxFeeRate !== 'string' || !/^\d+(\.\d+)?%$/.test(maxFeeRate)) {
      throw new HlBodyError();
    }
    this.deps.state.approveBuilder(call.request.accountId, builder, maxFeeRate);
    return ok();
  }

  /** An order naming a builder needs the user's approval of that builder's fee. */
  private checkBuilder(accountId: string, builder: unknown): void {
    if (builder === undefined) {
      return;
    }
    const { b, f } = (builder ?? {}) as { b?: unknown; f?: unknown };
    if (typeof b !== 'string' || !ADDRESS.test(b) || !Number.isSafeInteger(f)) {
      throw new HlBodyError();
    }
    const approved = this.deps.state.builders.get(accountId)?.get(b.toLowerCase());
    // f is in tenths of a basis point; an approval is a percent ("0.01%" = 10).
    if (approved === undefined || new Big(approved.slice(0, -1)).times(1000).lt(f as number)) {
      throw new HlActionError(hlText.builderNotApproved);
    }
  }

  /** An action that changes nothing the engine keeps, admitted like any request. */
  private async acknowledge(call: ActionCall, check: () => void): Promise<HttpReply> {
    check();
    return this.deps.orders.execute(call.request, undefined, () => ok());
  }

  /**
   * Runs an order action through the shared order path. A refusal of the
   * whole request there (reject-next, the engine refusing) is every order's
   * status error; rate limits, halts and expiry refuse the action.
   */
  private async run(
    call: ActionCall,
    op: OrderOp,
    kind: OrderKind | undefined,
    answer: (venue: VenueEngine) => { statuses: unknown[] },
    responseType: string = op === 'cancel' ? 'cancel' : 'order',
  ): Promise<HttpReply> {
    const fields = {
      ...(kind ? { type: kind } : {}),
      ...(call.expiresAfter !== undefined ? { expires_at_ms: call.expiresAfter } : {}),
    };
    try {
      return await this.deps.orders.execute(call.request, { op, fields }, (venue) => ({
        status: 200,
        body: { status: 'ok', response: { type: responseType, data: answer(venue) } },
      }));
    } catch (error) {
      if (error instanceof HttpFailure && error.code === 'order_expired') {
        throw new HlActionError(hlText.expired(call.expiresAfter ?? 0, Date.now()));
      }
      const count = arrayOf(
        call.action['orders'] ?? call.action['cancels'] ?? call.action['modifies'],
      ).length;
      let text: string;
      try {
        text = orderRefusal(error, 0, () => '');
      } catch {
        throw error;
      }
      return {
        status: 200,
        body: {
          status: 'ok',
          response: {
            type: responseType,
            data: { statuses: Array.from({ length: Math.max(count, 1) }, () => ({ error: text })) },
          },
        },
      };
    }
  }

  private market(venue: VenueEngine, asset: number): MarketState {
    const market = universe(venue)[asset];
    if (!market) {
      throw new HlActionError(`Unknown asset ${asset}.`);
    }
    return market;
  }

  private asset(value: unknown): number {
    if (!Number.isSafeInteger(value)) {
      throw new HlBodyError();
    }
    const venue = this.deps.world().venue(HYPERLIQUID);
    this.market(venue, value as number);
    return value as number;
  }

  /** An order without a cloid still needs an engine client id; it reports `cloid: null`. */
  private cloidless(): string {
    this.cloidlessSeq += 1;
    return `hl-${Date.now().toString(36)}-${this.cloidlessSeq}`;
  }
}

function parseRequest(raw: unknown): ExchangeRequest {
  if (!isObject(raw)) {
    throw new HlBodyError();
  }
  const { action, nonce, signature, vaultAddress, expiresAfter } = raw;
  if (!isObject(action) || typeof action['type'] !== 'string') {
    throw new HlBodyError();
  }
  if (!Number.isSafeInteger(nonce)) {
    throw new HlBodyError();
  }
  if (!isObject(signature)) {
    throw new HlBodyError();
  }
  const { r, s, v } = signature;
  if (typeof r !== 'string' || typeof s !== 'string' || typeof v !== 'number') {
    throw new HlBodyError();
  }
  if (vaultAddress !== undefined && vaultAddress !== null) {
    throw new HlActionError('Vault not registered: the simulated venue has no vaults.');
  }
  if (expiresAfter !== undefined && expiresAfter !== null && !Number.isSafeInteger(expiresAfter)) {
    throw new HlBodyError();
  }
  return {
    action,
    nonce: nonce as number,
    signature: { r, s, v },
    ...(vaultAddress !== undefined ? { vaultAddress } : {}),
    ...(expiresAfter !== undefined ? { expiresAfter: expiresAfter as number | null } : {}),
  };
}

function parseWireOrder(value: unknown): WireOrder {
  if (!isObject(value)) {
    throw new HlBodyError();
  }
  const { a, b, p, s, r, t, c } = value;
  if (!Number.isSafeInteger(a) || typeof b !== 'boolean' || typeof r !== 'boolean') {
    throw new HlBodyError();
  }
  if (typeof p !== 'string' || !DECIMAL.test(p) || typeof s !== 'string' || !DECIMAL.test(s)) {
    throw new HlBodyError();
  }
  if (!isObject(t) || (t['limit'] === undefined) === (t['trigger'] === undefined)) {
    throw new HlBodyError();
  }
  if (c !== undefined && !(typeof c === 'string' && CLOID.test(c))) {
    throw new HlBodyError();
  }
  return {
    a: a as number,
    b,
    p,
    s,
    r,
    t: t as WireOrder['t'],
    ...(c !== undefined ? { c: c as string } : {}),
  };
}

/**
 * Hyperliquid's perp price rule: an integer price is always allowed;
 * otherwise at most 5 significant figures and at most 6 − szDecimals decimals.
 */
export function priceAllowed(price: string, szDecimals: number): boolean {
  const value = new Big(price);
  if (value.lte(0)) {
    return false;
  }
  const decimals = decimalsOf(price);
  if (decimals === 0) {
    return true;
  }
  if (decimals > PERP_MAX_DECIMALS - szDecimals) {
    return false;
  }
  const digits = value.toFixed().replace('.', '').replace(/^0+/, '');
  return digits.length <= SIGNIFICANT_FIGURES;
}

/** The status of a placed order: resting, or an IOC's fills (none is an error). */
function placed(venue: VenueEngine, order: EngineOrder, cloid: string | undefined): unknown {
  const market = venue.market(order.symbol);
  const ids = { oid: numericId(order.orderId), ...(cloid ? { cloid: cloid.toLowerCase() } : {}) };
  if (order.type === 'post_only') {
    return { resting: ids };
  }
  if (order.filledLots === 0) {
    return { error: hlText.iocNoMatch(assetOf(venue, order.symbol)) };
  }
  const size = market.lot.toBig(order.filledLots);
  return {
    filled: {
      totalSz: plain(size),
      avgPx: plain(order.filledValue.div(size).round(6)),
      ...ids,
    },
  };
}

/** The order status the venue keeps for an order it refused. */
function rejectionStatus(text: string, tif: HlTif): string {
  if (text.startsWith('Post only order would have immediately matched')) {
    return 'badAloPxRejected';
  }
  if (text.startsWith('Order could not immediately match')) {
    return 'iocCancelRejected';
  }
  if (text.startsWith('Insufficient margin')) {
    return 'perpMarginRejected';
  }
  if (text.startsWith('Price must be divisible')) {
    return 'tickRejected';
  }
  if (text.startsWith('Order must have minimum value')) {
    return 'minTradeNtlRejected';
  }
  return tif === 'Ioc' ? 'iocCancelRejected' : 'rejected';
}

const bbo = (market: MarketState): string => {
  const bid = market.book.bids.best();
  const ask = market.book.asks.best();
  const text = (ticks: number | undefined) =>
    ticks === undefined ? 'None' : plain(market.price.toBig(ticks));
  return `${text(bid?.priceTicks)}@${text(ask?.priceTicks)}`;
};

/** An order named by oid (a number) or cloid (0x + 32 hex). */
function targetOf(id: number | string): { orderId: string } | { clientOrderId: string } {
  if (typeof id === 'string') {
    return { clientOrderId: id.toLowerCase() };
  }
  const orderId = engineOrderId(id);
  if (!orderId) {
    throw new HlBodyError();
  }
  return { orderId };
}

const isCode = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as { code?: unknown }).code === code;

const ok = (): HttpReply => ({
  status: 200,
  body: { status: 'ok', response: { type: 'default' } },
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function arrayOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) {
    throw new HlBodyError();
  }
  return value.map((entry) => {
    if (!isObject(entry)) {
      throw new HlBodyError();
    }
    return entry;
  });
}

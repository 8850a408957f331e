import type Big from 'big.js';
import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { OrderOp } from '../../control/faults';
import type { EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import { limitedRoutes, type RouteTable } from '../limited-routes';
import type { PublishedLimits } from '../published-limits';
import { AsterAgents } from './aster-agents';
import { AsterDeadMan } from './aster-dead-man';
import { incomeHistory } from './aster-income';
import { AsterBatchOrders } from './aster-batch-orders';
import { cancelOnEngine } from './aster-cancels';
import { AsterPlacement } from './aster-placement';
import { asterRequestExpiry } from './aster-request-expiry';
import { ASTER_READINGS } from './aster-readings';
import { AsterError, toAsterError, type AsterErrorContext } from './aster-errors';
import { AsterOrderReads } from './aster-order-reads';
import { parseNewOrder, parseOrderTarget } from './aster-orders';
import { NEW_ORDER, asterDoor, withOrderCount } from './aster-rate-limits';
import { NonceBook, rawParams, verifyAsterRequest, type AsterSignedRequest } from './aster-signing';
import { ASTER, AsterMarketData } from './aster-market-data';
import * as wire from './aster-wire';

export { ASTER } from './aster-market-data';
import type { ListenKeys } from './listen-keys';
import { RequestLog } from './request-log';

const BASE = `/dialects/${ASTER}`;

/** What a signed handler gets: the verified parameters and the account's request. */
interface SignedCall {
  params: Record<string, string>;
  signed: AsterSignedRequest;
  request: SignedRequest;
  accountId: string;
  /** The sender's address (an account pool counts a request without an account under it). */
  source: string;
}

type SignedHandler = (call: SignedCall) => Promise<HttpReply>;

export interface AsterRestDeps extends DialectDeps {
  listenKeys: ListenKeys;
  /** Closes the user data sockets of a listenKey that was deleted. */
  closeListenKey: (key: string) => void;
  /** Streams a GTX order the venue expired on entry (ORDER_TRADE_UPDATE NEW, then EXPIRED). */
  expired: (order: EngineOrder) => void;
}

/**
 * Aster's futures REST API (`/fapi/v3/...`, and the spot exchangeInfo ccxt
 * loads markets from) over the simulator's engine. Every request is weighed
 * at the door by the venue's per-IP limit (aster-rate-limits.ts); a signed
 * one is verified (aster-signing.ts), its wallet must be funded, a new order
 * counts against the account's order limit, and it then runs through the
 * shared order path (OrderEntry: faults, expiry, engine) like a paper request.
 */
export class AsterRest {
  readonly log = new RequestLog();
  private readonly nonces = new NonceBook();
  /** The time in force each order was sent with (the engine keeps post-only or IOC). */
  private readonly tifs = new Map<string, wire.AsterTif>();
  private readonly markets: AsterMarketData;
  private readonly reads: AsterOrderReads;
  private clientOrderSeq = 0;
  private readonly placement: AsterPlacement;
  private readonly profile: DialectProfile<typeof ASTER_READINGS>;
  private readonly agents: AsterAgents;
  private readonly deadMan: AsterDeadMan;
  private readonly batches: AsterBatchOrders;
  private readonly limits: PublishedLimits;

  constructor(private readonly deps: AsterRestDeps) {
    this.limits = deps.limits.of(ASTER);
    this.markets = new AsterMarketData(deps);
    this.reads = new AsterOrderReads(this.markets, (order) => this.tifOf(order));
    this.profile = deps.profiles.of(ASTER, ASTER_READINGS);
    this.agents = new AsterAgents(this.nonces, this.log);
    this.placement = new AsterPlacement(this.profile, deps.expired);
    this.deadMan = new AsterDeadMan(deps);
    this.batches = new AsterBatchOrders({
      orders: deps.orders,
      placement: this.placement,
      profile: this.profile,
      limits: this.limits,
      clientOrderId: () => this.nextClientOrderId(),
      rememberTif: (orderId, tif) => this.tifs.set(orderId, tif),
      tifOf: (order) => this.tifOf(order),
    });
  }

  tifOf(order: EngineOrder): wire.AsterTif {
    return this.tifs.get(order.orderId) ?? (order.type === 'ioc' ? 'IOC' : 'GTX');
  }

  addRoutes(router: Router): void {
    const api = limitedRoutes(router, asterDoor(this.limits, BASE));
    this.markets.addRoutes(api);
    this.addOrderRoutes(api);
    this.addAccountRoutes(api);
    this.addListenKeyRoutes(api);
    this.agents.addRoutes(api, BASE);
    this.addSimRoutes(router, api);
  }

  /** Orders: place, cancel, and the signed reads of orders and trades. */
  private addOrderRoutes(router: RouteTable): void {
    const fapi = this.fapiOn(router);
    fapi('POST', 'order', 'place', (call) => this.placeOrder(call));
    fapi('DELETE', 'order', 'cancel', (call) => this.cancelOrder(call));
    fapi('POST', 'batchOrders', 'place', (call) => this.batches.place(call));
    fapi('DELETE', 'batchOrders', 'cancel', (call) => this.batches.cancel(call));
    fapi('POST', 'countdownCancelAll', undefined, (call) =>
      this.deadMan.countdown(call.request, call.params),
    );
    fapi('GET', 'order', undefined, (call) =>
      this.query(call, (venue) => this.reads.find(venue, call, false)),
    );
    fapi('GET', 'openOrder', undefined, (call) =>
      this.query(call, (venue) => this.reads.find(venue, call, true)),
    );
    fapi('GET', 'openOrders', undefined, (call) =>
      this.query(call, (venue) => this.reads.open(venue, call)),
    );
    fapi('GET', 'userTrades', undefined, (call) =>
      this.query(call, (venue) => this.reads.trades(venue, call)),
    );
  }

  /** The account: positions, balances, income, leverage brackets, account info, builders. */
  private addAccountRoutes(router: RouteTable): void {
    const fapi = this.fapiOn(router);
    fapi('GET', 'positionRisk', undefined, (call) =>
      this.query(call, (venue) =>
        this.markets
          .marketsOf(new URLSearchParams(call.params))
          .map((m) => wire.positionRisk(venue, call.accountId, m)),
      ),
    );
    fapi('GET', 'balance', undefined, (call) =>
      this.query(call, (venue) =>
        wire.balances(venue, call.accountId, Date.now(), this.holdings(call.accountId)),
      ),
    );
    fapi('GET', 'income', undefined, (call) =>
      this.query(call, (venue) =>
        incomeHistory(venue, this.markets, call.accountId, call.params, Date.now()),
      ),
    );
    fapi('GET', 'leverageBracket', undefined, (call) =>
      this.query(call, () =>
        this.markets.eachMarket(new URLSearchParams(call.params), wire.leverageBracket),
      ),
    );
    for (const version of ['v3', 'v4']) {
      router.add('GET', `${BASE}/fapi/${version}/account`, (context) =>
        this.signed(context, undefined, (call) =>
          this.query(call, (venue) =>
            wire.accountInfo(venue, call.accountId, Date.now(), this.holdings(call.accountId)),
          ),
        ),
      );
    }
    // The builders the user approved: none (integrator fees are not modelled).
    fapi('GET', 'builder', undefined, (call) => this.query(call, () => []));
  }

  /** The user data stream's listenKey: open, keep alive, close. */
  private addListenKeyRoutes(router: RouteTable): void {
    const fapi = this.fapiOn(router);
    fapi('POST', 'listenKey', undefined, (call) =>
      this.query(call, () => ({
        listenKey: this.deps.listenKeys.open(call.accountId, Date.now()),
      })),
    );
    fapi('PUT', 'listenKey', undefined, (call) =>
      this.query(call, () => {
        if (!this.deps.listenKeys.keepAlive(call.accountId, Date.now())) {
          throw new AsterError('invalidListenKey');
        }
        return {};
      }),
    );
    fapi('DELETE', 'listenKey', undefined, (call) =>
      this.query(call, () => {
        const key = this.deps.listenKeys.close(call.accountId, Date.now());
        if (key) {
          this.deps.closeListenKey(key);
        }
        return {};
      }),
    );
  }

  /** The request log, and every other path under the API answered as unknown. */
  private addSimRoutes(router: Router, api: RouteTable): void {
    router.add('GET', `${BASE}/_sim/requests`, (context) => ({
      status: 200,
      body: { requests: this.log.requests(context.query.get('user') ?? undefined) },
    }));
    // Anything else under the API is answered as the venue answers an unknown
    // path (Binance-futures style -5000), and logged: a test can see what was tried.
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      api.add(method, `${BASE}/(fapi|api)/.*`, (context) => {
        this.log.record(method, this.pathOf(context), rawParams(context), Date.now());
        return {
          status: 404,
          body: { code: -5000, msg: `Path ${this.pathOf(context)}, Method ${method} is invalid` },
        };
      });
    }
  }

  /** Registers a signed `/fapi/v3/<path>` route; `op` names an order operation. */
  private fapiOn(router: RouteTable) {
    return (method: string, path: string, op: OrderOp | undefined, handler: SignedHandler) =>
      router.add(method, `${BASE}/fapi/v3/${path}`, (context) => this.signed(context, op, handler));
  }

  private async signed(
    context: RequestContext,
    op: OrderOp | undefined,
    handler: SignedHandler,
  ): Promise<HttpReply> {
    const raw = rawParams(context);
    this.log.record(context.method, this.pathOf(context), raw, Date.now());
    let errorContext: AsterErrorContext = { cancel: op === 'cancel' };
    try {
      const signed = await verifyAsterRequest(raw, Date.now(), this.nonces, (user, signer) =>
        this.mayActFor(user, signer),
      );
      const accountId = this.deps.funding.account(ASTER, signed.user);
      if (!accountId) {
        throw new AsterError('notAuthorized');
      }
      if (op === 'place') {
        errorContext = { tif: signed.params['timeInForce'] };
      }
      return await handler({
        params: signed.params,
        signed,
        accountId,
        source: context.sourceAddress,
        request: {
          venueId: ASTER,
          accountId,
          // An HTTP request's answer goes nowhere but its own connection.
          channel: { cut: context.cutConnection, mute: () => undefined },
          limits: 'published',
        },
      });
    } catch (error) {
      const refusal = toAsterError(error, errorContext);
      if (refusal instanceof AnswerLost) {
        throw refusal;
      }
      return refusal.reply();
    }
  }

  /** What the account's wallet holds besides its margin (listed in its balances). */
  private holdings(accountId: string): ReadonlyMap<string, Big> {
    return this.deps.funding.holdings(ASTER, accountId);
  }

  /** A signed read: admitted like any request (rate limit, latency, freeze), answered from the engine. */
  private query(call: SignedCall, answer: (venue: VenueEngine) => unknown): Promise<HttpReply> {
    return this.deps.orders.execute(call.request, undefined, (venue) => ({
      status: 200,
      body: answer(venue),
    }));
  }

  /** A new order: counted against the account's orders (A2), then to the engine; the answer carries the count. */
  private async placeOrder(call: SignedCall): Promise<HttpReply> {
    const order = parseNewOrder(call.params, () => this.nextClientOrderId());
    const answer = this.placement.answerOf(call.params);
    const fields = { type: order.kind, ...asterRequestExpiry(call.signed, this.profile) };
    this.limits.admit(NEW_ORDER, call.source, call.accountId);
    const reply = await this.deps.orders.execute(call.request, { op: 'place', fields }, (venue) => {
      const placed = this.placement.place(venue, call.accountId, order);
      this.tifs.set(placed.orderId, order.tif);
      return { status: 200, body: this.placement.answer(venue, placed, order.tif, answer) };
    });
    return withOrderCount(reply, this.limits, call.source, call.accountId);
  }

  /** A client order id for an order sent without one (New Order: "Automatically generated if not sent"). */
  private nextClientOrderId(): string {
    this.clientOrderSeq += 1;
    return `sim-${Date.now().toString(36)}-${this.clientOrderSeq}`;
  }

  private cancelOrder(call: SignedCall): Promise<HttpReply> {
    const { symbol, target } = parseOrderTarget(call.params);
    return this.deps.orders.execute(
      call.request,
      { op: 'cancel', fields: asterRequestExpiry(call.signed, this.profile) },
      (venue) => {
        const order = cancelOnEngine(venue, call.accountId, symbol, target);
        return { status: 200, body: wire.asterOrder(venue, order, this.tifOf(order)) };
      },
    );
  }

  /** Whether `signer` may sign for `user`: an API wallet it approved, or itself where the reading allows. */
  private mayActFor(user: string, signer: string): boolean {
    if (signer === user) {
      return this.profile.get('main_wallet_signs') === 'accepted';
    }
    return this.agents.mayTrade(user, signer, Date.now());
  }

  private pathOf(context: RequestContext): string {
    return context.pathWithQuery.split('?')[0].slice(BASE.length);
  }
}

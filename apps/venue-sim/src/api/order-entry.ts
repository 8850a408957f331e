import type { WireOrderRequest, WirePlaceOrder, WirePlaceResult } from '@sts/venues';
import type { AnswerLoss, FaultInjector, OrderOp } from '../control/faults';
import type { Simulator } from '../engine/simulator';
import type { PlaceCommand, PlaceOutcome } from '../engine/types';
import type { VenueEngine } from '../engine/venue-engine';
import { AnswerLost, HttpFailure, failureReply, type HttpReply } from './http-kit';
import type { RateLimiter } from './rate-limiter';
import { toHttpFailure, wireError } from './sim-errors';
import { orderFacts, parseOrderTarget, parsePlaceOrder, parseReplace } from './venue-requests';
import { wireFill, wireOrder } from './wire-format';
import { sleep } from '@sts/platform';

export interface OrderEntryDeps {
  world: () => Simulator;
  limiter: RateLimiter;
  faults: FaultInjector;
}

/** The connection a request came on, as far as injected faults need it. */
export interface RequestChannel {
  /** Cuts it like a network failure: this answer and any other in flight on it are lost. */
  cut(): void;
  /** Sends nothing more on it (the events the request is about to cause) until it is cut. */
  mute(): void;
}

/** An authenticated request: who sent it, to which venue, on which connection. */
export interface SignedRequest {
  venueId: string;
  accountId: string;
  channel: RequestChannel;
  /**
   * What counts it against the venue's limits: absent, the paper protocol's
   * per-second limit (RateLimiter), the first step here; `published`, its
   * dialect, which admitted it by the venue's published pools before handing
   * it on (dialects/published-limits.ts).
   */
  limits?: 'published';
}

/**
 * An account's signed requests after authentication, whichever way they came
 * (HTTP or the account's socket), in this order: the rate limit (the paper
 * protocol's; a dialect's request was admitted by its own); for order
 * requests, a lose-next rule claimed at arrival (`before` + `drop` cuts the
 * connection there); the venue's latency; delay-next (placements); a
 * lose-next hold (`before` + `hang`); a freeze; then, with no await in
 * between, the order's expiry, reject-next and the engine; last, a
 * lose-next `after` rule. Answers are the HTTP status and body; refusals are
 * thrown as HttpFailure, and AnswerLost when there is nobody to answer.
 */
export class OrderEntry {
  constructor(private readonly deps: OrderEntryDeps) {}

  /**
   * Runs one request through the venue's faults to the engine. `order`: the
   * operation and fields of an order request; absent for reads.
   */
  async execute(
    request: SignedRequest,
    order: { op: OrderOp; fields: Record<string, unknown> } | undefined,
    call: (venue: VenueEngine) => HttpReply,
  ): Promise<HttpReply> {
    const { venueId, accountId } = request;
    const { faults } = this.deps;
    if (request.limits !== 'published') {
      this.deps.limiter.admit(venueId, accountId, Date.now());
    }
    const facts = order && orderFacts(order.op, order.fields);
    const loss = facts && faults.claimLoss(venueId, { ...facts, accountId });
    if (loss?.at === 'before' && loss.then === 'drop') {
      this.cut(request, loss);
    }
    const heldAsOfMs = await this.waitBeforeEngine(venueId, facts?.op, loss);
    // Nothing awaits from here to the engine: requests a freeze held resume
    // in the order they arrived and reach the engine in that order (a
    // look-up sent after a placement sees the placement).
    const venue = this.venue(venueId);
    // A hold released early (`releaseHeld`) arrives as at the time the release named.
    const arrivedAtMs = Math.max(Date.now(), heldAsOfMs);
    if (facts?.expiresAtMs !== undefined && arrivedAtMs > facts.expiresAtMs) {
      throw new HttpFailure(
        400,
        'order_expired',
        `the request reached the venue after its expiry (${facts.expiresAtMs})`,
      );
    }
    if (facts && facts.op !== 'cancel') {
      const reason = faults.takeRejection(venueId);
      if (reason !== undefined) {
        throw new HttpFailure(400, 'rejected', 'order rejected by the venue', { reason });
      }
    }
    if (loss?.at !== 'after') {
      return this.run(venue, () => call(venue));
    }
    // The order and fill events go out to the account's other sockets as
    // usual; the cut connection sees none of them and no answer.
    if (loss.then === 'drop') {
      request.channel.mute();
    }
    let reply: HttpReply;
    try {
      reply = this.run(venue, () => call(venue));
    } catch (error) {
      reply = failureReply(error);
    }
    if (loss.then === 'drop') {
      this.cut(request, loss);
    }
    await sleep(loss.hangMs);
    return reply;
  }

  /**
   * What a request waits for on its way to the engine: the venue's latency,
   * a delay-next (orders other than cancels), a lose-next `before` hang, a
   * freeze until the thaw. Resolves with the time the hang ended as of (0
   * without one): a hang released early names a later time than the clock's.
   */
  private async waitBeforeEngine(
    venueId: string,
    op: OrderOp | undefined,
    loss: AnswerLoss | undefined,
  ): Promise<number> {
    const { faults } = this.deps;
    const latencyMs = faults.latencyOf(venueId);
    if (latencyMs > 0) {
      await sleep(latencyMs);
    }
    if (op !== undefined && op !== 'cancel') {
      const delayMs = faults.takeOrderDelay(venueId);
      if (delayMs > 0) {
        await sleep(delayMs);
      }
    }
    const heldAsOfMs = loss?.at === 'before' ? await faults.hold(venueId, loss.hangMs) : 0;
    const thawed = faults.gate(venueId);
    if (thawed) {
      await thawed;
    }
    return heldAsOfMs;
  }

  place(request: SignedRequest, body: Record<string, unknown>): Promise<HttpReply> {
    return this.execute(request, { op: 'place', fields: body }, (venue) => {
      const order = parsePlaceOrder(body);
      const outcome = venue.desk.place(request.accountId, placeCommand(order));
      return { status: outcome.duplicate ? 200 : 201, body: wirePlaceResult(venue, outcome) };
    });
  }

  /** `fields`: `order_id` or `client_order_id`, and `expires_at_ms`. */
  cancel(request: SignedRequest, fields: Record<string, unknown>): Promise<HttpReply> {
    return this.execute(request, { op: 'cancel', fields }, (venue) => ({
      status: 200,
      body: {
        order: wireOrder(venue, venue.desk.cancel(request.accountId, parseOrderTarget(fields))),
      },
    }));
  }

  replace(request: SignedRequest, body: Record<string, unknown>): Promise<HttpReply> {
    return this.execute(request, { op: 'replace', fields: body }, (venue) => {
      const command = parseReplace(body);
      const outcome = venue.desk.replace(
        request.accountId,
        command.target,
        placeCommand(command.next),
        command.expectedFilledSize,
      );
      const { placed } = outcome;
      return {
        status: 200,
        body: {
          canceled: {
            outcome: outcome.wasOpen ? 'canceled' : 'not_open',
            order: wireOrder(venue, outcome.canceled),
          },
          ...(placed ? { placed: wirePlaceResult(venue, placed) } : {}),
          ...(outcome.placeError ? { place_error: wireError(venue, outcome.placeError) } : {}),
        },
      };
    });
  }

  /** An order request that came on the account's socket. */
  socketRequest(request: SignedRequest, message: WireOrderRequest): Promise<HttpReply> {
    const params = objectOf(message.params);
    switch (message.op) {
      case 'place':
        return this.place(request, params);
      case 'cancel':
        return this.cancel(request, params);
      case 'replace':
        return this.replace(request, params);
    }
  }

  /** Runs an engine call, its refusals mapped to the wire's statuses. */
  private run(venue: VenueEngine, call: () => HttpReply): HttpReply {
    try {
      return call();
    } catch (error) {
      throw toHttpFailure(error, venue);
    }
  }

  /** Cuts the request's connection (blocking the wallet's reconnects if asked); nobody is answered. */
  private cut(request: SignedRequest, loss: AnswerLoss): never {
    if (loss.blockMs > 0) {
      this.deps.faults.blockWalletSockets(request.venueId, request.accountId, loss.blockMs);
    }
    request.channel.cut();
    throw new AnswerLost();
  }

  private venue(venueId: string): VenueEngine {
    const venue = this.deps.world().venues.get(venueId);
    if (!venue) {
      throw new HttpFailure(404, 'unknown_venue', `unknown venue ${venueId}`);
    }
    return venue;
  }
}

const wirePlaceResult = (venue: VenueEngine, outcome: PlaceOutcome): WirePlaceResult => ({
  order: wireOrder(venue, outcome.order),
  fills: outcome.fills.map((fill) => wireFill(venue, fill)),
  duplicate: outcome.duplicate,
});

const placeCommand = (order: WirePlaceOrder): PlaceCommand => ({
  symbol: order.symbol,
  side: order.side,
  type: order.type,
  price: order.price,
  size: order.size,
  clientOrderId: order.client_order_id,
  ...(order.reduce_only ? { reduceOnly: true } : {}),
});

const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

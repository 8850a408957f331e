import type { WireOrderRequest, WirePlaceOrder, WirePlaceResult } from '@sts/venues';
import type { FaultInjector } from '../control/faults';
import type { Simulator } from '../engine/simulator';
import type { PlaceCommand, PlaceOutcome } from '../engine/types';
import type { VenueEngine } from '../engine/venue-engine';
import { HttpFailure, type HttpReply } from './http-kit';
import type { RateLimiter } from './rate-limiter';
import { toHttpFailure, wireError } from './sim-errors';
import { parseOrderTarget, parsePlaceOrder, parseReplace } from './venue-requests';
import { wireFill, wireOrder } from './wire-format';

export interface OrderEntryDeps {
  world: () => Simulator;
  limiter: RateLimiter;
  faults: FaultInjector;
}

/**
 * An account's signed requests after authentication, whichever way they came
 * (HTTP or the account's socket): the rate limit, then injected faults, then
 * the engine. Answers are the HTTP status and body; refusals are thrown as
 * HttpFailure.
 */
export class OrderEntry {
  constructor(private readonly deps: OrderEntryDeps) {}

  /** Counts the request against the account's limit and applies the venue's faults. */
  async admit(venueId: string, accountId: string, isPlacement: boolean): Promise<VenueEngine> {
    this.deps.limiter.admit(venueId, accountId, Date.now());
    await this.deps.faults.beforeRequest(venueId);
    if (isPlacement) await this.deps.faults.beforeOrder(venueId);
    return this.venue(venueId);
  }

  /** Runs an engine call, its refusals mapped to the wire's statuses. */
  run(venue: VenueEngine, call: () => HttpReply): HttpReply {
    try {
      return call();
    } catch (error) {
      throw toHttpFailure(error, venue);
    }
  }

  async place(
    venueId: string,
    accountId: string,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const venue = await this.admit(venueId, accountId, true);
    return this.run(venue, () => {
      const order = parsePlaceOrder(body);
      const outcome = venue.desk.place(accountId, placeCommand(order));
      return { status: outcome.duplicate ? 200 : 201, body: wirePlaceResult(venue, outcome) };
    });
  }

  /** `fields`: `order_id` or `client_order_id`. */
  async cancel(
    venueId: string,
    accountId: string,
    fields: Record<string, unknown>,
  ): Promise<HttpReply> {
    const venue = await this.admit(venueId, accountId, false);
    return this.run(venue, () => ({
      status: 200,
      body: { order: wireOrder(venue, venue.desk.cancel(accountId, parseOrderTarget(fields))) },
    }));
  }

  async replace(
    venueId: string,
    accountId: string,
    body: Record<string, unknown>,
  ): Promise<HttpReply> {
    const venue = await this.admit(venueId, accountId, true);
    return this.run(venue, () => {
      const command = parseReplace(body);
      const outcome = venue.desk.replace(
        accountId,
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
  socketRequest(venueId: string, accountId: string, request: WireOrderRequest): Promise<HttpReply> {
    const params = objectOf(request.params);
    switch (request.op) {
      case 'place':
        return this.place(venueId, accountId, params);
      case 'cancel':
        return this.cancel(venueId, accountId, params);
      case 'replace':
        return this.replace(venueId, accountId, params);
    }
  }

  private venue(venueId: string): VenueEngine {
    const venue = this.deps.world().venues.get(venueId);
    if (!venue) throw new HttpFailure(404, 'unknown_venue', `unknown venue ${venueId}`);
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
});

const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

import type { Handler, HttpReply, RequestContext } from '../api/http-kit';
import { OverPublishedLimit, type LimitedRequest, type PublishedLimits } from './published-limits';

/** Where a dialect adds routes: the simulator's router, or limitedRoutes over it. */
export interface RouteTable {
  add(method: string, path: string, handler: Handler): unknown;
}

/**
 * A venue's door: its per-IP pools count every request that comes in, by the
 * address it came from (`RequestContext.sourceAddress`), before
 * the venue knows who sent it (so a request it refuses later, unauthenticated
 * or malformed, has used its IP weight, as a venue's gateway counts it).
 * Pools per account count later, where the dialect knows the account.
 */
export interface Door {
  limits: PublishedLimits;
  /** The request as the IP pools weigh it; undefined: none counts it. */
  requestOf(context: RequestContext): LimitedRequest | undefined;
  /** The venue's own answer to a request the pools refused. */
  overLimit(refusal: OverPublishedLimit): HttpReply;
  /** What the venue adds to every answer to `context` (Aster's used-weight header). */
  decorate?(reply: HttpReply, context: RequestContext): HttpReply;
}

/** `router`, with every request of the routes added through it let in by `door` first. */
export function limitedRoutes(router: RouteTable, door: Door): RouteTable {
  return {
    add: (method, path, handler) =>
      router.add(method, path, async (context) => {
        const refused = admit(door, context);
        const reply = refused ?? (await handler(context));
        return door.decorate ? door.decorate(reply, context) : reply;
      }),
  };
}

function admit(door: Door, context: RequestContext): HttpReply | undefined {
  const request = door.requestOf(context);
  if (!request) {
    return undefined;
  }
  try {
    door.limits.admit(request, context.sourceAddress);
    return undefined;
  } catch (error) {
    if (error instanceof OverPublishedLimit) {
      return door.overLimit(error);
    }
    throw error;
  }
}

import { HttpFailure, type RequestContext } from '../api/http-kit';
import { UnknownDialectLimits } from '../dialects/dialect-limits';
import type { LimitAdjustment, PublishedLimits } from '../dialects/published-limits';
import { ok, type ControlRoutes } from './control-kit';

/**
 * The dialects' published pools: `GET /control/dialects/:venue/rate-limits`
 * reads each pool (id, scope, window and capacity in force and published,
 * weights) with each key's counts (`max_window_weight`, `admitted_weight`,
 * `refused`, and `window_weight` now); `PUT` with `{scale?, window_ms?,
 * pools?: {<id>: {capacity?, window_ms?}}}` replaces the test's change to the
 * published numbers (`{}`: the venue's own again); `POST …/reset` clears the
 * counts.
 */
export function addDialectLimitRoutes(routes: ControlRoutes): void {
  const path = '/control/dialects/:venue/rate-limits';
  routes
    .add('GET', path, (context) => limitsCall(routes, context, (limits) => ok(limits.report())))
    .add('PUT', path, (context) =>
      limitsCall(routes, context, (limits) => {
        limits.adjust(adjustmentOf(routes.body(context)));
        return ok(limits.report());
      }),
    )
    .add('POST', `${path}/reset`, (context) =>
      limitsCall(routes, context, (limits) => {
        limits.clearCounts();
        return ok(limits.report());
      }),
    );
}

function limitsCall<T>(
  routes: ControlRoutes,
  context: RequestContext,
  call: (limits: PublishedLimits) => T,
): T {
  const venue = context.params['venue'];
  try {
    return call(routes.deps.limits.of(venue));
  } catch (error) {
    if (error instanceof UnknownDialectLimits) {
      throw new HttpFailure(404, 'unknown_dialect', error.message);
    }
    if (error instanceof RangeError) {
      throw new HttpFailure(400, 'invalid_request', `${venue}: ${error.message}`);
    }
    throw error;
  }
}

/** The wire's snake_case body as an adjustment (the numbers are checked by `adjust`). */
function adjustmentOf(body: Record<string, unknown>): LimitAdjustment {
  const { scale, window_ms: windowMs, pools } = body;
  if (
    pools !== undefined &&
    (typeof pools !== 'object' || pools === null || Array.isArray(pools))
  ) {
    throw new RangeError('pools must be an object of pool ids');
  }
  return {
    ...(scale !== undefined ? { scale: scale as number } : {}),
    ...(windowMs !== undefined ? { windowMs: windowMs as number } : {}),
    ...(pools
      ? {
          pools: Object.fromEntries(
            Object.entries(pools).map(([id, raw]) => {
              const { capacity, window_ms: poolWindow } = (raw ?? {}) as Record<string, unknown>;
              return [
                id,
                {
                  ...(capacity !== undefined ? { capacity: capacity as number } : {}),
                  ...(poolWindow !== undefined ? { windowMs: poolWindow as number } : {}),
                },
              ];
            }),
          ),
        }
      : {}),
  };
}

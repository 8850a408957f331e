import { nonNegativeInt, ok, type ControlRoutes } from './control-kit';

/** Simulated time: state, reset to a seed, manual steps, the tick interval. */
export function addTimeRoutes(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('GET', '/control/state', () =>
      ok({
        seed: deps.seed(),
        steps: deps.world().steps,
        tick_ms: deps.ticker.tickMs,
        venues: [...deps.world().venues.keys()].map((id) => ({
          id,
          rate_limit_per_s: deps.limiter.limitOf(id),
          ...deps.faults.state(id),
          ...deps.flows.describe(id),
        })),
      }),
    )
    .add('POST', '/control/reset', (context) => {
      const { seed } = routes.body(context);
      deps.reset(seed === undefined ? undefined : nonNegativeInt(seed, 'seed'));
      return ok({ seed: deps.seed() });
    })
    .add('POST', '/control/step', (context) => {
      deps.world().step(nonNegativeInt(routes.body(context)['count'] ?? 1, 'count'));
      return ok({ steps: deps.world().steps });
    })
    .add('POST', '/control/clock', (context) => {
      deps.ticker.set(nonNegativeInt(routes.body(context)['tick_ms'], 'tick_ms'));
      return ok({ tick_ms: deps.ticker.tickMs });
    });
}

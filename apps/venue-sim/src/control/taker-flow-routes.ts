import { HttpFailure, type RequestContext } from '../api/http-kit';
import { ok, type ControlRoutes } from './control-kit';
import { InvalidTakerFlowError } from './taker-flows';

/**
 * Who a venue's takers are: `GET /control/venues/:venue/flow` answers
 * `{informed_taker_share, informed_horizon_ms}`; `POST` with either sets it
 * (all or none: 400 on a bad value or an unknown setting, 404 for an unknown
 * venue).
 */
export function addTakerFlowRoutes(routes: ControlRoutes): void {
  const { flows } = routes.deps;
  const path = '/control/venues/:venue/flow';
  routes
    .add('GET', path, (context) => ok(flows.describe(routes.venueId(context))))
    .add('POST', path, (context) =>
      flowCall(context, () => ok(flows.set(routes.venueId(context), routes.body(context)))),
    );
}

function flowCall<T>(context: RequestContext, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof InvalidTakerFlowError) {
      throw new HttpFailure(400, 'invalid_request', `${context.params['venue']}: ${error.message}`);
    }
    throw error;
  }
}

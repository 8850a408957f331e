import { HttpFailure, type RequestContext } from '../api/http-kit';
import { InvalidTimingError, UnknownDialectTimings } from '../dialects/dialect-timings';
import { ok, type ControlRoutes } from './control-kit';

/**
 * The times the dialects' readings play with: `GET
 * /control/dialects/:venue/timing` answers `{queue_hold_ms, history_lag_ms}`
 * (null for a time no reading of the venue uses); `POST` with either sets it
 * (a whole number of ms from 0 to 60,000; all or none: 400 on a bad value or
 * a time the venue does not have, 404 for a venue without timed readings).
 */
export function addDialectTimingRoutes(routes: ControlRoutes): void {
  const { timings } = routes.deps;
  const path = '/control/dialects/:venue/timing';
  routes
    .add('GET', path, (context) =>
      timingCall(context, () => ok(timings.describe(context.params['venue']))),
    )
    .add('POST', path, (context) =>
      timingCall(context, () => ok(timings.set(context.params['venue'], routes.body(context)))),
    );
}

function timingCall<T>(context: RequestContext, call: () => T): T {
  const venue = context.params['venue'];
  try {
    return call();
  } catch (error) {
    if (error instanceof UnknownDialectTimings) {
      throw new HttpFailure(404, 'unknown_dialect', error.message);
    }
    if (error instanceof InvalidTimingError) {
      throw new HttpFailure(400, 'invalid_request', `${venue}: ${error.message}`);
    }
    throw error;
  }
}

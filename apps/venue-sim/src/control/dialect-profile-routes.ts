import { HttpFailure, type RequestContext } from '../api/http-kit';
import { InvalidProfileError } from '../dialects/dialect-profiles';
import { ok, type ControlRoutes } from './control-kit';

/**
 * The dialects' profiles: `GET /control/dialects/:venue/profile` names every
 * reading with its value, values, default and documented answer; `PUT` with
 * `{reading: value, …}` switches some at once (all or none: 400 on an
 * unknown reading or value, 404 for a venue without a dialect).
 */
export function addDialectProfileRoutes(routes: ControlRoutes): void {
  const { profiles } = routes.deps;
  routes
    .add('GET', '/control/dialects/:venue/profile', (context) =>
      profileCall(context, () =>
        ok({
          venue: context.params['venue'],
          readings: profiles.describe(context.params['venue']),
        }),
      ),
    )
    .add('PUT', '/control/dialects/:venue/profile', (context) =>
      profileCall(context, () => {
        const venue = context.params['venue'];
        profiles.set(venue, routes.body(context));
        return ok({ venue, readings: profiles.describe(venue) });
      }),
    );
}

function profileCall<T>(context: RequestContext, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof InvalidProfileError) {
      const unknownVenue = error.message.startsWith('no dialect');
      throw new HttpFailure(
        unknownVenue ? 404 : 400,
        unknownVenue ? 'unknown_dialect' : 'invalid_request',
        `${context.params['venue']}: ${error.message}`,
      );
    }
    throw error;
  }
}

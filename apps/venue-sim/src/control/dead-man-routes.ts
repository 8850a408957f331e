import { nonNegativeInt, ok, type ControlRoutes } from './control-kit';
import { deadManSwitchesOf } from './dead-man-switches';

/**
 * The venues' dead-man switches (dead-man-switches.ts): an account's switch
 * as the venue holds it, and time passing for the switches alone (a test's
 * way to reach a switch's time without waiting for it).
 */
export function addDeadManRoutes(routes: ControlRoutes): void {
  const { deps } = routes;
  const board = () => deadManSwitchesOf(deps);
  routes
    .add('GET', '/control/venues/:venue/accounts/:wallet/dead-man', (context) =>
      ok(board().state(routes.venueId(context), context.params['wallet'])),
    )
    .add('POST', '/control/dead-man/elapse', (context) => {
      const ms = nonNegativeInt(routes.body(context)['ms'], 'ms');
      return ok({ fired: board().elapse(ms) });
    });
}

import { ok, type ControlRoutes } from './control-kit';

/**
 * `GET /control/dialects/:venue/socket-sources`: the addresses the venue's
 * dialect WebSocket connections came from, `{venue, sources: [{key:
 * "ip:127.0.0.2", opened}]}`; a reset clears them. What a spec reads to see
 * that a client's sockets leave from its egress address.
 */
export function addSocketSourceRoutes(routes: ControlRoutes): void {
  routes.add('GET', '/control/dialects/:venue/socket-sources', (context) => {
    const venue = routes.venueId(context);
    return ok({ venue, sources: routes.deps.socketSources.of(venue) });
  });
}

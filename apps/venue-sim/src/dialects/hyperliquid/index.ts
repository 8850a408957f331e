import type { RequestContext, Router } from '../../api/http-kit';
import type { RequestChannel } from '../../api/order-entry';
import { dialectOf, type Dialect, type DialectDeps } from '../dialect';
import { HlBodyError } from './hl-errors';
import { HYPERLIQUID, HlExchange } from './hl-exchange';
import { HlInfo } from './hl-info';
import { HYPERLIQUID_READINGS } from './hl-readings';
import { HlState, type LoggedAction } from './hl-state';
import { HlStreams } from './hl-streams';

export type { LoggedAction } from './hl-state';

const BASE = `/dialects/${HYPERLIQUID}`;

/** The Hyperliquid dialect with its action log (every `/exchange` request, as received). */
export interface HyperliquidDialect extends Dialect {
  actions(user?: string): LoggedAction[];
}

/**
 * Hyperliquid's own API (`POST /info`, `POST /exchange` and the WebSocket at
 * `/ws`, as the venue documents them and ccxt 4.5.84 speaks them) under
 * `/dialects/hyperliquid`, over the simulator's engine.
 */
export function createHyperliquidDialect(deps: DialectDeps): HyperliquidDialect {
  const state = new HlState(deps.profiles.of(HYPERLIQUID, HYPERLIQUID_READINGS));
  const exchange = new HlExchange({ ...deps, state });
  const info = new HlInfo({ ...deps, state });
  const streams = new HlStreams({ ...deps, state, exchange, info });
  const body = (context: RequestContext): unknown => {
    try {
      return JSON.parse(context.rawBody) as unknown;
    } catch {
      return undefined;
    }
  };
  const channelOf = (context: RequestContext): RequestChannel => ({
    cut: context.cutConnection,
    mute: () => undefined,
  });
  const addRoutes = (router: Router): void => {
    router.add('POST', `${BASE}/info`, (context) => info.handle(body(context), channelOf(context)));
    router.add('POST', `${BASE}/exchange`, (context) => {
      const parsed = body(context);
      if (parsed === undefined) {
        return new HlBodyError().reply();
      }
      return exchange.handle(parsed, channelOf(context));
    });
    router.add('GET', `${BASE}/_sim/actions`, (context) => ({
      status: 200,
      body: { actions: state.loggedActions(context.query.get('user') ?? undefined) },
    }));
  };
  return {
    ...dialectOf(HYPERLIQUID, addRoutes, streams),
    actions: (user) => state.loggedActions(user),
  };
}

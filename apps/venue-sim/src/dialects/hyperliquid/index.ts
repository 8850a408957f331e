import type { HttpReply, RequestContext, Router } from '../../api/http-kit';
import type { RequestChannel } from '../../api/order-entry';
import { dialectOf, type Dialect, type DialectDeps } from '../dialect';
import { limitedRoutes, type Door } from '../limited-routes';
import { HlBodyError } from './hl-errors';
import { HYPERLIQUID, HlExchange } from './hl-exchange';
import { HlInfo } from './hl-info';
import { hlExchangeRequest, hlInfoRequest } from './hl-rate-limits';
import { HYPERLIQUID_READINGS } from './hl-readings';
import { HL_ABSTRACTIONS, HlState, type HlAbstraction, type LoggedAction } from './hl-state';
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
 * `/dialects/hyperliquid`, over the simulator's engine. Every REST request is
 * first admitted by the venue's per-IP weight limit (hl-rate-limits.ts).
 */
export function createHyperliquidDialect(deps: DialectDeps): HyperliquidDialect {
  const state = new HlState(deps.profiles.of(HYPERLIQUID, HYPERLIQUID_READINGS));
  const exchange = new HlExchange({ ...deps, state });
  const info = new HlInfo({ ...deps, state, addressBudget: exchange.addressBudget });
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
  const door: Door = {
    limits: deps.limits.of(HYPERLIQUID),
    requestOf: (context) =>
      context.pathWithQuery.startsWith(`${BASE}/info`)
        ? hlInfoRequest(body(context))
        : hlExchangeRequest(body(context)),
    // The status of the SDKs' reports; no documented body or Retry-After
    // (docs/venues/rate-limits.md §1, "How the venue answers over the limit").
    overLimit: () => ({ status: 429, body: null }),
  };
  const addRoutes = (router: Router): void => {
    const api = limitedRoutes(router, door);
    api.add('POST', `${BASE}/info`, (context) => info.handle(body(context), channelOf(context)));
    api.add('POST', `${BASE}/exchange`, (context) => {
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
    router.add('POST', `${BASE}/_sim/volume`, (context) => creditVolume(exchange, body(context)));
    router.add('POST', `${BASE}/_sim/address-budget`, (context) =>
      setAddressBudget(exchange, body(context)),
    );
    router.add('POST', `${BASE}/_sim/abstraction`, (context) =>
      setAbstraction(state, body(context)),
    );
  };
  const dialect = dialectOf(HYPERLIQUID, addRoutes, streams);
  return {
    ...dialect,
    close: () => {
      exchange.scheduleCancel.switches.close();
      dialect.close();
    },
    actions: (user) => state.loggedActions(user),
  };
}

/**
 * `POST /dialects/hyperliquid/_sim/volume {user, volume}`: the volume (USDC,
 * a decimal string) the address traded before the simulator, which
 * `scheduleCancel`'s volume rule counts with its fills here.
 */
function creditVolume(exchange: HlExchange, raw: unknown): HttpReply {
  const { user, volume } = (raw ?? {}) as { user?: unknown; volume?: unknown };
  if (typeof user !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(user)) {
    return { status: 400, body: { error: 'user must be an address' } };
  }
  if (typeof volume !== 'string' || !/^\d{1,15}(\.\d{1,8})?$/.test(volume)) {
    return { status: 400, body: { error: 'volume must be a decimal string' } };
  }
  exchange.scheduleCancel.credit(user, volume);
  return { status: 200, body: { user: user.toLowerCase(), volume } };
}

/**
 * `POST /dialects/hyperliquid/_sim/abstraction {user, abstraction}`: the
 * user's abstraction (`default` or `unifiedAccount`), as its owner sets it
 * on the venue; `userAbstraction` answers it and `spotClearinghouseState`
 * margins from the spot USDC under `unifiedAccount`.
 */
function setAbstraction(state: HlState, raw: unknown): HttpReply {
  const { user, abstraction } = (raw ?? {}) as { user?: unknown; abstraction?: unknown };
  if (typeof user !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(user)) {
    return { status: 400, body: { error: 'user must be an address' } };
  }
  if (!HL_ABSTRACTIONS.includes(abstraction as HlAbstraction)) {
    return {
      status: 400,
      body: { error: `abstraction must be one of ${HL_ABSTRACTIONS.join(', ')}` },
    };
  }
  state.setAbstraction(user, abstraction as HlAbstraction);
  return { status: 200, body: { user: user.toLowerCase(), abstraction } };
}

/**
 * `POST /dialects/hyperliquid/_sim/address-budget {initial_requests}`: the
 * requests every address starts with (H5; the venue's 10,000 by default),
 * so a test can reach the limit in a few actions.
 */
function setAddressBudget(exchange: HlExchange, raw: unknown): HttpReply {
  const initial = (raw ?? {}) as { initial_requests?: unknown };
  const requests = initial.initial_requests;
  if (typeof requests !== 'number' || !Number.isInteger(requests) || requests < 0) {
    return { status: 400, body: { error: 'initial_requests must be a whole number' } };
  }
  exchange.addressBudget.setInitial(requests);
  return { status: 200, body: { initial_requests: requests } };
}

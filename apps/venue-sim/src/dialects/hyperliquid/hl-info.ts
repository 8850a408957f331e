import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import type { RequestChannel } from '../../api/order-entry';
import type { EngineFill, EngineOrder } from '../../engine/types';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import { heldAssetPrice } from '../held-assets';
import { engineOrderId } from '../engine-ids';
import { HlBodyError } from './hl-errors';
import { userFundingRead } from './hl-funding';
import type { HlAddressBudget } from './hl-address-budget';
import type { HlState } from './hl-state';
import * as wire from './hl-wire';

const HYPERLIQUID = 'hyperliquid';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CLOID = /^0x[0-9a-fA-F]{32}$/;
/** The most fills one `userFills` / `userFillsByTime` answer holds (the venue's page). */
const FILLS_PAGE = 2_000;

export interface HlInfoDeps extends DialectDeps {
  state: HlState;
  /** The address budget (H5) that `userRateLimit` reports. */
  addressBudget?: Pick<HlAddressBudget, 'status'>;
}

/**
 * Hyperliquid's `/info` reads (and a socket's `post` of type `info`).
 * Public reads (markets, books) are answered at once; a read about a user
 * goes the way of that user's requests (latency, freeze). The per-IP weight
 * limit admitted the request before (index.ts). A user the venue has never
 * seen reads as an empty account, as on the venue.
 *
 * Types: `meta`, `metaAndAssetCtxs`, `spotMeta`, `spotMetaAndAssetCtxs`
 * (no spot pairs), `perpDexs` (the main dex only), `allMids`, `l2Book`,
 * `exchangeStatus`, `openOrders`, `frontendOpenOrders`, `orderStatus` (by oid
 * or cloid), `userFills`, `userFillsByTime`, `userFunding` (hl-funding.ts), `clearinghouseState`,
 * `spotClearinghouseState`, `userAbstraction`, `userRole`, `userFees`,
 * `userRateLimit` (the address budget, hl-address-budget.ts). Any other type
 * is the venue's 422.
 */
export class HlInfo {
  constructor(private readonly deps: HlInfoDeps) {}

  async handle(raw: unknown, channel: RequestChannel): Promise<HttpReply> {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      return new HlBodyError().reply();
    }
    const request = raw as Record<string, unknown>;
    try {
      const pub = this.publicRead(request);
      if (pub !== undefined) {
        return { status: 200, body: pub };
      }
      const user = request['user'];
      if (typeof user !== 'string' || !ADDRESS.test(user)) {
        throw new HlBodyError();
      }
      const accountId = user.toLowerCase();
      const read = this.userRead(request, accountId);
      if (!read) {
        throw new HlBodyError();
      }
      return await this.deps.orders.execute(
        { venueId: HYPERLIQUID, accountId, channel, limits: 'published' },
        undefined,
        (venue) => ({ status: 200, body: read(venue, this.funded(accountId)) }),
      );
    } catch (error) {
      if (error instanceof HlBodyError) {
        return error.reply();
      }
      throw error;
    }
  }

  /** A read about no user, or undefined when the type is not one. */
  private publicRead(request: Record<string, unknown>): unknown {
    const venue = this.venue();
    const now = Date.now();
    switch (request['type']) {
      case 'meta':
        this.mainDex(request);
        return wire.meta(venue);
      case 'metaAndAssetCtxs':
        this.mainDex(request);
        return [
          wire.meta(venue),
          wire.universe(venue).map((m) => wire.assetCtx(m, this.basis(m.spec.symbol))),
        ];
      case 'spotMeta':
        return wire.spotMeta();
      case 'spotMetaAndAssetCtxs':
        return [wire.spotMeta(), []];
      case 'perpDexs':
        // Index 0 is the main dex (null); the simulated venue has no builder-deployed dexes.
        return [null];
      case 'allMids':
        return Object.fromEntries(
          wire.universe(venue).map((m) => [m.spec.symbol, wire.assetCtx(m, 0).midPx]),
        );
      case 'l2Book': {
        const market =
          typeof request['coin'] === 'string' ? venue.markets.get(request['coin']) : undefined;
        // The venue answers null for a coin it does not list.
        return market ? wire.l2Book(market, now) : null;
      }
      case 'exchangeStatus':
        return { time: now, specialStatuses: null };
      default:
        return undefined;
    }
  }

  /** A read about one user, or undefined when the type is none the venue knows. */
  private userRead(
    request: Record<string, unknown>,
    accountId: string,
  ): ((venue: VenueEngine, funded: boolean) => unknown) | undefined {
    const { state } = this.deps;
    switch (request['type']) {
      case 'openOrders':
        return (venue, funded) => this.openOrders(venue, accountId, funded);
      case 'frontendOpenOrders':
        return (venue, funded) =>
          this.open(venue, accountId, funded).map((order) =>
            wire.frontendOrder(venue, order, state.tifOf(order)),
          );
      case 'orderStatus':
        return (venue, funded) => this.orderStatus(venue, accountId, funded, request['oid']);
      case 'userFills':
        return (venue, funded) =>
          this.fills(venue, accountId, funded, 0, Date.now()).slice(-FILLS_PAGE).reverse();
      case 'userFillsByTime': {
        const start = request['startTime'];
        const end = request['endTime'] ?? Date.now();
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
          return undefined;
        }
        return (venue, funded) =>
          this.fills(venue, accountId, funded, start as number, end as number).slice(0, FILLS_PAGE);
      }
      case 'userFunding':
        return userFundingRead(request, accountId);
      case 'clearinghouseState':
        this.mainDex(request);
        return (venue, funded) =>
          wire.clearinghouseState(venue, funded ? accountId : undefined, Date.now());
      case 'spotClearinghouseState':
        return (venue, funded) =>
          wire.spotClearinghouseState(venue, funded ? accountId : undefined, {
            unified: state.abstractionOf(accountId) === 'unifiedAccount',
            holdings: funded ? this.deps.funding.holdings(HYPERLIQUID, accountId) : new Map(),
            priceOf: (token) => heldAssetPrice(this.deps.world(), token),
          });
      case 'userAbstraction':
        return () => state.abstractionOf(accountId);
      case 'userRole':
        return (_venue, funded) => {
          if (funded) {
            return { role: 'user' };
          }
          const owner = state.userOfAgent(accountId);
          return owner ? { role: 'agent', data: { user: owner } } : { role: 'missing' };
        };
      case 'userFees':
        return (venue) => userFees(venue);
      case 'userRateLimit': {
        const budget = this.deps.addressBudget;
        return budget ? () => budget.status(accountId) : undefined;
      }
      default:
        return undefined;
    }
  }

  /** `openOrders`: the resting orders in the venue's short form. */
  private openOrders(venue: VenueEngine, accountId: string, funded: boolean): unknown[] {
    return this.open(venue, accountId, funded).map((order) => {
      const full = wire.frontendOrder(venue, order, this.deps.state.tifOf(order));
      return {
        coin: full.coin,
        side: full.side,
        limitPx: full.limitPx,
        sz: full.sz,
        oid: full.oid,
        timestamp: full.timestamp,
        origSz: full.origSz,
        ...(full.cloid ? { cloid: full.cloid } : {}),
      };
    });
  }

  /** `orderStatus`: by oid (a number) or cloid (0x + 32 hex); `{status: 'unknownOid'}` when none. */
  private orderStatus(
    venue: VenueEngine,
    accountId: string,
    funded: boolean,
    oid: unknown,
  ): unknown {
    const unknown = { status: 'unknownOid' };
    if (!funded) {
      return unknown;
    }
    let order: EngineOrder | undefined;
    if (typeof oid === 'string' && CLOID.test(oid)) {
      const cloid = oid.toLowerCase();
      order = this.deps.state.orderByCloid(venue.registry, accountId, cloid);
      const rejected = order ? undefined : this.deps.state.rejected(accountId, cloid);
      if (rejected) {
        return {
          status: 'order',
          order: {
            order: wire.frontendOrderOf({
              coin: rejected.coin,
              side: rejected.side,
              limitPx: rejected.limitPx,
              sz: rejected.sz,
              oid: 0,
              timestamp: rejected.timestamp,
              origSz: rejected.sz,
              tif: rejected.tif,
              cloid: rejected.cloid,
              ...(rejected.reduceOnly ? { reduceOnly: true } : {}),
            }),
            status: rejected.status,
            statusTimestamp: rejected.timestamp,
          },
        };
      }
    } else if (Number.isSafeInteger(oid)) {
      const engineId = engineOrderId(oid as number);
      order = engineId ? venue.registry.get(accountId, engineId) : undefined;
    } else {
      throw new HlBodyError();
    }
    if (!order) {
      return unknown;
    }
    const tif = this.deps.state.tifOf(order);
    return {
      status: 'order',
      order: {
        order: wire.frontendOrder(venue, order, tif),
        status: wire.hlStatus(order, tif),
        statusTimestamp: order.updatedAtMs,
      },
    };
  }

  private open(venue: VenueEngine, accountId: string, funded: boolean): EngineOrder[] {
    if (!funded) {
      return [];
    }
    return venue.registry.open(accountId).sort((a, b) => a.createdAtMs - b.createdAtMs);
  }

  /** The user's fills in [start, end], oldest first. */
  private fills(
    venue: VenueEngine,
    accountId: string,
    funded: boolean,
    start: number,
    end: number,
  ) {
    if (!funded) {
      return [];
    }
    return venue.registry
      .fillsSince(accountId, start)
      .filter((fill) => fill.tsMs <= end)
      .map((fill) => this.userFill(venue, fill));
  }

  private userFill(venue: VenueEngine, fill: EngineFill) {
    const startPosition = this.deps.state.startPositions.get(fill.fillId) ?? new Big(0);
    return wire.userFill(venue, fill, { startPosition, cloid: this.deps.state.fillsCarryCloid() });
  }

  private funded(accountId: string): boolean {
    return this.deps.funding.account(HYPERLIQUID, accountId) !== undefined;
  }

  /** The simulated venue has only the main perp dex: a named builder dex is not there. */
  private mainDex(request: Record<string, unknown>): void {
    const dex = request['dex'];
    if (dex !== undefined && dex !== '' && dex !== null) {
      throw new HlBodyError();
    }
  }

  private basis(symbol: string): number {
    return this.deps.world().prices.basisBps(HYPERLIQUID, symbol);
  }

  private venue(): VenueEngine {
    return this.deps.world().venue(HYPERLIQUID);
  }
}

/** A fee in basis points as the venue's rate (1.5 bps → `0.00015`). */
const plainRate = (bps: number): string => new Big(bps).div(10_000).toFixed();

/** `userFees`: the venue's taker (cross) and maker (add) rates. */
function userFees(venue: VenueEngine): unknown {
  return {
    userCrossRate: plainRate(venue.profile.takerFeeBps),
    userAddRate: plainRate(venue.profile.makerFeeBps),
    activeReferralDiscount: '0.0',
    feeSchedule: {
      cross: plainRate(venue.profile.takerFeeBps),
      add: plainRate(venue.profile.makerFeeBps),
    },
  };
}

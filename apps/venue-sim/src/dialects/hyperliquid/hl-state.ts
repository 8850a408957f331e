import type Big from 'big.js';
import type { EngineOrder } from '../../engine/types';
import type { OrderRegistry } from '../../engine/order-registry';
import type { DialectProfile } from '../dialect-profiles';
import type { HYPERLIQUID_READINGS } from './hl-readings';
import { CLOID_GENERATION, type HlTif } from './hl-wire';

/** One `/exchange` request as it reached the venue, signature left out. */
export interface LoggedAction {
  atMs: number;
  /** The account it acted for (lower-case), or the recovered signer when it named none. */
  user: string;
  /** The address that signed it (the user, or one of its API wallets). */
  signer: string;
  action: Record<string, unknown>;
  nonce: number;
  vaultAddress?: string | null;
  expiresAfter?: number | null;
  /** The venue's answer body. */
  answer?: unknown;
}

/** Actions kept per user; the oldest go first past this. */
const MAX_ACTIONS_PER_USER = 5_000;
/** Rejections kept for `orderStatus` look-ups; the oldest go first past this. */
const MAX_REJECTIONS = 10_000;

/** An order the venue refused but still answers `orderStatus` for by its cloid. */
export interface RejectedOrder {
  coin: string;
  side: 'B' | 'A';
  limitPx: string;
  sz: string;
  tif: HlTif;
  cloid: string;
  status: string;
  timestamp: number;
  reduceOnly?: boolean;
}

/**
 * What the simulated Hyperliquid knows beyond the engine: the API wallets
 * (agents) each user approved, builder fee approvals, the time in force each
 * order was sent with, the position each fill started from, refused orders
 * by cloid, and the log of every action.
 */
/**
 * A user's abstraction as `userAbstraction` answers it (docs
 * `info-endpoint`, "Query a user's abstraction state"; ccxt 4.5.84
 * `isUnifiedEnabled` lists `unifiedAccount`, `portfolioMargin`, `disabled`,
 * `default`, `dexAbstraction`). The two the dialect plays: `default` (perps
 * margined from the perp account's USDC) and `unifiedAccount` (from the spot
 * USDC, listed beside the user's other tokens).
 */
export const HL_ABSTRACTIONS = ['default', 'unifiedAccount'] as const;
export type HlAbstraction = (typeof HL_ABSTRACTIONS)[number];

export class HlState {
  /** API wallet → the user it trades for. */
  private readonly agents = new Map<string, string>();
  /** user → builder → max fee rate approved (a percent string, `0.01%`). */
  readonly builders = new Map<string, Map<string, string>>();
  private readonly tifs = new Map<string, HlTif>();
  readonly startPositions = new Map<string, Big>();
  private readonly rejections = new Map<string, RejectedOrder>();
  /** user + cloid → the engine client id of the newest order sent with it (see `cloidOrder`). */
  private readonly reusedCloids = new Map<string, string>();
  private readonly actions = new Map<string, LoggedAction[]>();
  /** user → its abstraction, where not `default` (`POST /dialects/hyperliquid/_sim/abstraction`). */
  private readonly abstractions = new Map<string, HlAbstraction>();

  /** `profile`: the readings the dialect plays now (hl-readings.ts), switched while it runs. */
  constructor(readonly profile: DialectProfile<typeof HYPERLIQUID_READINGS>) {}

  /** Whether fills name their order's cloid (reading `fill_cloid`). */
  fillsCarryCloid(): boolean {
    return this.profile.get('fill_cloid') === 'carried';
  }

  /** What `userAbstraction` answers for the user: `default` unless a test set another. */
  abstractionOf(user: string): HlAbstraction {
    return this.abstractions.get(user.toLowerCase()) ?? 'default';
  }

  setAbstraction(user: string, abstraction: HlAbstraction): void {
    this.abstractions.set(user.toLowerCase(), abstraction);
  }

  approveAgent(user: string, agent: string): void {
    this.agents.set(agent.toLowerCase(), user.toLowerCase());
  }

  userOfAgent(agent: string): string | undefined {
    return this.agents.get(agent.toLowerCase());
  }

  approveBuilder(user: string, builder: string, maxFeeRate: string): void {
    const approved = this.builders.get(user) ?? new Map<string, string>();
    approved.set(builder.toLowerCase(), maxFeeRate);
    this.builders.set(user, approved);
  }

  setTif(orderId: string, tif: HlTif): void {
    this.tifs.set(orderId, tif);
  }

  tifOf(order: EngineOrder): HlTif {
    return this.tifs.get(order.orderId) ?? (order.type === 'ioc' ? 'Ioc' : 'Alo');
  }

  reject(accountId: string, order: RejectedOrder): void {
    this.rejections.set(`${accountId}\u0000${order.cloid}`, order);
    if (this.rejections.size > MAX_REJECTIONS) {
      this.rejections.delete(this.rejections.keys().next().value as string);
    }
  }

  rejected(accountId: string, cloid: string): RejectedOrder | undefined {
    return this.rejections.get(`${accountId}\u0000${cloid}`);
  }

  /**
   * The engine's client id of the newest order a cloid names. The engine
   * keeps one order per client id; a cloid the venue lets be used again
   * (reading `duplicate_cloid=refuse_while_open`) names each later order as
   * `<cloid>~<n>`, and reads by cloid find the newest.
   */
  cloidOrder(accountId: string, cloid: string): string {
    return this.reusedCloids.get(`${accountId}\u0000${cloid}`) ?? cloid;
  }

  /** The newest engine order a cloid names, if any. */
  orderByCloid(registry: OrderRegistry, accountId: string, cloid: string): EngineOrder | undefined {
    return registry.byClientOrderId(accountId, this.cloidOrder(accountId, cloid));
  }

  /** A cloid used again: the engine client id its new order gets (`<cloid>~<n>`). */
  reuseCloid(accountId: string, cloid: string): string {
    const current = this.cloidOrder(accountId, cloid);
    const generation = Number(current.split(CLOID_GENERATION)[1] ?? '1') + 1;
    const next = `${cloid}${CLOID_GENERATION}${generation}`;
    this.reusedCloids.set(`${accountId}\u0000${cloid}`, next);
    return next;
  }

  log(entry: LoggedAction): void {
    const list = this.actions.get(entry.user) ?? [];
    list.push(entry);
    if (list.length > MAX_ACTIONS_PER_USER) {
      list.shift();
    }
    this.actions.set(entry.user, list);
  }

  /** The user's actions, oldest first (every user's when `user` is undefined). */
  loggedActions(user?: string): LoggedAction[] {
    if (user !== undefined) {
      return [...(this.actions.get(user.toLowerCase()) ?? [])];
    }
    return [...this.actions.values()].flat().sort((a, b) => a.atMs - b.atMs);
  }
}

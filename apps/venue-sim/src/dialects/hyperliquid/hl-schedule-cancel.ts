import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import { deadManSwitchesOf, type DeadManSwitches } from '../../control/dead-man-switches';
import { ok } from './hl-approvals';
import { HlActionError, HlBodyError, hlText } from './hl-errors';
import type { ActionCall } from './hl-exchange-request';
import type { HlExchangeDeps } from './hl-order-actions';
import { HYPERLIQUID } from './hl-wire';

/**
 * The rules of `scheduleCancel`, Hyperliquid's dead-man switch (exchange
 * endpoint, "Schedule cancel (dead man's switch)"): the time at least 5 s
 * ahead, 10 triggers a day reset at 00:00 UTC, and (the venue's answer ccxt
 * 4.5.84 quotes in hyperliquid.js `cancelAllOrdersAfter`) only once the
 * address traded $1,000,000.
 */
export const SCHEDULE_CANCEL = {
  minLeadMs: 5_000,
  triggersPerDay: 10,
  requiredVolume: 1_000_000,
} as const;

/** The refusals' words: the volume rule's are the venue's, the two others assumed. */
export const scheduleCancelText = {
  volume: (traded: string) =>
    `Cannot set scheduled cancel time until enough volume traded. Required: $${SCHEDULE_CANCEL.requiredVolume}. Traded: $${traded}.`,
  tooSoon: (time: number, now: number) =>
    `Scheduled cancel time ${time} must be at least 5 seconds after ${now}.`,
  spent: `Too many scheduled cancel triggers today. Max: ${SCHEDULE_CANCEL.triggersPerDay}.`,
} as const;

const DAY_MS = 86_400_000;

/**
 * `scheduleCancel {time?}`: arms the address's switch for `time` (or moves
 * it), or takes it off when `time` is left out. Every arming and clearing is
 * refused below the volume (live, the venue refuses a clearing too: the
 * @nktkas/hyperliquid SDK's tests expect the volume text for both). When the
 * time comes the switch cancels every open order of the address and counts a
 * trigger (dead-man-switches.ts). A test gives an address the volume it
 * traded elsewhere with `POST /dialects/hyperliquid/_sim/volume {user,
 * volume}`; its fills here count too.
 */
export class HlScheduleCancel {
  private readonly credited = new Map<string, Big>();
  readonly switches: DeadManSwitches;

  constructor(private readonly deps: HlExchangeDeps) {
    this.switches = deadManSwitchesOf(deps);
    this.switches.describe(HYPERLIQUID, (user) => ({
      tradedVolume: this.tradedVolume(user).toString(),
      requiredVolume: String(SCHEDULE_CANCEL.requiredVolume),
      triggersToday: this.triggersToday(user),
      triggersPerDay: SCHEDULE_CANCEL.triggersPerDay,
    }));
  }

  /** Volume the address traded before the simulator (a test's setting), in USDC. */
  credit(user: string, volume: string): void {
    this.credited.set(user.toLowerCase(), new Big(volume));
  }

  act(call: ActionCall): Promise<HttpReply> {
    const time = call.action['time'];
    if (time !== undefined && !(Number.isSafeInteger(time) && (time as number) >= 0)) {
      throw new HlBodyError();
    }
    const user = call.request.accountId;
    return this.deps.orders.execute(call.request, undefined, () => {
      const now = Date.now();
      if (
        call.expiresAfter !== undefined &&
        call.expiresAfter !== null &&
        now > call.expiresAfter
      ) {
        throw new HlActionError(hlText.expired(call.expiresAfter, now));
      }
      const traded = this.tradedVolume(user);
      if (traded.lt(SCHEDULE_CANCEL.requiredVolume)) {
        throw new HlActionError(scheduleCancelText.volume(traded.toString()));
      }
      if (time === undefined) {
        this.switches.disarm(HYPERLIQUID, user);
        return ok();
      }
      this.arm(user, time as number, now);
      return ok();
    });
  }

  private arm(user: string, time: number, now: number): void {
    if (time < now + SCHEDULE_CANCEL.minLeadMs) {
      throw new HlActionError(scheduleCancelText.tooSoon(time, now));
    }
    const spent = () => this.triggersToday(user) >= SCHEDULE_CANCEL.triggersPerDay;
    if (this.deps.state.profile.get('schedule_cancel_spent') === 'refuse' && spent()) {
      throw new HlActionError(scheduleCancelText.spent);
    }
    this.switches.arm(HYPERLIQUID, user, { cancelsAtMs: time, fires: () => !spent() });
  }

  /** Triggers since 00:00 UTC. */
  private triggersToday(user: string): number {
    const now = Date.now();
    return this.switches.firedSince(HYPERLIQUID, user, now - (now % DAY_MS));
  }

  /** The address's fills here (price times size) and the volume credited to it. */
  tradedVolume(user: string): Big {
    const venue = this.deps.world().venue(HYPERLIQUID);
    const fills = venue.registry.fillsSince(user.toLowerCase(), 0);
    return fills.reduce(
      (sum, fill) => {
        const market = venue.market(fill.symbol);
        return sum.plus(market.price.toBig(fill.priceTicks).times(market.lot.toBig(fill.lots)));
      },
      this.credited.get(user.toLowerCase()) ?? new Big(0),
    );
  }
}

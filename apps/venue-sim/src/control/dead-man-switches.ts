import type { FundedWallets } from '../dialects/funded-wallets';
import type { Simulator } from '../engine/simulator';

/** What `/control` shows of one account's dead-man switch. */
export interface DeadManState {
  venue: string;
  account: string;
  armed: boolean;
  /** When the venue cancels the account's orders (epoch ms), while armed. */
  cancelsAtMs: number | null;
  /** The last arming or push forward (epoch ms). */
  lastArmedAtMs: number | null;
  /** The last time it fired (epoch ms), and how many orders that canceled. */
  lastFiredAtMs: number | null;
  lastCanceled: number;
  /** Every time it fired (epoch ms), oldest first: a venue's daily trigger count reads them. */
  firedAtMs: number[];
  /** The venue's own facts (Hyperliquid: traded volume, triggers left today). */
  details?: Record<string, unknown>;
}

/** An arming as a dialect hands it over. */
export interface DeadManArm {
  cancelsAtMs: number;
  /**
   * Asked when the time comes: false when the venue would not cancel then
   * (Hyperliquid's daily triggers spent under one reading); nothing is
   * canceled and no trigger is counted.
   */
  fires?: () => boolean;
}

interface Armed {
  world: Simulator;
  cancelsAtMs: number;
  fires: () => boolean;
  timer: NodeJS.Timeout;
}

const key = (venue: string, account: string) => `${venue}\u0000${account.toLowerCase()}`;

/**
 * The dead-man switches of every venue account of one simulator. A dialect
 * arms, pushes forward and disarms an account's switch as its venue
 * documents it; when the time comes the switch cancels every resting order
 * of the account through the engine (so the simulator's own records show
 * them canceled) and goes off. It fires on a real timer, and at once when a
 * test says time has passed (`elapse`, `POST /control/dead-man/elapse`).
 */
export class DeadManSwitches {
  private readonly armed = new Map<string, Armed>();
  private readonly history = new Map<string, Omit<DeadManState, 'armed' | 'cancelsAtMs'>>();
  private readonly detailers = new Map<string, (account: string) => Record<string, unknown>>();

  constructor(private readonly world: () => Simulator) {}

  /** Arms the account's switch, or moves its time (one switch per account). */
  arm(venue: string, account: string, arming: DeadManArm): void {
    this.disarm(venue, account);
    const id = key(venue, account);
    const delay = Math.max(0, arming.cancelsAtMs - Date.now());
    const timer = setTimeout(() => this.fire(venue, account), delay);
    timer.unref();
    this.armed.set(id, {
      world: this.world(),
      cancelsAtMs: arming.cancelsAtMs,
      fires: arming.fires ?? (() => true),
      timer,
    });
    this.record(venue, account).lastArmedAtMs = Date.now();
  }

  disarm(venue: string, account: string): void {
    const id = key(venue, account);
    const current = this.armed.get(id);
    if (current) {
      clearTimeout(current.timer);
      this.armed.delete(id);
    }
  }

  /** Fires every switch due within `ms` from now, as if that time had passed; which fired. */
  elapse(ms: number): DeadManState[] {
    const horizon = Date.now() + ms;
    const due = [...this.armed.entries()].filter(([, armed]) => armed.cancelsAtMs <= horizon);
    return due.map(([id]) => {
      const [venue, account] = id.split('\u0000');
      this.fire(venue, account);
      return this.state(venue, account);
    });
  }

  /** The times the account's switch fired since `sinceMs`. */
  firedSince(venue: string, account: string, sinceMs: number): number {
    return this.record(venue, account).firedAtMs.filter((at) => at >= sinceMs).length;
  }

  /** A venue's own facts for `state` (its rules' numbers). */
  describe(venue: string, details: (account: string) => Record<string, unknown>): void {
    this.detailers.set(venue, details);
  }

  state(venue: string, account: string): DeadManState {
    const armed = this.armed.get(key(venue, account));
    const details = this.detailers.get(venue)?.(account.toLowerCase());
    return {
      ...this.record(venue, account),
      armed: armed !== undefined,
      cancelsAtMs: armed?.cancelsAtMs ?? null,
      firedAtMs: [...this.record(venue, account).firedAtMs],
      ...(details ? { details } : {}),
    };
  }

  close(): void {
    for (const armed of this.armed.values()) {
      clearTimeout(armed.timer);
    }
    this.armed.clear();
  }

  /**
   * The time came: every open order of the account is canceled, unless the
   * simulator was reset since the arming (its orders are gone) or the venue
   * would not fire.
   */
  private fire(venue: string, account: string): void {
    const id = key(venue, account);
    const armed = this.armed.get(id);
    if (!armed) {
      return;
    }
    this.disarm(venue, account);
    if (armed.world !== this.world() || !armed.fires()) {
      return;
    }
    const engine = armed.world.venue(venue);
    const accountId = account.toLowerCase();
    let canceled = 0;
    for (const order of engine.registry.open(accountId)) {
      engine.desk.cancel(accountId, { orderId: order.orderId });
      canceled += 1;
    }
    const record = this.record(venue, account);
    record.lastFiredAtMs = Date.now();
    record.lastCanceled = canceled;
    record.firedAtMs.push(record.lastFiredAtMs);
  }

  private record(venue: string, account: string) {
    const id = key(venue, account);
    let record = this.history.get(id);
    if (!record) {
      record = {
        venue,
        account: account.toLowerCase(),
        lastArmedAtMs: null,
        lastFiredAtMs: null,
        lastCanceled: 0,
        firedAtMs: [],
      };
      this.history.set(id, record);
    }
    return record;
  }
}

const boards = new WeakMap<FundedWallets, DeadManSwitches>();

/**
 * The switches of the simulator `funding` belongs to. Its FundedWallets is
 * the one object every dialect and `/control` hold of the same simulator,
 * so both find the same switches through it without new wiring.
 */
export function deadManSwitchesOf(deps: {
  funding: FundedWallets;
  world: () => Simulator;
}): DeadManSwitches {
  let board = boards.get(deps.funding);
  if (!board) {
    board = new DeadManSwitches(deps.world);
    boards.set(deps.funding, board);
  }
  return board;
}

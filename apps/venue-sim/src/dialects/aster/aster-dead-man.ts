import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import { deadManSwitchesOf, type DeadManSwitches } from '../../control/dead-man-switches';
import type { DialectDeps } from '../dialect';
import { AsterError } from './aster-errors';
import { ASTER } from './aster-market-data';
import { integer, required } from './aster-orders';

/** One firing of a symbol's countdown: when, and how many orders it canceled. */
interface AsterFiring {
  symbol: string;
  atMs: number;
  canceled: number;
}

/**
 * Aster's dead-man switch, "Auto-Cancel All Open Orders (TRADE)" (github
 * asterdex/api-docs, V3(Recommended)/EN/aster-finance-futures-api-v3.md):
 * `POST /fapi/v3/countdownCancelAll {symbol, countdownTime}` (weight 10; the
 * simulator's limiter counts it as one request), answered `{symbol,
 * countdownTime}` (the time as a string, as the document's example shows).
 * Every call replaces the symbol's countdown; `0` stops it; when a countdown
 * ends every open order of THAT SYMBOL is canceled (the venue checks about
 * every 10 ms). The document names no minimum and no maximum: none is
 * enforced.
 *
 * The simulator's board (dead-man-switches.ts) holds one switch per account
 * and cancels every order of it. Aster's are per symbol, so the countdowns
 * live here; the board holds, per account, the earliest of them, and when it
 * comes this class cancels the due symbols' orders itself (`fires` answers
 * false: the board cancels nothing) and hands the board the next earliest.
 * What fired is in the board's state `details` (`countdowns`, `firings`).
 * A test's `elapse` fires one account entry a call: a second symbol due
 * within the same elapsed time fires on the next call.
 */
export class AsterDeadMan {
  readonly switches: DeadManSwitches;
  /** Per account: each symbol's countdown end (epoch ms). */
  private readonly countdowns = new Map<string, Map<string, number>>();
  private readonly firings = new Map<string, AsterFiring[]>();

  constructor(private readonly deps: DialectDeps) {
    this.switches = deadManSwitchesOf(deps);
    this.switches.describe(ASTER, (account) => ({
      countdowns: Object.fromEntries(this.countdowns.get(account) ?? []),
      firings: [...(this.firings.get(account) ?? [])],
    }));
  }

  countdown(request: SignedRequest, params: Record<string, string>): Promise<HttpReply> {
    const symbol = required(params, 'symbol');
    required(params, 'countdownTime');
    const countdownMs = integer(params, 'countdownTime') as number;
    return this.deps.orders.execute(request, undefined, (venue) => {
      if (!venue.markets.has(symbol)) {
        throw new AsterError('badSymbol');
      }
      const account = request.accountId.toLowerCase();
      const symbols = this.countdowns.get(account) ?? new Map<string, number>();
      this.countdowns.set(account, symbols);
      if (countdownMs === 0) {
        symbols.delete(symbol);
      } else {
        symbols.set(symbol, Date.now() + countdownMs);
      }
      this.armEarliest(account);
      return { status: 200, body: { symbol, countdownTime: String(countdownMs) } };
    });
  }

  /** The board's entry for the account: its earliest countdown, or none. */
  private armEarliest(account: string): void {
    const symbols = this.countdowns.get(account);
    const earliest = Math.min(...(symbols?.values() ?? []));
    if (!Number.isFinite(earliest)) {
      this.switches.disarm(ASTER, account);
      return;
    }
    this.switches.arm(ASTER, account, {
      cancelsAtMs: earliest,
      fires: () => this.fire(account, earliest),
    });
  }

  /**
   * The account's earliest countdown ended: every symbol due by then has its
   * open orders canceled and its countdown gone; the board gets the next one.
   * False: the board itself cancels nothing (it would cancel every symbol).
   */
  private fire(account: string, dueAtMs: number): boolean {
    const symbols = this.countdowns.get(account) ?? new Map<string, number>();
    const due = [...symbols].filter(([, atMs]) => atMs <= dueAtMs).map(([symbol]) => symbol);
    const engine = this.deps.world().venue(ASTER);
    const open = engine.registry.open(account);
    for (const symbol of due) {
      symbols.delete(symbol);
      const orders = open.filter((order) => order.symbol === symbol);
      for (const order of orders) {
        engine.desk.cancel(account, { orderId: order.orderId });
      }
      const firings = this.firings.get(account) ?? [];
      firings.push({ symbol, atMs: Date.now(), canceled: orders.length });
      this.firings.set(account, firings);
    }
    this.armEarliest(account);
    return false;
  }
}

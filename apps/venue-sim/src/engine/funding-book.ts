import Big from 'big.js';
import type { MarketSpec } from '../config/market-spec';

/** One funding settlement of one account's position in one market. */
export interface FundingPayment {
  /** Unique within the simulator process (carries the run's epoch). */
  id: string;
  accountId: string;
  symbol: string;
  /** The settlement's time: the end of the funding interval (epoch ms). */
  timeMs: number;
  /** The rate of the interval (positive: longs pay shorts). */
  rate: Big;
  /** The account's signed position at settlement (positive long). */
  size: Big;
  markPrice: Big;
  /** Signed, in the market's margin asset: positive received, negative paid. */
  amount: Big;
  asset: string;
}

/**
 * A rate of 0.01 % per 8 hours (the venues' common baseline), scaled to a
 * market's interval: Hyperliquid's hourly markets pay 0.00125 % an hour.
 */
export const BASELINE_RATE_PER_8H = new Big('0.0001');
export const HOUR_MS = 3_600_000;
/** Amounts are settled to this many decimals, as the venues' ledgers keep USD. */
export const FUNDING_AMOUNT_DP = 8;

/**
 * A venue's funding: each market's current rate, which interval was last
 * settled, and every payment per account. Settlements come at the end of
 * each interval of the simulated clock (epoch-aligned, as the venues settle
 * on the hour or every eight hours) or when the control API asks.
 */
export class FundingBook {
  private readonly rates = new Map<string, Big>();
  private readonly lastPeriod = new Map<string, number>();
  private readonly payments = new Map<string, FundingPayment[]>();
  private sequence = 0;

  constructor(private readonly epoch: number) {}

  rateOf(spec: MarketSpec): Big {
    return (
      this.rates.get(spec.symbol) ?? BASELINE_RATE_PER_8H.times(spec.fundingIntervalHours).div(8)
    );
  }

  setRate(symbol: string, rate: Big): void {
    this.rates.set(symbol, rate);
  }

  /**
   * The end of the interval the clock just left for this market, or null when
   * it is still in the interval it was last seen in (the first sighting only
   * notes the interval: a fresh simulator settles nothing it did not hold).
   */
  dueSettlement(spec: MarketSpec, nowMs: number): number | null {
    const intervalMs = spec.fundingIntervalHours * HOUR_MS;
    const period = Math.floor(nowMs / intervalMs);
    const last = this.lastPeriod.get(spec.symbol);
    this.lastPeriod.set(spec.symbol, period);
    return last !== undefined && period > last ? period * intervalMs : null;
  }

  record(payment: Omit<FundingPayment, 'id'>): FundingPayment {
    this.sequence += 1;
    const recorded = { ...payment, id: `${this.epoch}-f${this.sequence}` };
    const list = this.payments.get(payment.accountId) ?? [];
    list.push(recorded);
    this.payments.set(payment.accountId, list);
    return recorded;
  }

  /** The account's payments at or after `sinceMs`, oldest first. */
  paymentsOf(accountId: string, sinceMs = 0): FundingPayment[] {
    return (this.payments.get(accountId) ?? []).filter((payment) => payment.timeMs >= sinceMs);
  }
}

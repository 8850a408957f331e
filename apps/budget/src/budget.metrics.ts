import { Counter, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';

/** What a budget request came to: its reply's outcome and, when not granted, its code. */
export interface BudgetAnswer {
  outcome?: unknown;
  code?: unknown;
  venue?: unknown;
  maker?: unknown;
  hedge?: unknown;
  /** A batch's answers, one per reservation. */
  results?: unknown;
}

/**
 * The budget service's series: requests by type and outcome with their
 * handling time, reservations granted and refused, and the shares granted, by
 * venue. Labels are a request type, outcome, code, venue or role: never a
 * trade, user or wallet (an account is a wallet: shares are a histogram per venue).
 */
export class BudgetMetrics {
  readonly registry: Registry = createServiceRegistry('budget');
  private readonly requests = new Counter<'request' | 'outcome' | 'code'>({
    name: 'sts_budget_requests_total',
    help: 'Budget requests answered, by request type, outcome and code',
    labelNames: ['request', 'outcome', 'code'],
    registers: [this.registry],
  });
  private readonly duration = new Histogram<'request'>({
    name: 'sts_budget_request_duration_seconds',
    help: 'Time to answer a budget request',
    labelNames: ['request'],
    buckets: REQUEST_LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  private readonly reservations = new Counter<'exchange'>({
    name: 'sts_budget_reservations_total',
    help: 'Reservations granted, by maker venue',
    labelNames: ['exchange'],
    registers: [this.registry],
  });
  private readonly refusals = new Counter<'exchange' | 'reason'>({
    name: 'sts_budget_refusals_total',
    help: 'Reservations refused (below min_trade_budget) or failed (by code), by venue',
    labelNames: ['exchange', 'reason'],
    registers: [this.registry],
  });
  private readonly shares = new Histogram<'exchange' | 'role'>({
    name: 'sts_budget_granted_share',
    help: "A new trade's share of its venue account's limit (requests/s), by venue and role",
    labelNames: ['exchange', 'role'],
    buckets: [1, 2, 3, 4, 5, 7.5, 10, 15, 20, 30, 40],
    registers: [this.registry],
  });

  recordAnswer(requestType: string, answer: BudgetAnswer, seconds: number): void {
    const outcome = typeof answer.outcome === 'string' ? answer.outcome : 'ok';
    const code = typeof answer.code === 'string' ? answer.code : '';
    this.requests.inc({ request: requestType, outcome, code });
    this.duration.observe({ request: requestType }, seconds);
    if (!requestType.includes('reserve')) {
      return;
    }
    // A batch counts each of its reservations as `budget.reserve` would count it alone.
    const results = outcome === 'answered' && 'results' in answer ? answer.results : [answer];
    for (const result of Array.isArray(results) ? results : []) {
      this.recordReservation(result as BudgetAnswer);
    }
  }

  private recordReservation(answer: BudgetAnswer): void {
    const outcome = typeof answer.outcome === 'string' ? answer.outcome : 'ok';
    const code = typeof answer.code === 'string' ? answer.code : '';
    const venueOf = (share: unknown): string =>
      typeof share === 'object' && share !== null && 'venue' in share ? String(share.venue) : '';
    switch (outcome) {
      case 'granted': {
        this.reservations.inc({ exchange: venueOf(answer.maker) });
        for (const role of ['maker', 'hedge'] as const) {
          const held = answer[role];
          if (typeof held === 'object' && held !== null && 'share' in held) {
            this.shares.observe({ exchange: venueOf(held), role }, Number(held.share));
          }
        }
        return;
      }
      case 'refused':
        this.refusals.inc({ exchange: venueOf(answer), reason: 'below_min_trade_budget' });
        return;
      default:
        this.refusals.inc({ exchange: '', reason: code || outcome });
    }
  }
}

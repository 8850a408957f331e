import { Counter, Histogram, type Registry } from 'prom-client';
import { createServiceRegistry, REQUEST_LATENCY_BUCKETS_S } from '@sts/platform';

/** What a budget request came to: its reply's outcome and, when not granted, its code. */
export interface BudgetAnswer {
  outcome?: unknown;
  code?: unknown;
}

/**
 * The budget service's series: requests by type and outcome with their
 * handling time, reservations granted and refused (by code). Labels are the
 * request type, outcome and code: never a trade, user or wallet.
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
  private readonly reservations = new Counter({
    name: 'sts_budget_reservations_total',
    help: 'Reservations granted',
    registers: [this.registry],
  });
  private readonly refusals = new Counter<'code'>({
    name: 'sts_budget_refusals_total',
    help: 'Reservations refused (not enough budget) or failed, by code',
    labelNames: ['code'],
    registers: [this.registry],
  });

  recordAnswer(requestType: string, answer: BudgetAnswer, seconds: number): void {
    const outcome = typeof answer.outcome === 'string' ? answer.outcome : 'ok';
    const code = typeof answer.code === 'string' ? answer.code : '';
    this.requests.inc({ request: requestType, outcome, code });
    this.duration.observe({ request: requestType }, seconds);
    if (!requestType.includes('reserve')) return;
    if (outcome === 'granted') this.reservations.inc();
    else if (outcome !== 'ok') this.refusals.inc({ code: code || outcome });
  }
}

import { idempotencyKey, type Api, type ApiAnswer, type Trader } from './api';
import { delay } from './processes';

export type Phase = 'before' | 'fault' | 'recovery' | 'after';

export type RequestKind =
  | 'create'
  | 'get'
  | 'list'
  | 'events'
  | 'patch'
  | 'delete'
  | 'markets'
  | 'maintenance'
  | 'gateway-ready'
  | 'notifier-ready';

export interface ApiRecord {
  phase: Phase;
  kind: RequestKind;
  status: ApiAnswer['status'];
  code?: string;
  ms: number;
  /** Why the answer is not one the request deserves; absent when it is. */
  wrong?: string;
  body?: unknown;
}

/**
 * What each request deserves besides a 503 with `{error, code}`: the trades
 * the prober creates are its own (never another user's), valid, far from any
 * cap but the maker cap of its own wallet, and amended with valid fields.
 */
const DESERVED: Record<RequestKind, Array<[number, string?]>> = {
  create: [[202], [200], [409, 'maker_cap_exceeded'], [429, 'rate_budget_exhausted']],
  get: [[200]],
  list: [[200]],
  events: [[200]],
  patch: [[200], [202], [409, 'trade_not_amendable']],
  delete: [[200], [202]],
  markets: [[200]],
  maintenance: [[200]],
  'gateway-ready': [[200]],
  'notifier-ready': [[200]],
};

/** A create that never fills: its target spread is out of reach, so the trade rests nothing. */
export const neverFilling = (wallet: string): Record<string, unknown> => ({
  market: 'ETH',
  long_exchange: 'hyperliquid',
  long_wallet: wallet,
  short_exchange: 'paradex',
  short_wallet: wallet,
  target_spread: '100000',
  spread_condition: 'gte',
  target_size: '1',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
});

/** Dependency loss is transient: a 503 for it should say when to come back. */
const RETRYABLE_503 = new Set(['service_unavailable', 'budget_unavailable']);

export function judge(kind: RequestKind, answer: ApiAnswer): string | undefined {
  if (answer.status === 'hang') {
    return `no answer within the client timeout (${answer.ms} ms)`;
  }
  if (answer.status === 'error') {
    return `connection failed: ${String(answer.body)}`;
  }
  const code = typeof answer.body === 'object' && answer.body ? answer.body.code : undefined;
  if (answer.status === 503) {
    if (typeof answer.body?.error !== 'string' || typeof code !== 'string') {
      return `503 without {error, code}: ${JSON.stringify(answer.body)}`;
    }
    if (RETRYABLE_503.has(code) && answer.retryAfter === null) {
      return `503 ${code} without Retry-After`;
    }
    return undefined;
  }
  const deserved = DESERVED[kind].some(
    ([status, expectedCode]) =>
      status === answer.status && (!expectedCode || expectedCode === code),
  );
  return deserved ? undefined : `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
}

/**
 * Keeps calling the API during a fault the way clients do: creates (and
 * cancels) trades of its own, reads and amends them, lists, reads the
 * running trades and their logs, and the public endpoints. Every answer is
 * recorded with the phase it fell in and judged.
 */
export class ApiTraffic {
  phase: Phase = 'before';
  readonly records: ApiRecord[] = [];
  /** Trades the prober created (they take part in the end-of-fault checks). */
  readonly created: Array<{ tradeId: string; trader: Trader }> = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly api: Api,
    private readonly traders: Trader[],
    private readonly watched: () => Array<{ tradeId: string; trader: Trader }>,
    readonly loadBody: (wallet: string) => Record<string, unknown>,
    private readonly notifier?: Api,
  ) {}

  start(): void {
    this.running = true;
    this.loops = this.traders.map((trader, index) => this.loop(trader, index));
    if (this.notifier) {
      this.loops.push(this.readiness(this.notifier));
    }
  }

  /** What an orchestrator's probes see: the gateway's and the notifier's readiness. */
  private async readiness(notifier: Api): Promise<void> {
    while (this.running) {
      await this.record('gateway-ready', this.api.call('GET', '/healthz'));
      await this.record('notifier-ready', notifier.call('GET', '/healthz'));
      await delay(100);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async record(kind: RequestKind, call: Promise<ApiAnswer>): Promise<ApiAnswer> {
    const answer = await call;
    // The phase the answer arrived in (a create sent just before the fault may meet it).
    const phase = this.phase;
    const wrong = judge(kind, answer);
    const code = typeof answer.body === 'object' && answer.body ? answer.body.code : undefined;
    this.records.push({
      phase,
      kind,
      status: answer.status,
      ...(code ? { code } : {}),
      ms: answer.ms,
      ...(wrong ? { wrong, body: answer.body } : {}),
    });
    return answer;
  }

  private async loop(trader: Trader, index: number): Promise<void> {
    const headers = trader.headers;
    let round = 0;
    while (this.running) {
      round += 1;
      const created = await this.record(
        'create',
        this.api.call('POST', '/api/v1/trades', {
          headers,
          body: { ...this.loadBody(trader.wallet), idempotency_key: idempotencyKey() },
        }),
      );
      const tradeId: string | undefined =
        created.status === 202 ? created.body?.trade_id : undefined;
      if (tradeId) {
        this.created.push({ tradeId, trader });
        await this.record('get', this.api.call('GET', `/api/v1/trades/${tradeId}`, { headers }));
        await this.record(
          'patch',
          this.api.call('PATCH', `/api/v1/trades/${tradeId}`, {
            headers,
            body: { target_spread: String(100_000 + round) },
          }),
        );
        await this.record(
          'events',
          this.api.call('GET', `/api/v1/trades/${tradeId}/events`, { headers }),
        );
      }
      await this.record('list', this.api.call('GET', '/api/v1/trades', { headers }));
      if (tradeId) {
        await this.record(
          'delete',
          this.api.call('DELETE', `/api/v1/trades/${tradeId}`, { headers }),
        );
      }
      const running = this.watched();
      if (running.length > 0) {
        const watched = running[(round * 2 + index) % running.length];
        const watchedHeaders = watched.trader.headers;
        await this.record(
          'get',
          this.api.call('GET', `/api/v1/trades/${watched.tradeId}`, { headers: watchedHeaders }),
        );
        await this.record(
          'events',
          this.api.call('GET', `/api/v1/trades/${watched.tradeId}/events`, {
            headers: watchedHeaders,
          }),
        );
      }
      await this.record(
        'markets',
        this.api.call('GET', '/api/v1/markets?exchanges=hyperliquid,paradex'),
      );
      await this.record('maintenance', this.api.call('GET', '/api/v1/maintenance'));
      await delay(20);
    }
  }
}

/**
 * The worker specs' client of the venue simulator's /control endpoint (the
 * simulator's own SimControl is not reachable across app boundaries) and of
 * its public book endpoint.
 */
export interface SimFill {
  fill_id: string;
  order_id: string;
  client_order_id: string;
  symbol: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  liquidity: 'maker' | 'taker';
  ts_ms: number;
}

export interface SimBook {
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
}

export class VenueSimControl {
  constructor(readonly url: string) {}

  /** An outside taker order: it trades through resting orders, best price first. */
  trade(venue: string, symbol: string, side: 'buy' | 'sell', size: string, price?: string) {
    return this.post<{ filled: string }>(`/control/venues/${venue}/trade`, {
      symbol,
      side,
      size,
      ...(price ? { price } : {}),
    });
  }

  jumpVenue(venue: string, bps: number, symbol?: string) {
    return this.post(`/control/venues/${venue}/jump`, { bps, ...(symbol ? { symbol } : {}) });
  }

  step(count = 1) {
    return this.post('/control/step', { count });
  }

  setTickMs(tickMs: number) {
    return this.post('/control/clock', { tick_ms: tickMs });
  }

  rejectNext(venue: string, count: number, reason = 'injected_rejection') {
    return this.post(`/control/venues/${venue}/reject-next`, { count, reason });
  }

  freeze(venue: string, mode: 'hang' | 'halt') {
    return this.post(`/control/venues/${venue}/freeze`, { mode });
  }

  thaw(venue: string) {
    return this.post(`/control/venues/${venue}/thaw`, {});
  }

  registerAccount(
    venue: string,
    account: { apiKey: string; apiSecret: string; wallet: string; collateral?: string },
  ) {
    return this.post(`/control/venues/${venue}/accounts`, {
      api_key: account.apiKey,
      api_secret: account.apiSecret,
      wallet: account.wallet,
      ...(account.collateral ? { collateral: account.collateral } : {}),
    });
  }

  /** Every fill of an account as the venue itself recorded it. */
  async accountFills(venue: string, wallet: string): Promise<SimFill[]> {
    const body = await this.get<{ fills: SimFill[] }>(
      `/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/fills?since=0`,
    );
    return body.fills;
  }

  book(venue: string, symbol: string, depth = 50): Promise<SimBook> {
    return this.get(`/venues/${venue}/book/${encodeURIComponent(symbol)}?depth=${depth}`);
  }

  private post<T = unknown>(path: string, body: unknown): Promise<T> {
    return this.send<T>(path, { method: 'POST', body: JSON.stringify(body) });
  }

  private get<T>(path: string): Promise<T> {
    return this.send<T>(path, { method: 'GET' });
  }

  private async send<T>(path: string, init: { method: string; body?: string }): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json' },
    });
    const body = (await response.json()) as T;
    if (!response.ok) {
      throw new Error(`venue-sim ${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
    }
    return body;
  }
}

import Big from 'big.js';
import { parseClientOrderId, TERMINAL_TRADE_STATUSES, tradeTag } from '@sts/domain';
import type { WireFill } from '@sts/venues';
import type { Api, Trader } from './api';
import { hedgeFindings, hedgeRecords } from './hedge-records';
import type { Pair } from './market';

/** The domain's terminal statuses, for status strings read from the API. */
export const TERMINAL: ReadonlySet<string> = TERMINAL_TRADE_STATUSES;

/** A fill as the simulator's control endpoint reports it: the paper wire format. */
export type SimFill = WireFill;

export interface Violation {
  invariant: string;
  tradeId?: string;
  wallet?: string;
  detail: string;
  evidence?: Record<string, unknown>;
}

export interface TradeUnderTest {
  tradeId: string;
  trader: Trader;
  pair?: Pair;
}

export interface TradeFigures {
  tradeId: string;
  pair?: string;
  status: string;
  targetSize: string;
  filledSize: string;
  makerFills: number;
  makerSize: string;
  hedgeFills: number;
  hedgeSize: string;
  residualUnhedged: string;
  /** What of the residual the trade's answer says was unwound on the maker venue (reduce-only). */
  residualUnwound: string;
  namedUnhedged: string;
  failureReason: string | null;
  /** The most the venues' fills left unhedged at once (maker filled less hedge filled, by their times). */
  unhedgedPeak?: string;
  /** The longest the venues' fills left any size unhedged (ms). */
  unhedgedLongestMs?: number;
}

/** Reads the simulator's own records of an account (the truth the checks judge by). */
export class SimRecords {
  private readonly lots = new Map<string, Big>();
  private readonly markets = new Map<
    string,
    Array<{
      symbol: string;
      base_asset: string;
      contract_multiplier: string;
      lot_size: string;
      min_size: string;
    }>
  >();

  constructor(private readonly simUrl: string) {}

  private async get(path: string): Promise<any> {
    const response = await fetch(`${this.simUrl}${path}`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) {
      throw new Error(`sim ${path}: HTTP ${response.status}`);
    }
    return response.json();
  }

  async fills(venue: string, wallet: string): Promise<SimFill[]> {
    const body = await this.get(
      `/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/fills?since=0`,
    );
    return body.fills as SimFill[];
  }

  /**
   * The account's open orders as the venue records them; null when the
   * simulator has no such read-out (builds before it was added).
   */
  async openOrders(venue: string, wallet: string): Promise<Array<Record<string, string>> | null> {
    return this.orders(venue, wallet, '?status=open');
  }

  /** Every order of the account as the venue recorded it (null: no such read-out in this build). */
  async orders(
    venue: string,
    wallet: string,
    query = '',
  ): Promise<Array<Record<string, any>> | null> {
    const response = await fetch(
      `${this.simUrl}/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/orders${query}`,
      { signal: AbortSignal.timeout(10_000) },
    );
    if (response.status === 404) {
      return null;
    }
    if (!response.ok) {
      throw new Error(`sim orders ${venue}: HTTP ${response.status}`);
    }
    return ((await response.json()) as { orders: Array<Record<string, string>> }).orders;
  }

  async marketsOf(venue: string) {
    let markets = this.markets.get(venue);
    if (!markets) {
      markets = (await this.get(`/venues/${venue}/markets`)).markets as NonNullable<typeof markets>;
      this.markets.set(venue, markets);
    }
    return markets;
  }

  /** Signed position per base asset (contracts times multiplier), as the venue holds it. */
  async positions(venue: string, wallet: string): Promise<Map<string, Big>> {
    const markets = await this.marketsOf(venue);
    const body = await this.get(
      `/control/venues/${venue}/accounts/${encodeURIComponent(wallet)}/positions`,
    );
    const byAsset = new Map<string, Big>();
    for (const position of body.positions as Array<{
      symbol: string;
      side: string;
      size: string;
    }>) {
      const market = markets.find((m) => m.symbol === position.symbol);
      const asset = market?.base_asset ?? position.symbol;
      const size = new Big(position.size).times(market?.contract_multiplier ?? '1');
      const signed = position.side === 'short' ? size.neg() : size;
      byAsset.set(asset, (byAsset.get(asset) ?? new Big(0)).plus(signed));
    }
    return byAsset;
  }

  /** The coarser lot of a pair's two markets (the unit maker orders are sized in). */
  async lotOf(pair: Pair): Promise<Big> {
    const cached = this.lots.get(pair.name);
    if (cached) {
      return cached;
    }
    let lot = new Big(0);
    for (const [venue, symbol] of [
      [pair.maker.venue, pair.maker.symbol],
      [pair.hedge.venue, pair.hedge.symbol],
    ]) {
      const market = (await this.marketsOf(venue)).find((m) => m.symbol === symbol);
      if (!market) {
        throw new Error(`no ${symbol} on ${venue}`);
      }
      if (lot.lt(market.lot_size)) {
        lot = new Big(market.lot_size);
      }
    }
    this.lots.set(pair.name, lot);
    return lot;
  }

  async minSizeOf(venue: string, symbol: string): Promise<Big> {
    const market = (await this.marketsOf(venue)).find((m) => m.symbol === symbol);
    return new Big(market?.min_size ?? '0');
  }
}

const sum = (values: Array<string | number | undefined>): Big =>
  values.reduce<Big>((total, value) => total.plus(value ?? '0'), new Big(0));

export const ofTrade = <T extends { client_order_id: string }>(
  fills: T[],
  tradeId: string,
  kind: 'maker' | 'hedge',
): T[] => {
  const tag = tradeTag(tradeId);
  return fills.filter((fill) => {
    const parsed = parseClientOrderId(fill.client_order_id ?? '');
    return parsed?.tradeTag === tag && parsed.kind === kind;
  });
};

const brief = (events: any[]) =>
  events.map((e) => {
    const d = e.data ?? {};
    const keys = [
      'size',
      'filled_size',
      'requested_size',
      'unhedged_size',
      'residual_unhedged',
      'result',
      'reason',
      'client_order_id',
      'exchange',
      'failure_reason',
      'cause',
      'attempt',
    ];
    const picked = Object.fromEntries(keys.filter((k) => d[k] !== undefined).map((k) => [k, d[k]]));
    return `${e.sequence} ${e.event_type} ${e.worker_id ?? ''} ${JSON.stringify(picked)}`;
  });

/**
 * Judges one trade after a fault by its execution log (through the API) and
 * by the venues' own records of its orders (client order ids carry the
 * trade's tag).
 */
export async function checkTrade(
  api: Api,
  sim: SimRecords,
  trade: TradeUnderTest,
  violations: Violation[],
): Promise<TradeFigures> {
  const { tradeId, trader, pair } = trade;
  const found = await api.call('GET', `/api/v1/trades/${tradeId}`, { headers: trader.headers });
  if (found.status === 404) {
    // The create was answered 202: the trade must exist.
    violations.push({
      invariant: 'trade_lost',
      tradeId,
      wallet: trader.wallet,
      detail: `the create was answered 202 with this trade id, GET now answers 404`,
      evidence: { body: found.body },
    });
    return figures(
      { trade_id: tradeId, status: 'lost' },
      0,
      new Big(0),
      0,
      new Big(0),
      new Big(0),
      new Big(0),
      pair?.name,
    );
  }
  const view = await api.must([200], 'GET', `/api/v1/trades/${tradeId}`, {
    headers: trader.headers,
  });
  const events: any[] = (
    await api.must([200], 'GET', `/api/v1/trades/${tradeId}/events?limit=5000`, {
      headers: trader.headers,
    })
  ).events;
  const add = (invariant: string, detail: string, evidence: Record<string, unknown> = {}) =>
    violations.push({
      invariant,
      tradeId,
      wallet: trader.wallet,
      detail,
      evidence: {
        status: view.status,
        failure_reason: view.failure_reason ?? null,
        log: brief(events),
        ...evidence,
      },
    });

  if (!TERMINAL.has(view.status)) {
    add('not_terminal', `still ${view.status} after wind-down (DELETE sent, bounded wait over)`);
  }

  const sequences = events.map((e) => e.sequence as number);
  const expected = Array.from({ length: sequences.length }, (_, i) => i + 1);
  if (JSON.stringify(sequences) !== JSON.stringify(expected)) {
    add('log_not_gapless', `sequences ${JSON.stringify(sequences)} are not 1..${sequences.length}`);
  }

  const makerLog = events.filter((e) => e.event_type === 'maker_fill');
  const hedgeLog = events.filter((e) => e.event_type === 'hedge_filled');
  const makerFillIds = makerLog.map((e) => e.data?.fill_id).filter((id) => id !== undefined);
  if (new Set(makerFillIds).size !== makerFillIds.length) {
    add(
      'log_duplicate_fill',
      `maker_fill entries repeat a fill_id: ${JSON.stringify(makerFillIds)}`,
    );
  }
  const residual = sum(
    events.filter((e) => e.event_type === 'chunk_completed').map((e) => e.data?.residual_unhedged),
  );
  const timedOut = sum(
    events.filter((e) => e.event_type === 'hedge_timeout').map((e) => e.data?.unhedged_size),
  );
  // What the trade names unhedged: its failure_reason ("unhedged size X"), else its hedge_timeouts.
  const inReason = /unhedged size ([0-9.]+)/.exec(view.failure_reason ?? '');
  const named = inReason ? new Big(inReason[1]) : timedOut;

  if (new Big(view.filled_size).gt(view.target_size)) {
    add('overfill', `filled_size ${view.filled_size} > target_size ${view.target_size}`);
  }
  if (!pair) {
    return figures(
      view,
      makerLog.length,
      sum(makerLog.map((e) => e.data?.size)),
      hedgeLog.length,
      sum(hedgeLog.map((e) => e.data?.size)),
      residual,
      named,
    );
  }

  // A trade that has ended leaves no order of its own resting on either venue.
  if (TERMINAL.has(view.status)) {
    for (const venue of [pair.maker.venue, pair.hedge.venue]) {
      const open = await sim.openOrders(venue, trader.wallet);
      const stray = open
        ? ofTrade(
            open as Array<{ client_order_id: string } & Record<string, any>>,
            tradeId,
            'maker',
          ).concat(
            ofTrade(
              open as Array<{ client_order_id: string } & Record<string, any>>,
              tradeId,
              'hedge',
            ),
          )
        : [];
      if (stray.length > 0) {
        add(
          'stray_open_order',
          `${stray.length} order(s) of the trade still open on ${venue} after it ended ${view.status}`,
          {
            open_orders: stray.map(
              (o) =>
                `${o.client_order_id} ${o.side} ${o.size}@${o.price} filled ${o.filled_size} created ${o.created_at_ms}`,
            ),
          },
        );
      }
    }
  }
  // The venue's order history: no maker order of the trade may be placed while another still rests
  // (a replace closes one and opens the next in the same instant).
  const history = await sim.orders(pair.maker.venue, trader.wallet);
  if (history) {
    const makers = ofTrade(
      history as Array<{ client_order_id: string } & Record<string, any>>,
      tradeId,
      'maker',
    )
      .filter((o) => o.type === 'post_only')
      .sort((a, b) => a.created_at_ms - b.created_at_ms);
    const closedAt = (o: Record<string, any>) =>
      o.status === 'open' || o.status === 'partially_filled' ? Infinity : o.updated_at_ms;
    for (let i = 0; i < makers.length; i += 1) {
      const overlapping = makers.filter((o, j) => j > i && o.created_at_ms < closedAt(makers[i]));
      if (overlapping.length === 0) {
        continue;
      }
      const line = (o: Record<string, any>) =>
        `${o.client_order_id} ${o.side} ${o.size}@${o.price} filled ${o.filled_size} ${o.status} ${o.created_at_ms}..${o.updated_at_ms}`;
      add(
        'overlapping_maker_orders',
        `maker order ${makers[i].client_order_id} still rested when ${overlapping.length} more of the trade's maker orders were placed on ${pair.maker.venue}`,
        { orders: [makers[i], ...overlapping].map(line) },
      );
      break;
    }
  }
  const makerFills = ofTrade(await sim.fills(pair.maker.venue, trader.wallet), tradeId, 'maker');
  const hedgeFills = ofTrade(await sim.fills(pair.hedge.venue, trader.wallet), tradeId, 'hedge');
  const made = sum(makerFills.map((f) => f.size));
  const hedged = sum(hedgeFills.map((f) => f.size));
  const venueEvidence = {
    venue_maker_fills: makerFills.map(
      (f) => `${f.client_order_id} ${f.side} ${f.size}@${f.price} ${f.ts_ms}`,
    ),
    venue_hedge_fills: hedgeFills.map(
      (f) => `${f.client_order_id} ${f.side} ${f.size}@${f.price} ${f.ts_ms}`,
    ),
  };

  if (made.gt(view.target_size)) {
    add(
      'venue_overfill',
      `the venue filled ${made.toFixed()} of the trade's maker orders, target_size ${view.target_size}`,
      venueEvidence,
    );
  }
  if (!made.eq(view.filled_size)) {
    add(
      'filled_size_mismatch',
      `filled_size ${view.filled_size}, the venue filled ${made.toFixed()} of its maker orders`,
      venueEvidence,
    );
  }
  const makerLogged = sum(makerLog.map((e) => e.data?.size));
  if (!makerLogged.eq(made)) {
    add(
      'log_maker_fills_mismatch',
      `log has maker fills of ${makerLogged.toFixed()}, the venue ${made.toFixed()}`,
      venueEvidence,
    );
  }
  const hedgeLogged = sum(hedgeLog.map((e) => e.data?.size));
  if (!hedgeLogged.eq(hedged)) {
    add(
      'log_hedge_fills_mismatch',
      `log has hedge fills of ${hedgeLogged.toFixed()}, the venue ${hedged.toFixed()}`,
      venueEvidence,
    );
  }

  const unhedged = made.minus(hedged);
  if (unhedged.lt(0)) {
    add(
      'over_hedged',
      `hedged ${hedged.toFixed()} on ${pair.hedge.venue}, made only ${made.toFixed()}`,
      venueEvidence,
    );
  } else if (view.status === 'failed') {
    // A failed trade must name what the venues left unhedged.
    if (unhedged.minus(named).abs().gt(residual)) {
      add(
        'failed_unhedged_misreported',
        `failed naming ${named.toFixed()} unhedged (failure_reason ${JSON.stringify(view.failure_reason)}, residual ${residual.toFixed()}); the venues show ${unhedged.toFixed()} unhedged (made ${made.toFixed()}, hedged ${hedged.toFixed()})`,
        venueEvidence,
      );
    }
  } else {
    const hedgeMin = await sim.minSizeOf(pair.hedge.venue, pair.hedge.symbol);
    if (unhedged.gt(residual) || (unhedged.gt(0) && unhedged.gte(hedgeMin))) {
      add(
        'unhedged',
        `made ${made.toFixed()} on ${pair.maker.venue}, hedged ${hedged.toFixed()} on ${pair.hedge.venue}; residual_unhedged reported ${residual.toFixed()} (hedge min ${hedgeMin.toFixed()})`,
        venueEvidence,
      );
    }
  }
  // Each hedge by the venue's fills of its own IOCs: its hedge_outcome, its hedge_timeout, and
  // whether a failure for a hedge has a hedge that ended short behind it.
  const records = hedgeRecords(events, hedgeFills);
  const failure = { failed: view.status === 'failed', reason: view.failure_reason ?? '' };
  for (const finding of hedgeFindings(records, failure)) {
    add(finding.invariant, finding.detail, venueEvidence);
  }
  return {
    ...figures(
      view,
      makerFills.length,
      made,
      hedgeFills.length,
      hedged,
      residual,
      named,
      pair.name,
    ),
    ...exposure(makerFills, hedgeFills),
  };
}

/**
 * What a trade held unhedged over time, by the venues' own fill times: the
 * largest size at once and the longest stretch with any (a maker fill's
 * hedge fills some milliseconds after it; a residual too small to hedge is
 * open until the last fill).
 */
function exposure(
  makerFills: SimFill[],
  hedgeFills: SimFill[],
): Pick<TradeFigures, 'unhedgedPeak' | 'unhedgedLongestMs'> {
  const steps = [
    ...makerFills.map((f) => ({ at: f.ts_ms, size: new Big(f.size) })),
    ...hedgeFills.map((f) => ({ at: f.ts_ms, size: new Big(f.size).neg() })),
  ].sort((a, b) => a.at - b.at || b.size.cmp(a.size));
  let open = new Big(0);
  let peak = new Big(0);
  let since: number | null = null;
  let longest = 0;
  for (const step of steps) {
    open = open.plus(step.size);
    peak = open.gt(peak) ? open : peak;
    if (open.gt(0) && since === null) {
      since = step.at;
    } else if (!open.gt(0) && since !== null) {
      longest = Math.max(longest, step.at - since);
      since = null;
    }
  }
  return { unhedgedPeak: peak.toFixed(), unhedgedLongestMs: longest };
}

function figures(
  view: any,
  makerFills: number,
  makerSize: Big,
  hedgeFills: number,
  hedgeSize: Big,
  residual: Big,
  named: Big,
  pair?: string,
): TradeFigures {
  return {
    tradeId: view.trade_id,
    pair,
    status: view.status,
    targetSize: view.target_size,
    filledSize: view.filled_size,
    makerFills,
    makerSize: makerSize.toFixed(),
    hedgeFills,
    hedgeSize: hedgeSize.toFixed(),
    residualUnhedged: residual.toFixed(),
    residualUnwound: new Big(view.residual_unwound ?? 0).toFixed(),
    namedUnhedged: named.toFixed(),
    failureReason: view.failure_reason ?? null,
  };
}

/**
 * Per wallet and asset, the positions the venues hold sum to zero within
 * one lot (plus what a failed trade named unhedged, and the reported residual
 * less what the trade unwound on the maker venue: a completed trade is flat).
 */
export async function checkPositions(
  sim: SimRecords,
  wallet: string,
  pair: Pair,
  allowance: Big,
  violations: Violation[],
): Promise<void> {
  const lot = await sim.lotOf(pair);
  const net = new Map<string, Big>();
  const perVenue: Record<string, Record<string, string>> = {};
  for (const venue of [pair.maker.venue, pair.hedge.venue]) {
    const positions = await sim.positions(venue, wallet);
    perVenue[venue] = Object.fromEntries(
      [...positions].map(([asset, size]) => [asset, size.toFixed()]),
    );
    for (const [asset, size] of positions) {
      net.set(asset, (net.get(asset) ?? new Big(0)).plus(size));
    }
  }
  for (const [asset, size] of net) {
    if (size.abs().gt(lot.plus(allowance))) {
      violations.push({
        invariant: 'positions_not_flat',
        wallet,
        detail: `${asset} positions across ${pair.maker.venue} and ${pair.hedge.venue} sum to ${size.toFixed()} (lot ${lot.toFixed()}, named unhedged/residual ${allowance.toFixed()})`,
        evidence: { positions: perVenue },
      });
    }
  }
}

import Big from 'big.js';
import { formatDecimal } from '@sts/domain';
import type { VenuePosition } from '@sts/venues';
import type { AccountRead } from '../venue-accounts/venue-account-reads';
import type { ImpliedPosition, ResidualLeft } from './implied-positions';

/** One venue account of the caller and how its read went. */
export interface AccountView {
  wallet: string;
  exchange: string;
  as_of: string;
  error: string | null;
}

/** One venue's side of a wallet's position in a market. */
export interface VenuePositionView {
  exchange: string;
  /** The venue's position, signed (long > 0); null when the venue could not be read. */
  venue_position: string | null;
  side: 'long' | 'short' | 'flat' | null;
  entry_price: string | null;
  /** What the service's own fills imply, signed. */
  implied_position: string;
  /** venue_position - implied_position; null when the venue could not be read. */
  difference: string | null;
  /** The venue holds what the fills do not explain; null when unknown (venue unreadable). */
  unexplained: boolean | null;
  /**
   * What the caller's ended trades left one-sided here, signed: maker fills
   * never hedged (below the hedge venue's minimum) that the unwind did not
   * take back. Part of implied_position, named so it is not mistaken for a
   * hedged leg.
   */
  residual_unhedged: string;
  /** The trades that left it, oldest first. */
  residual_trade_ids: string[];
  as_of: string;
  error: string | null;
}

export interface MarketPositionView {
  wallet: string;
  market: string;
  /** Sum of the venues' positions; null when one of them could not be read. */
  net_venue_position: string | null;
  net_implied_position: string;
  unexplained: boolean;
  /** Sum of the venues' residual_unhedged: one-sided exposure the trades named. */
  residual_unhedged: string;
  venues: VenuePositionView[];
}

export interface PositionsView {
  accounts: AccountView[];
  positions: MarketPositionView[];
}

/** One venue account read: its wallet, exchange and what the venue said. */
export interface AccountReadOf {
  wallet: string;
  exchange: string;
  read: AccountRead<VenuePosition[]>;
}

interface Cell {
  venue: { position: Big; entryPrice: string } | null;
  implied: Big;
  residual: Big;
  residualTrades: string[];
}

/**
 * Puts the venues' positions beside the fills' per wallet, market and venue,
 * nets them per wallet and market, and flags every difference. A market on
 * an unreadable account still shows what the fills imply, with the error.
 */
export function positionsView(
  reads: AccountReadOf[],
  implied: ImpliedPosition[],
  residuals: ResidualLeft[] = [],
): PositionsView {
  const cells = new Map<string, Cell>();
  const cellOf = (wallet: string, market: string, exchange: string): Cell => {
    const key = [wallet, market, exchange].join('\u0000');
    let cell = cells.get(key);
    if (!cell) {
      cell = { venue: null, implied: new Big(0), residual: new Big(0), residualTrades: [] };
      cells.set(key, cell);
    }
    return cell;
  };
  for (const { wallet, exchange, read } of reads) {
    for (const position of read.ok ? read.value : []) {
      const signed = new Big(position.size).times(position.side === 'long' ? 1 : -1);
      const cell = cellOf(wallet, position.market, exchange);
      cell.venue = { position: signed, entryPrice: position.entryPrice };
    }
  }
  for (const { wallet, market, exchange, position } of implied) {
    const cell = cellOf(wallet, market, exchange);
    cell.implied = cell.implied.plus(position);
  }
  for (const { wallet, market, exchange, left, tradeId } of residuals) {
    const cell = cellOf(wallet, market, exchange);
    cell.residual = cell.residual.plus(left);
    cell.residualTrades.push(tradeId);
  }
  const readOf = new Map(
    reads.map((entry) => [`${entry.wallet}\u0000${entry.exchange}`, entry.read]),
  );
  const byMarket = new Map<string, VenuePositionView[]>();
  for (const key of [...cells.keys()].sort()) {
    const [wallet, market, exchange] = key.split('\u0000');
    const cell = cells.get(key)!;
    const read = readOf.get(`${wallet}\u0000${exchange}`);
    if (read?.ok && cell.venue === null && cell.implied.eq(0) && cell.residual.eq(0)) {
      continue; // flat on the venue and by the fills: nothing to show
    }
    const marketKey = `${wallet}\u0000${market}`;
    byMarket.set(marketKey, [...(byMarket.get(marketKey) ?? []), venueView(exchange, cell, read)]);
  }
  return {
    accounts: reads
      .map(({ wallet, exchange, read }) => ({
        wallet,
        exchange,
        as_of: read.asOf.toISOString(),
        error: read.ok ? null : read.error,
      }))
      .sort((a, b) => `${a.wallet} ${a.exchange}`.localeCompare(`${b.wallet} ${b.exchange}`)),
    positions: [...byMarket].map(([key, venues]) => marketView(key, venues)),
  };
}

function venueView(
  exchange: string,
  cell: Cell,
  read: AccountRead<VenuePosition[]> | undefined,
): VenuePositionView {
  const asOf = (read?.asOf ?? new Date()).toISOString();
  const implied = formatDecimal(cell.implied);
  const residual = {
    residual_unhedged: formatDecimal(cell.residual),
    residual_trade_ids: cell.residualTrades,
  };
  if (!read?.ok) {
    return {
      exchange,
      venue_position: null,
      side: null,
      entry_price: null,
      implied_position: implied,
      difference: null,
      unexplained: null,
      ...residual,
      as_of: asOf,
      error: read?.error ?? `no ${exchange} credential for this wallet`,
    };
  }
  const venue = cell.venue?.position ?? new Big(0);
  const difference = venue.minus(cell.implied);
  return {
    exchange,
    venue_position: formatDecimal(venue),
    side: venue.gt(0) ? 'long' : venue.lt(0) ? 'short' : 'flat',
    entry_price: cell.venue?.entryPrice ?? null,
    implied_position: implied,
    difference: formatDecimal(difference),
    unexplained: !difference.eq(0),
    ...residual,
    as_of: asOf,
    error: null,
  };
}

function marketView(key: string, venues: VenuePositionView[]): MarketPositionView {
  const [wallet, market] = key.split('\u0000');
  const readable = venues.every((venue) => venue.venue_position !== null);
  const sum = (values: string[]): string =>
    formatDecimal(values.reduce((total, value) => total.plus(value), new Big(0)));
  return {
    wallet,
    market,
    net_venue_position: readable ? sum(venues.map((venue) => venue.venue_position!)) : null,
    net_implied_position: sum(venues.map((venue) => venue.implied_position)),
    unexplained: venues.some((venue) => venue.unexplained === true),
    residual_unhedged: sum(venues.map((venue) => venue.residual_unhedged)),
    venues,
  };
}

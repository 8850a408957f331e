import Big from 'big.js';
import { formatDecimal, USD_STABLECOINS, type VenueMode } from '@sts/domain';
import type { VenueBalance, VenueMarket, VenuePosition } from '@sts/venues';
import type { AccountRead } from '../venue-accounts/venue-account-reads';

/** The assets a venue margins its markets in, and which market in which. */
export interface MarginAssets {
  /** Every margin asset of the venue's markets, the one most markets use first. */
  assets: string[];
  /** Venue symbol -> its market's margin asset. */
  bySymbol: ReadonlyMap<string, string>;
}

/** The margin assets of a venue's market list. */
export function marginAssetsOf(markets: Iterable<VenueMarket>): MarginAssets {
  const bySymbol = new Map<string, string>();
  const count = new Map<string, number>();
  for (const market of markets) {
    bySymbol.set(market.entry.symbol, market.marginAsset);
    count.set(market.marginAsset, (count.get(market.marginAsset) ?? 0) + 1);
  }
  const assets = [...count.keys()].sort(
    (a, b) => count.get(b)! - count.get(a)! || a.localeCompare(b),
  );
  return { assets, bySymbol };
}

/** One venue account of the caller and what was read of it. */
export interface AccountBalanceRead {
  exchange: string;
  wallet: string;
  mode: VenueMode;
  /** Whether the venue's balance total already counts the positions' PnL (venue-balance-totals.ts). */
  totalIsEquity: boolean;
  balances: AccountRead<VenueBalance[]>;
  positions: AccountRead<VenuePosition[]>;
  /** The venue's margin assets, or why they are unknown. */
  margin: MarginAssets | { error: string };
}

/** One margin asset of one venue account, or the account's error. */
export interface AccountBalanceView {
  exchange: string;
  wallet: string;
  mode: VenueMode;
  asset: string | null;
  /** The wallet balance: deposits, realised PnL, fees and funding, without the open positions' PnL. */
  balance: string | null;
  /** The open positions' PnL, of the markets margined in `asset`. */
  unrealised_pnl: string | null;
  /** balance + unrealised_pnl. */
  equity: string | null;
  /** What the venue says new positions and orders can still use. */
  available_margin: string | null;
  /** Margin held by positions and open orders; null when the venue does not say. */
  margin_used: string | null;
  /** Counted in the totals: read, and margined in a USD stablecoin. */
  in_totals: boolean;
  as_of: string;
  error: string | null;
}

export interface BalancesView {
  accounts: AccountBalanceView[];
  totals: {
    /** The equity of every entry in_totals, in USD (stablecoins 1:1). */
    equity_usd: string;
    available_margin_usd: string;
    /** False when an entry is left out (unreadable, or not margined in a USD stablecoin). */
    complete: boolean;
  };
}

/**
 * Each account's margin-asset balances (not every asset the venue lists:
 * dust and spot holdings margin nothing), each with its wallet balance and
 * equity, whichever of the two the venue's total is: the other is told by
 * the unrealised PnL of the positions margined in that asset. An account
 * holding none of its venue's margin assets shows the main one at zero.
 */
export function balancesView(reads: readonly AccountBalanceRead[]): BalancesView {
  const accounts = reads
    .flatMap(accountEntries)
    .sort((a, b) =>
      [a.wallet, a.exchange, a.asset ?? '']
        .join(' ')
        .localeCompare([b.wallet, b.exchange, b.asset ?? ''].join(' ')),
    );
  const counted = accounts.filter((entry) => entry.in_totals);
  const sum = (values: string[]): string =>
    formatDecimal(values.reduce((total, value) => total.plus(value), new Big(0)));
  return {
    accounts,
    totals: {
      equity_usd: sum(counted.map((entry) => entry.equity!)),
      available_margin_usd: sum(counted.map((entry) => entry.available_margin!)),
      complete: counted.length === accounts.length,
    },
  };
}

function accountEntries(read: AccountBalanceRead): AccountBalanceView[] {
  const { balances, positions, margin } = read;
  if (!balances.ok) {
    return [unreadable(read, balances.error, balances.asOf)];
  }
  if (!positions.ok) {
    return [unreadable(read, `unrealised PnL unknown: ${positions.error}`, positions.asOf)];
  }
  // No fresher than the older of its two reads.
  const asOf = balances.asOf < positions.asOf ? balances.asOf : positions.asOf;
  if ('error' in margin) {
    return [unreadable(read, margin.error, asOf)];
  }
  const [main] = margin.assets;
  if (main === undefined) {
    return [unreadable(read, `${read.exchange} lists no market to margin`, asOf)];
  }
  const pnl = new Map<string, Big>();
  for (const position of positions.value) {
    const value = unrealisedPnlOf(position);
    if (value === undefined) {
      return [
        unreadable(
          read,
          `${read.exchange} reported no unrealised PnL for ${position.symbol}`,
          asOf,
        ),
      ];
    }
    // A market the list no longer names is counted in the main asset.
    const asset = margin.bySymbol.get(position.symbol) ?? main;
    pnl.set(asset, (pnl.get(asset) ?? new Big(0)).plus(value));
  }
  const held = balances.value.filter((balance) => margin.assets.includes(balance.asset));
  const entries: VenueBalance[] =
    held.length > 0 ? held : [{ asset: main, total: '0', available: '0' }];
  return entries.map((entry) => {
    const unrealised = pnl.get(entry.asset) ?? new Big(0);
    const total = new Big(entry.total);
    const balance = read.totalIsEquity ? total.minus(unrealised) : total;
    return {
      ...accountOf(read),
      asset: entry.asset,
      balance: formatDecimal(balance),
      unrealised_pnl: formatDecimal(unrealised),
      equity: formatDecimal(balance.plus(unrealised)),
      available_margin: formatDecimal(new Big(entry.available)),
      margin_used: entry.marginUsed === undefined ? null : formatDecimal(new Big(entry.marginUsed)),
      in_totals: USD_STABLECOINS.has(entry.asset),
      as_of: asOf.toISOString(),
      error: null,
    };
  });
}

/** The venue's figure, else (mark - entry) x size on the position's side; undefined when neither is known. */
function unrealisedPnlOf(position: VenuePosition): Big | undefined {
  if (position.unrealizedPnl !== undefined) {
    return new Big(position.unrealizedPnl);
  }
  if (position.markPrice === undefined) {
    return undefined;
  }
  const move = new Big(position.markPrice).minus(position.entryPrice).times(position.size);
  return position.side === 'long' ? move : move.neg();
}

const accountOf = ({ exchange, wallet, mode }: AccountBalanceRead) => ({ exchange, wallet, mode });

function unreadable(read: AccountBalanceRead, error: string, asOf: Date): AccountBalanceView {
  return {
    ...accountOf(read),
    asset: null,
    balance: null,
    unrealised_pnl: null,
    equity: null,
    available_margin: null,
    margin_used: null,
    in_totals: false,
    as_of: asOf.toISOString(),
    error,
  };
}

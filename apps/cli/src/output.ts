import type { Trade, TradeEvent } from '@sts/sdk';
import { decimalDifference } from './decimals';
import type { CliIo } from './io';
import {
  costsSummary,
  hedgeSlippage,
  legCosts,
  modeLabel,
  modeNote,
  realisedSpread,
} from './trade-costs';

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value)}\n`);
}

/** A cell of a number column: a decimal (a duration with its ` s`), or `-` for none. */
const NUMBER_CELL = /^(-|-?[0-9]+(\.[0-9]+)?( s)?)$/;

/**
 * Rows (the first is the header) as columns, each as wide as its widest
 * cell; a column of numbers (and `-`) is right-aligned, header included.
 */
export function table(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const [header, ...body] = rows;
  const widths = header.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const numeric = header.map((_, column) => body.every((row) => NUMBER_CELL.test(row[column])));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `[########------------] 0.004 / 0.01 base (40%)` */
export function progressBar(trade: Pick<Trade, 'filled_size' | 'target_size' | 'size_type'>) {
  const target = Number(trade.target_size);
  const share = target > 0 ? Math.min(1, Number(trade.filled_size) / target) : 0;
  const width = 20;
  const done = Math.round(share * width);
  return `[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${trade.filled_size} / ${trade.target_size} ${trade.size_type} (${Math.round(share * 100)}%)`;
}

export const tradeLine = (trade: Trade): string => {
  const left = residualLeft(trade);
  return [
    trade.trade_id,
    trade.status.padEnd(10),
    modeLabel(trade).padEnd(10),
    trade.market.padEnd(8),
    `${trade.long_exchange}/${trade.short_exchange}`.padEnd(22),
    `maker ${trade.maker_leg}`.padEnd(11),
    progressBar(trade),
    ...costsSummary(trade),
    ...(left ? [`UNHEDGED ${left} ${trade.market} on ${makerExchangeOf(trade)}`] : []),
  ].join('  ');
};

const makerExchangeOf = (trade: Trade): string =>
  trade.maker_leg === 'long' ? trade.long_exchange : trade.short_exchange;

/**
 * What the trade left one-sided in its maker wallet: residual_unhedged (maker
 * fills it could not hedge) less residual_unwound (what the reduce-only unwind
 * on the maker venue took back); null when nothing.
 */
export const residualLeft = (trade: Trade): string | null =>
  decimalDifference(trade.residual_unhedged ?? '0', trade.residual_unwound ?? '0');

/** residual_unhedged in words: what was not hedged, what became of it; null when nothing. */
export function residualNote(trade: Trade): string | null {
  const unhedged = trade.residual_unhedged ?? '0';
  if (decimalDifference(unhedged, '0') === null) {
    return null;
  }
  const maker = makerExchangeOf(trade);
  const what = `${unhedged} ${trade.market} not hedged`;
  const left = residualLeft(trade);
  if (left === null) {
    return `${what}, unwound on ${maker} (reduce-only IOC)`;
  }
  const unwound = trade.residual_unwound ?? '0';
  const how = decimalDifference(unwound, '0') === null ? 'not unwound' : `${unwound} unwound`;
  return `${what}, ${how}: ${left} ${trade.market} left one-sided on ${maker}`;
}

export function tradeDetails(trade: Trade): string {
  const rows: Array<[string, unknown]> = [
    ['trade', trade.trade_id],
    ['status', trade.status],
    ['mode', modeNote(trade)],
    ['market', trade.market],
    ['long', `${trade.long_exchange} ${trade.long_wallet}`],
    ['short', `${trade.short_exchange} ${trade.short_wallet}`],
    ['maker leg', trade.maker_leg],
    ['spread', `${trade.spread_condition} ${trade.target_spread} ${trade.spread_type}`],
    ['filled', progressBar(trade)],
    ['long costs', legCosts(trade.costs.long)],
    ['short costs', legCosts(trade.costs.short)],
    ['realised', realisedSpread(trade)],
    ['hedge slip', hedgeSlippage(trade)],
    ['max slippage', trade.max_slippage],
    ['rate budget', trade.rate_budget],
    ['created', trade.created_at],
    ['completed', trade.completed_at ?? '-'],
    ['failure', trade.failure_reason || '-'],
    ['unhedged', residualNote(trade) ?? '-'],
  ];
  return rows.map(([name, value]) => `${name.padEnd(13)} ${String(value)}`).join('\n');
}

export function eventLine(event: TradeEvent): string {
  const data = event.data as Record<string, unknown>;
  const detail = Object.entries(data)
    .filter(([, value]) => value !== null && typeof value !== 'object')
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
  return `#${event.sequence} ${event.created_at} ${event.event_type} ${detail}`;
}

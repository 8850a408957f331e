import type { Trade, TradeEvent } from '@sts/sdk';
import type { CliIo } from './io';

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value)}\n`);
}

/** `[########------------] 0.004 / 0.01 base (40%)` */
export function progressBar(trade: Pick<Trade, 'filled_size' | 'target_size' | 'size_type'>) {
  const target = Number(trade.target_size);
  const share = target > 0 ? Math.min(1, Number(trade.filled_size) / target) : 0;
  const width = 20;
  const done = Math.round(share * width);
  return `[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${trade.filled_size} / ${trade.target_size} ${trade.size_type} (${Math.round(share * 100)}%)`;
}

export const tradeLine = (trade: Trade): string =>
  [
    trade.trade_id,
    trade.status.padEnd(10),
    trade.market.padEnd(8),
    `${trade.long_exchange}/${trade.short_exchange}`.padEnd(22),
    `maker ${trade.maker_leg}`.padEnd(11),
    progressBar(trade),
  ].join('  ');

export function tradeDetails(trade: Trade): string {
  const rows: Array<[string, unknown]> = [
    ['trade', trade.trade_id],
    ['status', trade.status],
    ['market', trade.market],
    ['long', `${trade.long_exchange} ${trade.long_wallet}`],
    ['short', `${trade.short_exchange} ${trade.short_wallet}`],
    ['maker leg', trade.maker_leg],
    ['spread', `${trade.spread_condition} ${trade.target_spread} ${trade.spread_type}`],
    ['filled', progressBar(trade)],
    ['max slippage', trade.max_slippage],
    ['rate budget', trade.rate_budget],
    ['created', trade.created_at],
    ['completed', trade.completed_at ?? '-'],
    ['failure', trade.failure_reason || '-'],
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

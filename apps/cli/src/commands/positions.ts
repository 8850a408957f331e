import type { Positions, StsClient } from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson } from '../output';

/**
 * `positions`: per wallet and market, the net across venues, then each
 * venue's own position beside what the service's fills imply; a difference
 * is flagged UNEXPLAINED, what ended trades left one-sided UNHEDGED (with
 * the trades), and an unreadable venue shows its error.
 */
export async function showPositions(
  client: StsClient,
  settings: Settings,
  io: CliIo,
): Promise<void> {
  const answer = await client.positions();
  if (settings.json) {
    return printJson(io, answer);
  }
  io.stdout(positionLines(answer).join('\n') + '\n');
}

function positionLines(answer: Positions): string[] {
  const lines: string[] = [];
  for (const market of answer.positions) {
    const net = market.net_venue_position ?? 'unknown';
    const flag = market.unexplained ? '  UNEXPLAINED' : '';
    lines.push(
      `${market.wallet} ${market.market.padEnd(8)} net ${net} (fills imply ${market.net_implied_position})${flag}`,
    );
    for (const venue of market.venues) {
      const residual =
        venue.residual_unhedged === '0'
          ? ''
          : `  UNHEDGED ${venue.residual_unhedged} left by trade ${venue.residual_trade_ids.join(', ')}`;
      lines.push(
        venue.error === null
          ? `  ${venue.exchange.padEnd(12)} ${String(venue.side).padEnd(5)} ${venue.venue_position}  fills ${venue.implied_position}${venue.unexplained ? `  UNEXPLAINED by ${venue.difference}` : ''}${residual}  as of ${venue.as_of}`
          : `  ${venue.exchange.padEnd(12)} error: ${venue.error}  fills ${venue.implied_position}${residual}`,
      );
    }
  }
  for (const account of answer.accounts.filter((entry) => entry.error !== null)) {
    lines.push(`${account.exchange} ${account.wallet} unreadable: ${account.error}`);
  }
  return lines.length > 0 ? lines : ['no positions'];
}

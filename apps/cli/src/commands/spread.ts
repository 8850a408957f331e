import type { MarketSpread, SpreadQuery, StsClient } from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson } from '../output';

/** `spread <market> --long --short [--maker-leg] [--spread-type] [--target --condition]`. */
export interface SpreadFlags {
  long: string;
  short: string;
  makerLeg?: string;
  spreadType?: string;
  target?: string;
  condition?: string;
}

/**
 * The spread a trade on these terms would see now, from the API's own rules
 * (the CLI computes nothing). A target without a condition is judged `gte`,
 * the condition `trades create` assumes, so the answer matches the trade.
 */
export async function showSpread(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  market: string,
  flags: SpreadFlags,
): Promise<void> {
  const query = {
    long_exchange: flags.long,
    short_exchange: flags.short,
    maker_leg: flags.makerLeg,
    spread_type: flags.spreadType,
    target_spread: flags.target,
    spread_condition: flags.condition ?? (flags.target === undefined ? undefined : 'gte'),
  } as SpreadQuery;
  const answer = await client.spread(market, query);
  if (settings.json) {
    return printJson(io, answer);
  }
  io.stdout(`${spreadLines(answer, query).join('\n')}\n`);
}

/** Human form: each leg's touch, then the spread in its unit and the target's verdict. */
function spreadLines(answer: MarketSpread, query: SpreadQuery): string[] {
  const touch = (leg: 'long' | 'short', venue: string) =>
    `${leg.padEnd(6)} ${venue.padEnd(12)} bid ${answer[leg].bid}  ask ${answer[leg].ask}`;
  const verdict =
    answer.condition_met === null
      ? ''
      : `  target ${query.spread_condition} ${query.target_spread}: condition ${answer.condition_met ? 'met' : 'not met'}`;
  return [
    `${answer.market} at ${answer.at}`,
    touch('long', answer.long_exchange),
    touch('short', answer.short_exchange),
    `spread ${answer.spread} ${answer.spread_type}${verdict}`,
  ];
}

import type { CreateTradeRequest, StsClient } from '@sts/sdk';
import { CliStop, EXIT, type CliIo } from '../io';

/** "aster", "aster and lighter", "aster, extended and lighter". */
function listOfVenues(venues: readonly string[]): string {
  if (venues.length <= 1) {
    return venues.join('');
  }
  return `${venues.slice(0, -1).join(', ')} and ${venues[venues.length - 1]}`;
}

/** The legs' venues that the deployment runs live (GET /exchanges), in the legs' order. */
export async function liveVenuesOf(
  client: StsClient,
  terms: Pick<CreateTradeRequest, 'long_exchange' | 'short_exchange'>,
): Promise<string[]> {
  const modes = new Map((await client.exchanges()).map((venue) => [venue.exchange, venue.mode]));
  const legs = [...new Set([terms.long_exchange, terms.short_exchange])];
  return legs.filter((venue) => modes.get(venue) === 'live');
}

/** What a create on live venues means, in the console's words. */
export function liveWarning(live: readonly string[]): string {
  const plural = live.length > 1;
  return (
    `${listOfVenues(live)} ${plural ? 'are live venues' : 'is a live venue'}: ` +
    'this trade places real orders there, and its fills move real money.'
  );
}

/**
 * Before a create that trades real money: the person at the terminal says
 * yes, or nothing is sent. Nobody to ask (a script, a pipe) is a refusal
 * unless `--yes` said it beforehand; a paper create is never asked about.
 */
export async function confirmLiveCreate(
  client: StsClient,
  io: CliIo,
  terms: Pick<CreateTradeRequest, 'long_exchange' | 'short_exchange'>,
): Promise<void> {
  const live = await liveVenuesOf(client, terms);
  if (live.length === 0) {
    return;
  }
  if (!io.confirm) {
    throw new CliStop(
      `${liveWarning(live)} Not created: nobody at a terminal to confirm it; ` +
        'run again with --yes to create it.',
      'confirmation_required',
      EXIT.usage,
    );
  }
  const yes = await io.confirm(
    `${liveWarning(live)}\nTrade real money on ${listOfVenues(live)}? [y/N] `,
  );
  if (!yes) {
    throw new CliStop('not created: not confirmed', 'not_confirmed', EXIT.error);
  }
}

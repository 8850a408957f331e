import type { Exchange } from '@sts/sdk';

/** `paper`: the simulator, no real money; `live`: the venue itself, real orders and real money. */
export type VenueMode = Exchange['mode'];

/** What the console knows of one venue of the deployment (GET /exchanges). */
export type VenueFacts = Pick<Exchange, 'exchange' | 'mode' | 'trading_halted'>;

/** The deployment's venues by id; a venue absent from it has a mode the console could not read. */
export type VenueBook = ReadonlyMap<string, VenueFacts>;

export const venueBookOf = (exchanges: readonly VenueFacts[]): VenueBook =>
  new Map(exchanges.map((venue) => [venue.exchange, venue]));

/** The badge's word: capitals, so that it reads as the venue's kind and never as a trade's status. */
export const MODE_LABEL: Record<VenueMode, string> = { paper: 'PAPER', live: 'LIVE' };

export const MODE_MEANING: Record<VenueMode, string> = {
  paper: 'paper venue: the simulator, no real money',
  live: 'live venue: real orders on the venue itself, real money',
};

/**
 * A venue as a choice in a select: an option holds plain text only, so the
 * mode and a halt are said in words there (the badge beside the select is for the eye).
 */
export function venueChoiceLabel(exchange: string, venue: VenueFacts | undefined): string {
  if (!venue) {
    return exchange;
  }
  const notes = [venue.mode === 'live' ? 'LIVE, real money' : 'paper'];
  if (venue.trading_halted) {
    notes.push('trading halted');
  }
  return `${exchange} (${notes.join('; ')})`;
}

/** The venues of a create that can move real money: the live ones, and those of unknown mode. */
export interface VenuesToConfirm {
  live: string[];
  /** Not in the book (not read yet, or the read failed): treated as live, since nothing says otherwise. */
  unknown: string[];
}

export function venuesToConfirm(
  legs: { long_exchange: string; short_exchange: string },
  book: VenueBook | null,
): VenuesToConfirm {
  const venues = [...new Set([legs.long_exchange, legs.short_exchange])];
  return {
    live: venues.filter((venue) => book?.get(venue)?.mode === 'live'),
    unknown: venues.filter((venue) => !book?.get(venue)),
  };
}

export const needsConfirmation = (venues: VenuesToConfirm): boolean =>
  venues.live.length + venues.unknown.length > 0;

/** "aster", "aster and lighter", "aster, extended and lighter". */
export function listOfVenues(venues: readonly string[]): string {
  if (venues.length <= 1) {
    return venues.join('');
  }
  return `${venues.slice(0, -1).join(', ')} and ${venues[venues.length - 1]}`;
}

export interface LiveTradeConfirmation {
  title: string;
  sentences: string[];
  confirm: string;
}

/** What the trader is asked before a create that may trade real money, naming the venues. */
export function liveTradeConfirmation(venues: VenuesToConfirm): LiveTradeConfirmation {
  const named = listOfVenues([...venues.live, ...venues.unknown]);
  const sentences: string[] = [];
  if (venues.live.length > 0) {
    const plural = venues.live.length > 1;
    sentences.push(
      `${listOfVenues(venues.live)} ${plural ? 'are live venues' : 'is a live venue'}: ` +
        'this trade places real orders there, and its fills move real money.',
    );
  }
  if (venues.unknown.length > 0) {
    const plural = venues.unknown.length > 1;
    sentences.push(
      `The console could not read whether ${listOfVenues(venues.unknown)} ` +
        `${plural ? 'are' : 'is'} paper or live: treat ${plural ? 'them' : 'it'} as live.`,
    );
  }
  return {
    title: `Trade real money on ${named}?`,
    sentences,
    confirm: `Trade real money on ${named}`,
  };
}

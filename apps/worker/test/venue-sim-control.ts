import { SimControl } from '@sts/app-venue-sim';
import type { WireFill } from '@sts/venues';

/** A fill as the venue simulator itself recorded it (the truth the specs check against). */
export type SimFill = WireFill;

export interface SimBook {
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
}

/** The simulator's control client, plus the two reads the worker specs need most. */
export class VenueSimControl extends SimControl {
  constructor(readonly url: string) {
    super(url);
  }

  /** Every fill of an account, as the venue recorded it. */
  async fillsOf(venue: string, wallet: string): Promise<SimFill[]> {
    const { fills } = await this.accountFills(venue, wallet);
    return fills as unknown as SimFill[];
  }

  /** A venue's public book. */
  async book(venue: string, symbol: string, depth = 50): Promise<SimBook> {
    const response = await fetch(
      `${this.url}/venues/${venue}/book/${encodeURIComponent(symbol)}?depth=${depth}`,
    );
    if (!response.ok) {
      throw new Error(`book ${venue} ${symbol}: HTTP ${response.status}`);
    }
    return (await response.json()) as SimBook;
  }
}

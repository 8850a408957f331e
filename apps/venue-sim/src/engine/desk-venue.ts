import type Big from 'big.js';
import type { VenueProfile } from '../config/market-spec';
import type { Account } from './accounts';
import type { MarketState } from './market-state';
import type { OrderRegistry } from './order-registry';

/**
 * The venue as its order desk and margin checks see it (VenueEngine): its
 * markets, accounts and orders, and the books it publishes after a change.
 */
export interface DeskVenue {
  readonly id: string;
  readonly profile: VenueProfile;
  readonly registry: OrderRegistry;
  market(symbol: string): MarketState;
  account(accountId: string): Account;
  /** Every market's mark price by symbol. */
  marks(): Map<string, Big>;
  /** Sends the book changes since the last publish. */
  publishBooks(): void;
}

/** What the margin checks read of the venue. */
export type MarginVenue = Pick<DeskVenue, 'registry' | 'market' | 'account' | 'marks'>;

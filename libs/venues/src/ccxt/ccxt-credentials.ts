import { RateLimitedError, UnknownOrderError, VenueAuthError, VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange';
import { toVenueError, venueAnswer } from './ccxt-errors';

type CredentialProbe = (exchange: CcxtExchangeLike, unified: string) => Promise<unknown>;

const readBalances: CredentialProbe = (exchange) => exchange.fetchBalance();

/**
 * One signed request per venue that proves a key and changes nothing. Where
 * reads are signed (aster and most venues) a balance read does; Hyperliquid's
 * reads are public (by address), so a signed cancel of an order id that
 * cannot exist is sent: "never placed" proves the signer acts for the wallet.
 * Lighter's balance read is public too; its open orders are read with a token.
 */
const CREDENTIAL_PROBES: Partial<Record<string, CredentialProbe>> = {
  hyperliquid: (exchange, unified) => exchange.cancelOrder('1', unified),
  // Lighter's account reads are public: its open orders need the auth token the key signs.
  lighter: (exchange, unified) => exchange.fetchOpenOrders(unified),
};

/**
 * Proves the credentials before the first order, with one signed request
 * that changes nothing (`CREDENTIAL_PROBES`): a key the venue does not know,
 * or one the wallet never approved, fails here with the venue's own answer
 * (VenueAuthError), not on the first maker order. A network failure or a
 * 429 proves nothing and is thrown as it is.
 */
export async function verifyCredentials(
  venue: string,
  exchange: CcxtExchangeLike,
  anyUnified: () => string,
): Promise<void> {
  const probe = CREDENTIAL_PROBES[venue] ?? readBalances;
  try {
    await probe(exchange, anyUnified());
  } catch (error) {
    const mapped = toVenueError(error, venue);
    // The venue checked the signature, then looked for the order: the key is good.
    if (mapped instanceof UnknownOrderError) {
      return;
    }
    if (mapped instanceof VenueNetworkError || mapped instanceof RateLimitedError) {
      throw mapped;
    }
    const cause = error instanceof Error ? error.message : String(error);
    throw new VenueAuthError(venue, venueAnswer(cause, venue), error);
  }
}

import { StsClient, type SpreadQuery as ApiSpreadQuery } from '@sts/sdk';

/**
 * The REST API as the console uses it: the SDK's client on the page's own
 * origin, the session JWT on every call (`authorize` swaps it on renewal).
 * Overload and proxy failures are retried briefly: a person is waiting.
 */
export function consoleApi(apiBase: string, token: string | null): StsClient {
  return new StsClient({
    // The SDK adds /api/v1 itself: the console's base is that path on this origin.
    baseUrl: apiBase.replace(/\/api\/v1\/?$/, ''),
    token: token ?? undefined,
    retry: { maxRetries: 2, maxDelayMs: 5_000 },
  });
}

/** The spread panel's question as the form holds it: an empty field is not asked. */
export interface SpreadQuery {
  long_exchange: string;
  short_exchange: string;
  maker_leg: string;
  spread_type: string;
  target_spread?: string;
  spread_condition?: string;
}

/** The form's question as GET /markets/{market}/spread takes it (its values are the API's own). */
export function spreadQueryOf(query: SpreadQuery): ApiSpreadQuery {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ) as ApiSpreadQuery;
}

/** The five venues (interface.md: exchange ids), in the order the console lists them. */
export const VENUES = ['hyperliquid', 'paradex', 'lighter', 'extended', 'aster'] as const;

/**
 * When a Paradex JWT is renewed. The venue's tokens "expire every 5 minutes"
 * and it "recommends refreshing JWT well before expiry (e.g., after 3
 * minutes)" (docs.paradex.trade, api/general-information/authentication):
 * renewed once 3/5 of its life has passed.
 */
const RENEW_AFTER_SHARE_OF_LIFE = 3 / 5;

/** The part of ccxt 4.5.84's Paradex class its token cache lives in. */
interface ParadexTokenCache {
  /** ccxt's cached token and its own renewal time in seconds (`authenticateRest`). */
  options: { authToken?: string; expires?: number };
  /** ccxt's clock in seconds, which `authenticateRest` compares `expires` with. */
  nonce(): number;
}

/**
 * ccxt's Paradex renews its JWT by the expiration it signed into the auth
 * request (now + 180 s, `authenticateRest`), not by the token's own life; a
 * token that lives less would be sent after the venue stopped taking it, and
 * every private request refused 401. This `authenticateRest`, given to the
 * instance through ccxt's own constructor config, runs ccxt's and then
 * brings the renewal forward to 3/5 of the token's life as its claims give it
 * (`exp` - `iat`, the venue's own clock on both sides, measured from the
 * client's clock when it asked), never later than ccxt's. A token without
 * those claims keeps ccxt's schedule. A private socket is authenticated once
 * for its life (the venue's docs), so only REST requests need this.
 */
export function paradexJwtRenewal(): Record<string, unknown> {
  return {
    async authenticateRest(
      this: ParadexTokenCache,
      params: Record<string, unknown> = {},
    ): Promise<string> {
      const asked = this.nonce();
      const cached = this.options.authToken;
      const inherited = (Object.getPrototypeOf(this) as Record<string, unknown>)[
        'authenticateRest'
      ] as (params: Record<string, unknown>) => Promise<string>;
      const token = await inherited.call(this, params);
      const life = token !== cached ? jwtLifeSeconds(token) : undefined;
      if (life !== undefined && this.options.expires !== undefined) {
        const renewAt = asked + Math.floor(life * RENEW_AFTER_SHARE_OF_LIFE);
        this.options.expires = Math.min(this.options.expires, renewAt);
      }
      return token;
    },
  };
}

/** A JWT's life in seconds from its claims (`exp` - `iat`); undefined when it does not say. */
export function jwtLifeSeconds(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) {
    return undefined;
  }
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      iat?: unknown;
      exp?: unknown;
    };
    const life = Number(claims.exp) - Number(claims.iat);
    return Number.isFinite(life) && life > 0 ? life : undefined;
  } catch {
    return undefined;
  }
}

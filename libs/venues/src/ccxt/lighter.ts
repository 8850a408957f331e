import type { Order } from 'ccxt';
import { VenueSetupError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { LiveCredentials } from './live-credentials';

/** ccxt 4.5.84 replaces an API key index outside 4..254 with 254 (0-3 are Lighter's own apps'). */
const API_KEY_INDEX = { min: 4, max: 254 };
/** A Lighter API key's private key: 40 bytes, hex. */
const API_PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{80}$/;

/**
 * ccxt's configuration of a Lighter account from a stored credential:
 * `apiKey` is `<account index>:<API key index>` and the secret is that API
 * key's private key (the key registered on the account, not the wallet's).
 * ccxt takes them as options (`accountIndex`, `apiKeyIndex`, and the key in
 * `auths`), and signs with the key through the signer library. Without them
 * ccxt would derive everything from the wallet's own key and register a new
 * API key on every start (`changeApiKey`), replacing the key of any other
 * process that trades the account: the service never gives ccxt a wallet
 * key for Lighter.
 */
export function lighterAccountConfig(credentials: LiveCredentials): {
  credentials: LiveCredentials;
  options: Record<string, unknown>;
} {
  if (!credentials.apiKey && !credentials.secret) {
    return { credentials: {}, options: {} };
  }
  const match = /^(\d+):(\d+)$/.exec(credentials.apiKey ?? '');
  const apiKeyIndex = Number(match?.[2]);
  if (!match || apiKeyIndex < API_KEY_INDEX.min || apiKeyIndex > API_KEY_INDEX.max) {
    throw new VenueSetupError(
      'lighter',
      'the Lighter credential\'s api key must be "<account index>:<API key index>", the API key index 4 to 254',
    );
  }
  const secret = credentials.secret ?? credentials.privateKey ?? '';
  if (!API_PRIVATE_KEY.test(secret)) {
    throw new VenueSetupError(
      'lighter',
      "the Lighter credential's secret must be the API key's private key (40 bytes, hex)",
    );
  }
  const accountIndex = Number(match[1]);
  return {
    credentials: {
      ...(credentials.walletAddress ? { walletAddress: credentials.walletAddress } : {}),
    },
    options: {
      accountIndex,
      apiKeyIndex,
      auths: {
        [accountIndex]: {
          [apiKeyIndex]: { lighterPrivateKey: secret.replace(/^0x/, '') },
        },
      },
    },
  };
}

/** The ccxt pro exchange as Lighter's fetchOrder below uses it. */
type LighterExchange = Pick<CcxtExchangeLike, 'fetchOpenOrders'> & {
  fetchClosedOrders: CcxtExchangeLike['fetchOpenOrders'];
};

/** Closed orders a look-up reads (the venue's most recent, its maximum per request). */
const CLOSED_ORDERS_READ = 100;

/**
 * `fetchOrder` for ccxt's Lighter class, which has none: Lighter answers a
 * placement with a transaction hash, and an order is found among the
 * account's active orders of its market, then its most recent inactive ones,
 * by order index or by our client order index (`params.clientOrderId`).
 * Composed of ccxt's own `fetchOpenOrders` and `fetchClosedOrders`; raises
 * ccxt's OrderNotFound when neither holds it.
 */
export function lighterFetchOrder(
  OrderNotFound: new (message: string) => Error,
): (
  this: LighterExchange,
  id: string,
  symbol?: string,
  params?: Record<string, unknown>,
) => Promise<Order> {
  return async function fetchOrder(this: LighterExchange, id, symbol, params = {}) {
    const { clientOrderId, ...rest } = params;
    const wanted = clientOrderId !== undefined ? String(clientOrderId) : String(id);
    const matches = (order: Order) =>
      clientOrderId !== undefined ? order.clientOrderId === wanted : order.id === wanted;
    if (symbol === undefined) {
      throw new OrderNotFound(`lighter order ${wanted}: a look-up needs the order's market`);
    }
    const open = await this.fetchOpenOrders(symbol, undefined, undefined, rest);
    const found =
      open.find(matches) ??
      (await this.fetchClosedOrders(symbol, undefined, CLOSED_ORDERS_READ, rest)).find(matches);
    if (!found) {
      throw new OrderNotFound(`lighter order ${wanted} not found`);
    }
    return found;
  };
}

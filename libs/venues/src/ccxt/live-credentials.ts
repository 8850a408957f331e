/**
 * Live credentials as stored by the operator. Which fields a venue needs
 * differs (hyperliquid and paradex: wallet + private key; extended: api key +
 * private key; aster, lighter: private key), so all are optional here and
 * ccxt checks its own requirements.
 */
export interface LiveCredentials {
  apiKey?: string;
  secret?: string;
  walletAddress?: string;
  privateKey?: string;
  password?: string;
}

import type { Balances } from 'ccxt';
import { keccak256, stringToBytes, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { RateLimitedError, UnknownOrderError, VenueAuthError, VenueNetworkError } from '../errors';
import type { CcxtExchangeLike } from './ccxt-exchange-like';
import type { LiveCredentials } from './live-credentials';
import { toVenueError, venueAnswer } from './ccxt-errors';
import { lighterTier, refuseStandardTier } from './lighter-tier';

type CredentialProbe = (exchange: CcxtExchangeLike, unified: string) => Promise<unknown>;

const readBalances: CredentialProbe = (exchange) => exchange.fetchBalance();

/**
 * One signed request per venue that proves a key and changes nothing. Where
 * reads are signed (aster and most venues) a balance read does; Hyperliquid's
 * reads are public (by address), so a signed cancel of an order id that
 * cannot exist is sent: "never placed" proves the signer acts for the wallet.
 * Lighter's balance read is public too; its open orders are read with a token,
 * then the account's tier (`accountLimits`, with the same token).
 */
const CREDENTIAL_PROBES: Partial<Record<string, CredentialProbe>> = {
  hyperliquid: (exchange, unified) => exchange.cancelOrder('1', unified),
  // Lighter's account reads are public: its open orders need the auth token the key signs.
  lighter: async (exchange, unified) => {
    await exchange.fetchOpenOrders(unified);
    return lighterTier(exchange);
  },
};

/**
 * What the instance must know once the probe went through. Hyperliquid:
 * ccxt asks the wallet's `userAbstraction` (weight 20 of the egress's 1,200
 * a minute) before its first signed action and keeps the answer; when the
 * venue refused the read (a 429 in a busy minute), ccxt swallows the error,
 * keeps nothing, and asks again before every later action, 20 each, into
 * the minute that refused it. The connect fails instead (transient: the
 * pre-flight waits and opens again).
 */
const KNOWN_AFTER_PROBE: Partial<Record<string, (exchange: CcxtExchangeLike) => void>> = {
  hyperliquid: (exchange) => {
    const known = (exchange as unknown as { options?: Record<string, unknown> }).options?.[
      'enableUnifiedMargin'
    ];
    if (typeof known !== 'boolean') {
      throw new VenueNetworkError(
        'hyperliquid',
        "hyperliquid: the wallet's abstraction (userAbstraction) could not be read",
      );
    }
  },
};

/** What a venue's probe answer must show beyond good credentials: Lighter's tier. */
const ACCOUNT_CHECKS: Partial<Record<string, (answer: unknown) => void>> = {
  lighter: (tier) => refuseStandardTier(String(tier)),
};

/**
 * Proves the credentials before the first order, with one signed request
 * that changes nothing (`CREDENTIAL_PROBES`): a key the venue does not know,
 * or one the wallet never approved, fails here with the venue's own answer
 * (VenueAuthError), not on the first maker order. A network failure or a
 * 429 proves nothing and is thrown as it is. An account the service cannot
 * trade (a Lighter account on the Standard tier) is a VenueSetupError
 * naming why (`ACCOUNT_CHECKS`). Where the probe is a balance read, its
 * answer is returned: the account's balances as of now.
 */
export async function verifyCredentials(
  venue: string,
  exchange: CcxtExchangeLike,
  anyUnified: () => string,
): Promise<Balances | undefined> {
  const probe = CREDENTIAL_PROBES[venue] ?? readBalances;
  let answer: unknown;
  try {
    answer = await probe(exchange, anyUnified());
  } catch (error) {
    const mapped = toVenueError(error, venue);
    // The venue checked the signature, then looked for the order: the key is good.
    if (mapped instanceof UnknownOrderError) {
      KNOWN_AFTER_PROBE[venue]?.(exchange);
      return undefined;
    }
    if (mapped instanceof VenueNetworkError || mapped instanceof RateLimitedError) {
      throw mapped;
    }
    const cause = error instanceof Error ? error.message : String(error);
    throw new VenueAuthError(venue, venueAnswer(cause, venue), error);
  }
  KNOWN_AFTER_PROBE[venue]?.(exchange);
  ACCOUNT_CHECKS[venue]?.(answer);
  return probe === readBalances ? (answer as Balances) : undefined;
}

/**
 * Aster's API wallet as ccxt 4.5.84 signs with it. Aster's v3 requests name
 * `user` (the main wallet: the account) and `signer` (the API wallet whose
 * key signs). ccxt takes `signer` from its `signerAddress` option but `user`
 * from the address of `privateKey`, unless its `cachedWalletAddress` option
 * is set with `privateKeyHashForCachedWalletAddress` = keccak-256 of the
 * private key's text (ccxt's own cache of that address, aster.js `sign`).
 * So a stored credential whose wallet is not the key's own address (wallet =
 * main wallet, secret = API wallet key) becomes those three options, the
 * signer being the key's address (the stored api key, the API wallet's
 * address, is not needed: the venue checks the key's signature against the
 * wallets the user approved, and answers -2015 for any other, which the
 * credential probe reports as the venue's refusal). A main wallet with its
 * own key, or a key that is none, needs nothing (ccxt as it is). Should a
 * later ccxt drop that cache, `user` becomes the API wallet, which has no
 * account: the credential probe fails (VenueAuthError) before any order.
 */
export function asterSignerOptions(credentials: LiveCredentials): Record<string, unknown> {
  const { privateKey, walletAddress } = credentials;
  const signer = privateKey ? addressOfKey(privateKey) : undefined;
  if (!privateKey || !walletAddress || !signer) {
    return {};
  }
  if (signer.toLowerCase() === walletAddress.toLowerCase()) {
    return {};
  }
  return {
    signerAddress: signer,
    cachedWalletAddress: walletAddress,
    privateKeyHashForCachedWalletAddress: keccak256(stringToBytes(privateKey)).slice(2),
  };
}

function addressOfKey(privateKey: string): string | undefined {
  try {
    return privateKeyToAccount(
      (privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`) as Hex,
    ).address;
  } catch {
    return undefined;
  }
}

import { LighterError } from './lighter-errors';
import { NonceBook } from './lighter-nonces';
export const LIGHTER = 'lighter';

/** ccxt's API key indices: 0-3 belong to Lighter's own apps, 255 means "every key". */
const API_KEY_INDEX = { min: 4, max: 254 };
/** Lighter's nonces and indices fit in 48 bits. */
export const MAX_48_BITS = 2 ** 48 - 1;

export { LighterError };

export interface LighterApiKey {
  index: number;
  /** The key's public half as registered (hex); the simulator keeps it, it cannot check Lighter's signatures. */
  publicKey: string;
  /** The nonces this key has used (lighter-nonces.ts). */
  nonces: NonceBook;
}

export interface LighterAccount {
  index: number;
  /** The Ethereum wallet it belongs to (lower-case): the engine account. */
  wallet: string;
  apiKeys: Map<number, LighterApiKey>;
}

/**
 * Lighter's accounts as the simulator keeps them: an account index per
 * Ethereum (L1) wallet and the API keys registered on it. On the venue an
 * owner registers an API key's public key with an L1-signed ChangePubKey
 * transaction (ccxt can do it with the wallet's key); here
 * `POST /dialects/lighter/_sim/api-keys {l1_address, api_key_index, public_key}`
 * does the same and answers the account index.
 *
 * Every transaction names its API key and a nonce, counted per key
 * (`NonceBook`).
 */
export class LighterAccounts {
  private readonly byIndex = new Map<number, LighterAccount>();
  private readonly byWallet = new Map<string, LighterAccount>();
  private nextIndex = 280_000;

  register(l1Address: string, apiKeyIndex: number, publicKey: string): LighterAccount {
    if (!/^0x[0-9a-fA-F]{40}$/.test(l1Address)) {
      throw new LighterError(400, 20001, 'invalid l1 address');
    }
    if (
      !Number.isInteger(apiKeyIndex) ||
      apiKeyIndex < API_KEY_INDEX.min ||
      apiKeyIndex > API_KEY_INDEX.max
    ) {
      throw new LighterError(400, 21109, 'invalid api key index');
    }
    if (!/^(0x)?[0-9a-fA-F]{80}$/.test(publicKey)) {
      throw new LighterError(400, 21110, 'invalid public key');
    }
    const wallet = l1Address.toLowerCase();
    let account = this.byWallet.get(wallet);
    if (!account) {
      this.nextIndex += 1;
      account = { index: this.nextIndex, wallet, apiKeys: new Map() };
      this.byWallet.set(wallet, account);
      this.byIndex.set(account.index, account);
    }
    account.apiKeys.set(apiKeyIndex, {
      index: apiKeyIndex,
      publicKey: publicKey.replace(/^0x/, '').toLowerCase(),
      nonces: new NonceBook(),
    });
    return account;
  }

  ofIndex(index: unknown): LighterAccount {
    const account = this.byIndex.get(Number(index));
    if (!account) {
      throw new LighterError(400, 21100, 'account not found');
    }
    return account;
  }

  ofWallet(l1Address: string): LighterAccount | undefined {
    return this.byWallet.get(l1Address.toLowerCase());
  }

  apiKey(account: LighterAccount, index: unknown): LighterApiKey {
    const key = account.apiKeys.get(Number(index));
    if (!key) {
      throw new LighterError(400, 21109, 'api key not found');
    }
    return key;
  }

  /**
   * The account an auth token speaks for. ccxt sends the token its signer
   * makes (`<deadline>:<account>:<api key>:<signature>`); the simulator
   * checks its form, its deadline and that the key is registered.
   */
  ofAuthToken(token: string | string[] | undefined): LighterAccount {
    const text = Array.isArray(token) ? token[0] : token;
    const match = /^(\d+):(\d+):(\d+):([0-9a-fA-F]+)$/.exec(text ?? '');
    if (!match) {
      throw new LighterError(401, 20013, 'invalid auth token');
    }
    const [, deadline, accountIndex, keyIndex] = match;
    if (Number(deadline) * 1000 < Date.now()) {
      throw new LighterError(401, 20013, 'auth token expired');
    }
    const account = this.byIndex.get(Number(accountIndex));
    if (!account || !account.apiKeys.has(Number(keyIndex))) {
      throw new LighterError(401, 20013, 'invalid auth token');
    }
    return account;
  }
}

import { randomBytes } from 'node:crypto';

/** A refusal in Extended's shape: `{status: "ERROR", error: {code, message}}`. */
export class ExtendedError extends Error {
  override readonly name = 'ExtendedError';

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  reply() {
    return {
      status: this.status,
      body: { status: 'ERROR', error: { code: this.code, message: this.message } },
    };
  }
}

/** A key the venue does not know: a bare 401 (ccxt then maps the status). */
export class ExtendedUnauthorized extends Error {
  override readonly name = 'ExtendedUnauthorized';

  reply() {
    return { status: 401, body: {} };
  }
}

export interface ExtendedAccount {
  apiKey: string;
  /** The Ethereum wallet it belongs to (lower-case): the engine account. */
  wallet: string;
  accountId: number;
  /** The stark public key (x coordinate) its orders are signed with. */
  starkKey: bigint;
  /** The StarkEx position (vault) id its orders settle into. */
  vault: number;
}

/**
 * Extended's accounts as the simulator keeps them. On the venue a trader
 * creates an API key for an account in its app and registers the account's
 * stark key; here `POST /dialects/extended/_sim/api-keys {wallet, stark_key}`
 * does the same for a wallet and answers the key, the account id and the
 * vault. A request's `X-Api-Key` names the account.
 */
export class ExtendedAccounts {
  private readonly byKey = new Map<string, ExtendedAccount>();
  private nextAccountId = 3_000;
  private nextVault = 500_000;

  issue(wallet: string, starkKey: string): ExtendedAccount {
    if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) {
      throw new ExtendedError(400, 1133, 'wallet must be a 0x-prefixed address');
    }
    if (!/^0x[0-9a-fA-F]{1,64}$/.test(starkKey)) {
      throw new ExtendedError(400, 1100, 'Invalid Starknet public key.');
    }
    this.nextAccountId += 1;
    this.nextVault += 1;
    const account: ExtendedAccount = {
      apiKey: randomBytes(16).toString('hex'),
      wallet: wallet.toLowerCase(),
      accountId: this.nextAccountId,
      starkKey: BigInt(starkKey),
      vault: this.nextVault,
    };
    this.byKey.set(account.apiKey, account);
    return account;
  }

  ofKey(apiKey: string | string[] | undefined): ExtendedAccount {
    const key = Array.isArray(apiKey) ? apiKey[0] : apiKey;
    const account = key ? this.byKey.get(key) : undefined;
    if (!account) {
      throw new ExtendedUnauthorized('unknown api key');
    }
    return account;
  }
}

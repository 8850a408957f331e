import { Injectable } from '@nestjs/common';
import { BudgetClient, BudgetRefusedError } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import { isAppError } from '@sts/platform';
import { CredentialStore } from '@sts/persistence';
import type { StoredVenueCredential, VenueBalance, VenueClient, VenuePosition } from '@sts/venues';
import { AccountReaders } from './account-readers';

/** One venue account of a caller: the wallet (lowercase) on one exchange. */
export interface VenueAccount {
  exchange: string;
  wallet: string;
}

/**
 * What to read of a venue account: `what` names it (in the cache's key and in
 * the error of a failed read), `read` asks the account's client for it.
 */
export interface AccountReading<T> {
  what: string;
  read: (client: VenueClient) => Promise<T>;
}

export const POSITIONS: AccountReading<VenuePosition[]> = {
  what: 'positions',
  read: (client) => client.positions(),
};

export const BALANCES: AccountReading<VenueBalance[]> = {
  what: 'balances',
  read: (client) => client.balances(),
};

/** What the venue answered at `asOf`, or why it could not be read. */
export type AccountRead<T> =
  { ok: true; value: T; asOf: Date } | { ok: false; error: string; asOf: Date };

/**
 * How long one read answers every request for the account: a replica sends
 * at most one read of each kind (positions, balances) per venue account per
 * window, on the account's kept reader, whatever the callers poll. Each read
 * is paid from the account's rate budget: it holds a share of the account,
 * as a trade would, while it runs (BudgetClient.whileHolding), so the
 * account's trades are re-divided around it and reading never takes the
 * venue past its limit.
 */
export const ACCOUNT_READ_CACHE_MS = 2_000;
/** A venue that has not answered by then is reported as unreadable, not waited for. */
export const ACCOUNT_READ_TIMEOUT_MS = 5_000;

interface CachedRead {
  expiresAtMs: number;
  read: Promise<AccountRead<unknown>>;
}

/**
 * Reads of the caller's venue accounts with the caller's stored credential:
 * budgeted, cached for ACCOUNT_READ_CACHE_MS per account and kind, given up
 * after ACCOUNT_READ_TIMEOUT_MS. A read never throws: an account that cannot
 * be read answers with its error, so the caller's other accounts still answer.
 */
@Injectable()
export class VenueAccountReads {
  private readonly cache = new Map<string, CachedRead>();

  constructor(
    private readonly credentials: CredentialStore,
    private readonly budget: BudgetClient,
    private readonly readers: AccountReaders,
  ) {}

  /** The account's `reading`, from the cache while a read of the last window stands (in flight or done). */
  read<T>(
    userId: string,
    account: VenueAccount,
    reading: AccountReading<T>,
  ): Promise<AccountRead<T>> {
    const key = `${accountKey(userId, account)}\u0000${reading.what}`;
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAtMs > now) {
      return cached.read as Promise<AccountRead<T>>;
    }
    this.forgetExpired(now);
    const read = this.readNow(userId, account, reading);
    this.cache.set(key, { expiresAtMs: now + ACCOUNT_READ_CACHE_MS, read });
    return read;
  }

  private async readNow<T>(
    userId: string,
    { exchange, wallet }: VenueAccount,
    reading: AccountReading<T>,
  ): Promise<AccountRead<T>> {
    let credential: StoredVenueCredential;
    try {
      const secret = await this.credentials.openForRead(userId, exchange, wallet);
      credential = { apiKey: secret.api_key, apiSecret: secret.api_secret, wallet };
    } catch (error) {
      const why = isAppError(error) && error.code === 'credentials_not_linked';
      return unreadable(
        why ? `no active ${exchange} credential for ${wallet}` : 'credential could not be opened',
      );
    }
    // One reader per account, whatever is read through it.
    const key = accountKey(userId, { exchange, wallet });
    try {
      return await this.budget.whileHolding({ venue: exchange as VenueId, wallet }, () =>
        this.readVenue(key, exchange, credential, reading),
      );
    } catch (error) {
      return unreadable(
        error instanceof BudgetRefusedError
          ? `${exchange} not read: the account's rate budget is held by its trades at the venue's minimum`
          : `${exchange} not read: ${messageOf(error)}`,
      );
    }
  }

  /** The reading through the account's reader; an unreadable answer for any failure or a silent venue. */
  private async readVenue<T>(
    key: string,
    exchange: string,
    credential: StoredVenueCredential,
    reading: AccountReading<T>,
  ): Promise<AccountRead<T>> {
    try {
      const value = await this.readers.read({ key, exchange, credential }, reading.read, {
        ms: ACCOUNT_READ_TIMEOUT_MS,
        message: `${exchange} did not answer within ${ACCOUNT_READ_TIMEOUT_MS} ms`,
      });
      return { ok: true, value, asOf: new Date() };
    } catch (error) {
      return unreadable(`${exchange} ${reading.what} unavailable: ${messageOf(error)}`);
    }
  }

  private forgetExpired(now: number): void {
    for (const [key, entry] of this.cache) {
      if (entry.expiresAtMs <= now) {
        this.cache.delete(key);
      }
    }
  }
}

const accountKey = (userId: string, { exchange, wallet }: VenueAccount): string =>
  `${userId}\u0000${exchange}\u0000${wallet}`;

const unreadable = (error: string): AccountRead<never> => ({
  ok: false,
  error,
  asOf: new Date(),
});

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

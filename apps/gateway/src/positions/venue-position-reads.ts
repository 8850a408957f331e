import { Injectable } from '@nestjs/common';
import { BudgetClient, BudgetRefusedError } from '@sts/budget-client';
import type { VenueId } from '@sts/domain';
import { isAppError } from '@sts/platform';
import { CredentialStore } from '@sts/persistence';
import type { StoredVenueCredential, VenuePosition } from '@sts/venues';
import { AccountReaders } from './account-readers';

/** One venue account's positions as the venue reported them at `asOf`, or why it could not be read. */
export type AccountRead =
  { ok: true; positions: VenuePosition[]; asOf: Date } | { ok: false; error: string; asOf: Date };

/**
 * How long one read answers every request for the account: a replica sends
 * at most one read (the positions, on the account's kept reader) per venue
 * account per window, whatever the callers poll. Each read is paid from the
 * account's rate budget: it holds a share of the account, as a trade would,
 * while it runs (BudgetClient.whileHolding), so the account's trades are
 * re-divided around it and reading never takes the venue past its limit.
 */
export const POSITIONS_CACHE_MS = 2_000;
/** A venue that has not answered by then is reported as unreadable, not waited for. */
export const POSITIONS_READ_TIMEOUT_MS = 5_000;

interface CachedRead {
  expiresAtMs: number;
  read: Promise<AccountRead>;
}

/** The venues' own positions of the caller's accounts, read with the caller's stored credentials. */
@Injectable()
export class VenuePositionReads {
  private readonly cache = new Map<string, CachedRead>();

  constructor(
    private readonly credentials: CredentialStore,
    private readonly budget: BudgetClient,
    private readonly readers: AccountReaders,
  ) {}

  /** The account's positions, from the cache while a read of the last window stands (in flight or done). */
  read(userId: string, exchange: string, wallet: string): Promise<AccountRead> {
    const key = `${userId}\u0000${exchange}\u0000${wallet}`;
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.expiresAtMs > now) {
      return cached.read;
    }
    this.forgetExpired(now);
    const read = this.readNow(key, userId, exchange, wallet);
    this.cache.set(key, { expiresAtMs: now + POSITIONS_CACHE_MS, read });
    return read;
  }

  private async readNow(
    key: string,
    userId: string,
    exchange: string,
    wallet: string,
  ): Promise<AccountRead> {
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
    try {
      return await this.budget.whileHolding({ venue: exchange as VenueId, wallet }, () =>
        this.readVenue(key, exchange, credential),
      );
    } catch (error) {
      return unreadable(
        error instanceof BudgetRefusedError
          ? `${exchange} not read: the account's rate budget is held by its trades at the venue's minimum`
          : `${exchange} not read: ${messageOf(error)}`,
      );
    }
  }

  /** The positions through the account's reader; an unreadable answer for any failure or a silent venue. */
  private async readVenue(
    key: string,
    exchange: string,
    credential: StoredVenueCredential,
  ): Promise<AccountRead> {
    try {
      const positions = await this.readers.read(
        { key, exchange, credential },
        (client) => client.positions(),
        {
          ms: POSITIONS_READ_TIMEOUT_MS,
          message: `${exchange} did not answer within ${POSITIONS_READ_TIMEOUT_MS} ms`,
        },
      );
      return { ok: true, positions, asOf: new Date() };
    } catch (error) {
      return unreadable(`${exchange} positions unavailable: ${messageOf(error)}`);
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

const unreadable = (error: string): AccountRead => ({ ok: false, error, asOf: new Date() });

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

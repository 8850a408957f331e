import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { withTimeout } from '@sts/platform';
import type { StoredVenueCredential, VenueClient } from '@sts/venues';

/** Builds a client of one venue account with the caller's credential (a factory, so specs of the module need no venue). */
export type OpenAccountClient = (
  venue: string,
  credential: StoredVenueCredential,
) => Promise<VenueClient>;
export const OPEN_ACCOUNT_CLIENT = Symbol('OPEN_ACCOUNT_CLIENT');

/**
 * How long a reader stays open after its last read. A caller polling its
 * positions or balances keeps using one reader, so a read costs the venue one
 * request (the positions, the balances) instead of markets, registration and
 * the read each time.
 */
export const READER_IDLE_MS = 60_000;

interface Reader {
  /** Which credential the reader was opened with (a hash: a rotated key opens a new reader). */
  credential: string;
  client: Promise<VenueClient>;
  /** Reads under way: reads of different kinds (positions, balances) share the reader at once. */
  reading: number;
  idle?: NodeJS.Timeout;
}

/**
 * One read-only client per venue account (`connectForReads`: markets and
 * the account, no stream, no credential probe), kept while reads keep coming
 * and closed READER_IDLE_MS after the last one ends. A reader whose read failed or
 * did not answer in time is closed, so the next read opens a fresh one.
 */
@Injectable()
export class AccountReaders implements OnModuleDestroy {
  private readonly readers = new Map<string, Reader>();

  constructor(@Inject(OPEN_ACCOUNT_CLIENT) private readonly openClient: OpenAccountClient) {}

  /** `read` with the account's reader, refused after `timeoutMs` (`timeoutMessage`). */
  async read<T>(
    account: { key: string; exchange: string; credential: StoredVenueCredential },
    read: (client: VenueClient) => Promise<T>,
    timeout: { ms: number; message: string },
  ): Promise<T> {
    const reader = this.readerOf(account.key, account.exchange, account.credential);
    if (reader.idle) {
      clearTimeout(reader.idle);
      reader.idle = undefined;
    }
    reader.reading += 1;
    try {
      return await withTimeout(reader.client.then(read), timeout.ms, { message: timeout.message });
    } catch (error) {
      void this.close(account.key, reader);
      throw error;
    } finally {
      reader.reading -= 1;
      this.idleFrom(account.key, reader);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const open = [...this.readers.entries()];
    await Promise.all(open.map(([key, reader]) => this.close(key, reader)));
  }

  private readerOf(key: string, exchange: string, stored: StoredVenueCredential): Reader {
    const credential = fingerprint(stored);
    const current = this.readers.get(key);
    if (current && current.credential === credential) {
      return current;
    }
    if (current) {
      void this.close(key, current);
    }
    // Opening inside a promise: a refusal to build the client fails the read, not the caller.
    const client = Promise.resolve().then(async () => {
      const opened = await this.openClient(exchange, stored);
      await opened.connectForReads();
      return opened;
    });
    const reader: Reader = { credential, client, reading: 0 };
    this.readers.set(key, reader);
    return reader;
  }

  /** Closes the reader READER_IDLE_MS after its last read ends, unless another read uses it first. */
  private idleFrom(key: string, reader: Reader): void {
    if (this.readers.get(key) !== reader || reader.reading > 0) {
      return;
    }
    reader.idle = setTimeout(() => void this.close(key, reader), READER_IDLE_MS);
    reader.idle.unref();
  }

  private async close(key: string, reader: Reader): Promise<void> {
    if (this.readers.get(key) === reader) {
      this.readers.delete(key);
    }
    clearTimeout(reader.idle);
    // A hung open still gets closed once it settles.
    await reader.client.then((opened) => opened.close()).catch(() => undefined);
  }
}

const fingerprint = (credential: StoredVenueCredential): string =>
  createHash('sha256')
    .update(`${credential.apiKey}\u0000${credential.apiSecret}\u0000${credential.wallet}`)
    .digest('hex');

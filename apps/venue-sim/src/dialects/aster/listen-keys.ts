import { randomBytes } from 'node:crypto';

/** A listenKey is valid 60 minutes after its creation or last keepalive (Aster docs). */
export const LISTEN_KEY_VALIDITY_MS = 60 * 60_000;

interface ListenKey {
  key: string;
  accountId: string;
  expiresAtMs: number;
}

/**
 * The user data stream keys: one active key per account. `POST` returns the
 * active key (extended) or a new one, `PUT` extends it, `DELETE` ends it.
 */
export class ListenKeys {
  private readonly byKey = new Map<string, ListenKey>();
  private readonly byAccount = new Map<string, ListenKey>();

  open(accountId: string, nowMs: number): string {
    const active = this.activeOf(accountId, nowMs);
    if (active) {
      active.expiresAtMs = nowMs + LISTEN_KEY_VALIDITY_MS;
      return active.key;
    }
    const stale = this.byAccount.get(accountId);
    if (stale) {
      this.byKey.delete(stale.key);
    }
    const entry = {
      key: randomBytes(32).toString('hex'),
      accountId,
      expiresAtMs: nowMs + LISTEN_KEY_VALIDITY_MS,
    };
    this.byKey.set(entry.key, entry);
    this.byAccount.set(accountId, entry);
    return entry.key;
  }

  /** Extends the account's active key; false when it has none. */
  keepAlive(accountId: string, nowMs: number): boolean {
    const active = this.activeOf(accountId, nowMs);
    if (!active) {
      return false;
    }
    active.expiresAtMs = nowMs + LISTEN_KEY_VALIDITY_MS;
    return true;
  }

  /** Ends the account's key; returns it (its sockets close), undefined when there was none. */
  close(accountId: string, nowMs: number): string | undefined {
    const active = this.activeOf(accountId, nowMs);
    if (!active) {
      return undefined;
    }
    this.byKey.delete(active.key);
    this.byAccount.delete(accountId);
    return active.key;
  }

  /** The account a key streams, while the key is valid. */
  accountOf(key: string, nowMs: number): string | undefined {
    const entry = this.byKey.get(key);
    return entry && entry.expiresAtMs > nowMs ? entry.accountId : undefined;
  }

  private activeOf(accountId: string, nowMs: number): ListenKey | undefined {
    const entry = this.byAccount.get(accountId);
    return entry && entry.expiresAtMs > nowMs ? entry : undefined;
  }
}

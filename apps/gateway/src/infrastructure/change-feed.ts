import { Client } from 'pg';
import {
  CHANGE_NOTICES_CHANNEL,
  EDGE_POSTGRES_LIMITS,
  parseChangeNotice,
  type ChangeNotice,
} from '@sts/persistence';

/** A notice, or `reset`: the feed lost (or just gained) its connection, so anything cached may be stale. */
export type ChangeListener = (change: ChangeNotice | 'reset') => void;

const RECONNECT_MS = 1_000;

interface Deferred {
  promise: Promise<boolean>;
  resolve: (fenced: boolean) => void;
  reject: (error: unknown) => void;
}

const deferred = (): Deferred => {
  let resolve!: (fenced: boolean) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<boolean>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
};

/** node-postgres' error when an answer did not come within the query timeout. */
const isReadTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Query read timeout';

/**
 * The gateway's per-request caches (API keys, maintenance, kill switch) stay
 * exact through this feed: one Postgres connection LISTENing to the change
 * notices the tables' triggers send on commit.
 *
 * A notice travels on its own, so a request could otherwise overtake the
 * notice of a revocation that committed before it arrived. `fence()` closes
 * that gap: it sends `SELECT 1` on the listening connection, and Postgres
 * delivers every notice of a transaction committed before that query started
 * ahead of the query's answer (a notifying commit signals the listeners
 * before its client hears "COMMIT"). One fence in flight at a time; requests
 * arriving meanwhile share the next one, so under load a fence costs one
 * round trip per batch of requests, not per request.
 */
export class ChangeFeed {
  private client?: Client;
  private listening = false;
  private stopped = false;
  private reconnectTimer?: NodeJS.Timeout;
  private readonly listeners = new Set<ChangeListener>();
  /** Fences sent so far; a fence's number is the count once it is sent. */
  private sent = 0;
  /** The newest fence answered on the current connection. */
  private answered = 0;
  private inFlight?: { number: number; done: Promise<boolean> };
  private queued?: Deferred;

  constructor(
    private readonly databaseUrl: string,
    private readonly applicationName: string,
  ) {}

  /** True while notices are flowing: a row read now may be cached, since its change will be heard. */
  get isListening(): boolean {
    return this.listening;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
    }
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  /**
   * A mark taken when a request arrives: `fence(mark)` later in the same
   * request is already satisfied by any fence sent after it (the one its
   * authentication waited for), so a request pays for one fence at most.
   */
  mark(): number {
    return this.sent;
  }

  /**
   * Resolves true once every change committed before `mark` (default: now)
   * has reached the listeners; false when the feed cannot promise that (not
   * listening, or the fence failed): the caller then reads Postgres itself.
   * Rejects with the timeout when Postgres did not answer the fence within
   * the query timeout: the request is a 503 at once, not after a second wait
   * for its own read of an unreachable Postgres.
   */
  fence(mark = this.sent): Promise<boolean> {
    if (!this.listening || !this.client) {
      return Promise.resolve(false);
    }
    if (this.answered > mark) {
      return Promise.resolve(true);
    }
    if (this.inFlight && this.inFlight.number > mark) {
      return this.inFlight.done;
    }
    if (!this.inFlight) {
      return this.sendFence(this.client);
    }
    this.queued ??= deferred();
    return this.queued.promise;
  }

  private sendFence(client: Client): Promise<boolean> {
    const number = ++this.sent;
    const done = client.query('SELECT 1').then(
      () => {
        if (this.client !== client || !this.listening) {
          return false;
        }
        this.answered = Math.max(this.answered, number);
        return true;
      },
      (error: unknown) => {
        // A fence that timed out or failed leaves the connection in doubt: start over.
        if (!isReadTimeout(error)) {
          this.lost(client);
          return false;
        }
        const waiting = this.queued;
        this.queued = undefined;
        this.lost(client);
        waiting?.reject(error);
        throw error;
      },
    );
    this.inFlight = { number, done };
    const settled = (): void => {
      this.inFlight = undefined;
      const waiting = this.queued;
      this.queued = undefined;
      if (!waiting) {
        return;
      }
      if (this.listening && this.client) {
        void this.sendFence(this.client).then(waiting.resolve, waiting.reject);
      } else {
        waiting.resolve(false);
      }
    };
    void done.then(settled, settled);
    return done;
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: this.applicationName,
      ...EDGE_POSTGRES_LIMITS,
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (this.client !== client || message.channel !== CHANGE_NOTICES_CHANNEL) {
        return;
      }
      const notice = parseChangeNotice(message.payload ?? '');
      // A notice this version cannot read may still concern a cache: drop them all.
      this.emit(notice ?? 'reset');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_NOTICES_CHANNEL}`);
    } catch {
      await client.end().catch(() => undefined);
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.listening = true;
    // Whatever was cached while no one listened may have changed unheard.
    this.emit('reset');
  }

  private lost(client: Client): void {
    if (this.client !== client) {
      return;
    }
    this.drop();
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private drop(): void {
    this.client = undefined;
    this.listening = false;
    this.emit('reset');
    const waiting = this.queued;
    this.queued = undefined;
    waiting?.resolve(false);
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) {
      return;
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private emit(change: ChangeNotice | 'reset'): void {
    for (const listener of this.listeners) {
      listener(change);
    }
  }
}

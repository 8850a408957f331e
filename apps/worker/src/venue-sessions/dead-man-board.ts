import {
  DEAD_MAN_STATE,
  deadManBucket,
  deadManKey,
  type DeadManState,
  encodeEnvelope,
  envelope,
} from '@sts/contracts';
import { replicasRefusal, type Logger, type NatsConnection } from '@sts/platform';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { DeadManStatus } from './dead-man-keeper';

/** How often every row is put again, so the bucket's TTL drops only a dead worker's rows. */
const REPUBLISH_MS = 60_000;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Where operators read the switches (`ops dead-man list`): each account's
 * status, as this worker keeps it, put into a JetStream KV bucket on every
 * change (a message on `$KV.<bucket>.<key>`), and again every REPUBLISH_MS
 * while held. An idle account's row is deleted. Best effort: a put that
 * fails is logged and the next change or republish puts it again; nothing
 * here ever waits on a trade's path.
 */
export class DeadManBoard {
  private kv?: Promise<KV>;
  private readonly rows = new Map<string, DeadManState>();
  private readonly timer: NodeJS.Timeout;
  private warned = false;
  /** The bucket's copies were brought to NATS_REPLICAS by this worker (once). */
  private replicasSettled = false;

  constructor(
    private readonly nats: NatsConnection,
    private readonly natsPrefix: string,
    private readonly workerId: string,
    private readonly logger: Logger,
    /** NATS_REPLICAS: copies of the bucket. */
    private readonly replicas = 1,
  ) {
    this.timer = setInterval(() => this.republish(), REPUBLISH_MS);
    this.timer.unref();
  }

  /** Records one account's status (the keeper's `onStatus`). */
  show(venue: string, wallet: string, status: DeadManStatus): void {
    const key = deadManKey(venue, wallet, this.workerId);
    if (status.state === 'idle') {
      this.rows.delete(key);
      this.write((kv) => kv.delete(key));
      return;
    }
    const row: DeadManState = {
      venue,
      wallet,
      worker_id: this.workerId,
      state: status.state,
      armed_until: iso(status.armedUntilMs),
      last_refresh_at: iso(status.lastRefreshAtMs),
      reason: status.reason,
      timeout_ms: status.timeoutMs,
      updated_at: new Date().toISOString(),
    };
    this.rows.set(key, row);
    this.put(key, row);
  }

  close(): void {
    clearInterval(this.timer);
  }

  private republish(): void {
    for (const [key, row] of this.rows) {
      this.put(key, { ...row, updated_at: new Date().toISOString() });
    }
  }

  private put(key: string, row: DeadManState): void {
    this.write((kv) => kv.put(key, encodeEnvelope(envelope(DEAD_MAN_STATE, row))));
  }

  private write(change: (kv: KV) => Promise<unknown>): void {
    void this.bucket()
      .then(change)
      .then(() => (this.warned = false))
      .catch((error: unknown) => {
        this.kv = undefined;
        if (!this.warned) {
          this.warned = true;
          this.logger.warn({ err: error }, 'dead-man state not published; retrying on the next');
        }
      });
  }

  /**
   * The bucket, created on first use (every worker may: creating an existing
   * one is a no-op), its copies brought to NATS_REPLICAS where an earlier
   * setting made it with another count, once per worker, as the streams are
   * at boot: a bucket opened again after a failed write is left as it is, so
   * a worker of an older setting still running beside a newer one does not
   * undo the newer one's count at every hiccup (each would, in turn, forever).
   */
  private bucket(): Promise<KV> {
    const { name, ttlMs } = deadManBucket(this.natsPrefix);
    this.kv ??= new Kvm(this.nats)
      .create(name, { history: 1, ttl: ttlMs, replicas: this.replicas })
      .then(async (kv) => {
        if (this.replicasSettled) {
          return kv;
        }
        const { streamInfo } = await kv.status();
        if (streamInfo.config.num_replicas !== this.replicas) {
          const jsm = await jetstreamManager(this.nats);
          await jsm.streams.update(streamInfo.config.name, { num_replicas: this.replicas });
        }
        this.replicasSettled = true;
        return kv;
      })
      .catch((error: unknown) => {
        throw replicasRefusal(error, this.replicas, `KV bucket ${name}`);
      });
    return this.kv;
  }
}

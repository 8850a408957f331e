import type { EntityManager } from 'typeorm';
import { queryRows } from '../query-rows';

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'canceled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * The event type of a delivery the owner asked for to try an endpoint (POST
 * /webhooks/{id}/test), beside the WEBHOOK_EVENT_TYPES an endpoint subscribes to.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** One attempt of a delivery, as its log keeps it (the newest MAX_LOGGED_ATTEMPTS). */
export interface WebhookAttempt {
  /** ISO 8601. */
  at: string;
  /** The answer's HTTP status; null when none came (refused, timed out, unreachable). */
  status_code: number | null;
  /** What went wrong, in a line; null for a 2xx. */
  error: string | null;
  duration_ms: number;
}

/** The newest attempts a delivery keeps in its log (its count goes on). */
export const MAX_LOGGED_ATTEMPTS = 20;

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  /** The `webhook-id` of every attempt. */
  messageId: string;
  eventType: string;
  /** The Standard Webhooks body `{type, timestamp, data}` (a chat format is rendered from it). */
  payload: { type: string; timestamp: string; data: unknown };
  status: WebhookDeliveryStatus;
  attempts: number;
  attemptLog: WebhookAttempt[];
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A delivery owed: one event for one endpoint. */
export interface NewWebhookDelivery {
  endpointId: string;
  messageId: string;
  /** The event it comes from: a delivery per endpoint per source, however often the event is read. */
  source: string;
  eventType: string;
  payload: WebhookDelivery['payload'];
}

interface StoredRow {
  id: string;
  endpoint_id: string;
  message_id: string;
  event_type: string;
  payload: WebhookDelivery['payload'];
  status: WebhookDeliveryStatus;
  attempts: number;
  attempt_log: WebhookAttempt[];
  next_attempt_at: Date;
  created_at: Date;
  finished_at: Date | null;
}

const COLUMNS = [
  'endpoint_id',
  'message_id',
  'event_type',
  'payload',
  'status',
  'attempts',
  'attempt_log',
  'next_attempt_at',
  'created_at',
  'finished_at',
];

/** The columns every statement here returns, of the table as `alias` names it. */
const columns = (alias: string): string =>
  [`${alias}.id::text AS id`, ...COLUMNS.map((column) => `${alias}.${column}`)].join(', ');

const deliveryOf = (row: StoredRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  messageId: row.message_id,
  eventType: row.event_type,
  payload: row.payload,
  status: row.status,
  attempts: row.attempts,
  attemptLog: row.attempt_log,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

/** What an attempt came to: delivered, due again at a time, or given up. */
export type AttemptOutcome =
  { kind: 'delivered' } | { kind: 'retry'; nextAttemptAt: Date } | { kind: 'failed' };

/**
 * The only SQL on `webhook_deliveries` (migration Webhooks1763701200000).
 * The dispatcher enqueues each event once per endpoint, claims what is due
 * (an endpoint's oldest pending delivery only, so each endpoint gets its
 * events in order; a claim is a lease, so two dispatchers never send one
 * delivery at once and a dead one's claim lapses) and records each attempt.
 * The API reads an endpoint's deliveries.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Owes the deliveries; one already owed for its endpoint and source is left as it is. */
  async enqueue(deliveries: readonly NewWebhookDelivery[]): Promise<number> {
    if (deliveries.length === 0) {
      return 0;
    }
    const rows = await queryRows<{ id: string }>(
      this.manager,
      `INSERT INTO webhook_deliveries (endpoint_id, message_id, source, event_type, payload)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[])
       ON CONFLICT (endpoint_id, source) DO NOTHING
       RETURNING id`,
      [
        deliveries.map((one) => one.endpointId),
        deliveries.map((one) => one.messageId),
        deliveries.map((one) => one.source),
        deliveries.map((one) => one.eventType),
        deliveries.map((one) => JSON.stringify(one.payload)),
      ],
    );
    return rows.length;
  }

  /**
   * Claims up to `limit` deliveries due now, for `claimMs`: each the oldest
   * pending delivery of its endpoint (a later one waits for it), not claimed
   * by another dispatcher whose claim still runs.
   */
  async claimDue(limit: number, claimMs: number): Promise<WebhookDelivery[]> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `WITH heads AS (
         SELECT DISTINCT ON (endpoint_id) id, next_attempt_at, claimed_until
         FROM webhook_deliveries WHERE status = 'pending'
         ORDER BY endpoint_id, id
       ), due AS (
         SELECT d.id FROM webhook_deliveries d JOIN heads h ON h.id = d.id
         WHERE h.next_attempt_at <= now()
           AND (h.claimed_until IS NULL OR h.claimed_until < now())
         ORDER BY d.id LIMIT $1
         FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE webhook_deliveries w
       SET claimed_until = now() + make_interval(secs => $2::double precision / 1000)
       FROM due WHERE w.id = due.id AND w.status = 'pending'
       RETURNING ${columns('w')}`,
      [limit, claimMs],
    );
    return rows.map(deliveryOf).sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** Records an attempt and what it came to; the claim ends with it. */
  async recordAttempt(id: string, attempt: WebhookAttempt, outcome: AttemptOutcome): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_deliveries SET
         attempts = attempts + 1,
         attempt_log = (
           SELECT COALESCE(jsonb_agg(entry ORDER BY n), '[]'::jsonb) FROM (
             SELECT entry, n FROM jsonb_array_elements(attempt_log || jsonb_build_array($2::jsonb))
               WITH ORDINALITY AS logged(entry, n)
             ORDER BY n DESC LIMIT $5
           ) newest
         ),
         status = $3,
         next_attempt_at = COALESCE($4::timestamptz, next_attempt_at),
         claimed_until = NULL,
         finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
       WHERE id = $1::bigint`,
      [
        id,
        JSON.stringify(attempt),
        outcome.kind === 'retry' ? 'pending' : outcome.kind,
        outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
        MAX_LOGGED_ATTEMPTS,
      ],
    );
  }

  /**
   * Hands back a claimed delivery unsent, no attempt recorded (its dispatcher
   * is stopping): due again at once for any dispatcher, without waiting for
   * the claim to lapse.
   */
  async release(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_deliveries SET claimed_until = NULL WHERE id = $1::bigint AND status = 'pending'`,
      [id],
    );
  }

  /** Gives up what an endpoint still owes (deleted or disabled): its pending deliveries are canceled. */
  async cancelPendingOf(endpointId: string): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.manager,
      `UPDATE webhook_deliveries SET status = 'canceled', claimed_until = NULL, finished_at = now()
       WHERE endpoint_id = $1 AND status = 'pending' RETURNING id::text AS id`,
      [endpointId],
    );
    return rows.length;
  }

  /**
   * An endpoint's deliveries, newest first, `limit` of them, before the
   * delivery `beforeId` when given (the next page). The caller has checked
   * the endpoint is the user's.
   */
  async pageOf(endpointId: string, limit: number, beforeId?: string): Promise<WebhookDelivery[]> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${columns('d')} FROM webhook_deliveries d
       WHERE endpoint_id = $1 AND ($3::bigint IS NULL OR id < $3::bigint)
       ORDER BY id DESC LIMIT $2`,
      [endpointId, limit, beforeId ?? null],
    );
    return rows.map(deliveryOf);
  }
}

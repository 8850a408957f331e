import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@sts/platform';
import { queryRows } from '../query-rows';

/** The events an endpoint may ask for (decisions section 8). */
export const WEBHOOK_EVENT_TYPES = [
  'trade.status_changed',
  'trade.fill',
  'trade.failed',
  'system.kill_switch',
  'system.maintenance',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** How a delivery's body is rendered: Standard Webhooks' own, or what a chat service takes. */
export const WEBHOOK_FORMATS = ['standard', 'discord', 'slack', 'telegram'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** An endpoint as the API shows it (never its secret). */
export interface WebhookEndpoint {
  id: string;
  userId: string;
  url: string;
  events: WebhookEventType[];
  format: WebhookFormat;
  description: string;
  createdAt: Date;
  /** Since when its deliveries have been failing (the first of the current run); null: not failing. */
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** An endpoint with its sealed signing secret: for the dispatcher alone. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: SealedSecret;
}

export interface NewWebhookEndpoint {
  userId: string;
  url: string;
  events: readonly WebhookEventType[];
  format: WebhookFormat;
  description: string;
  secret: SealedSecret;
}

/** The authenticated context a webhook secret is sealed under: its endpoint and owner. */
export const webhookSecretContext = (userId: string, endpointId: string): string =>
  `webhook|${userId}|${endpointId}`;

interface StoredRow {
  id: string;
  user_id: string;
  url: string;
  events: string[];
  format: string;
  description: string;
  created_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  sealed_secret?: Buffer;
  kek_id?: string;
}

const COLUMNS = `id, user_id, url, events, format, description, created_at, failing_since,
  disabled_at, disabled_reason`;

const endpointOf = (row: StoredRow): WebhookEndpoint => ({
  id: row.id,
  userId: row.user_id,
  url: row.url,
  events: row.events as WebhookEventType[],
  format: row.format as WebhookFormat,
  description: row.description,
  createdAt: row.created_at,
  failingSince: row.failing_since,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
});

const withSecret = (row: StoredRow): WebhookEndpointWithSecret => ({
  ...endpointOf(row),
  secret: { sealed: row.sealed_secret!, kekId: row.kek_id! },
});

/** At most this many endpoints per user: a create beyond it is refused. */
export const MAX_WEBHOOK_ENDPOINTS_PER_USER = 20;

/**
 * The key space of a user's webhook-create lock (`pg_advisory_xact_lock(int, int)`),
 * apart from the risk lock's and the one-key locks of the maker caps.
 */
const WEBHOOK_CAP_LOCK_SPACE = 0x5748484b;

/**
 * The only SQL on `webhook_endpoints` (migration Webhooks1763701200000).
 * Every read and change the API makes is scoped to its user; the dispatcher
 * reads the endpoints an event goes to and marks how their deliveries fare.
 * A deleted endpoint is hidden from both (its deliveries stop).
 */
export class WebhookEndpointRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Stores a new endpoint whose id the caller chose (the secret is sealed
   * under it), unless the user already has MAX_WEBHOOK_ENDPOINTS_PER_USER:
   * then null and nothing stored. A user's creates run one at a time (a lock
   * of their own until the transaction ends), each counting what the one
   * before committed, so concurrent creates never pass the cap together.
   */
  async create(id: string, endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint | null> {
    const insert = async (manager: EntityManager): Promise<WebhookEndpoint | null> => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
        WEBHOOK_CAP_LOCK_SPACE,
        endpoint.userId,
      ]);
      const rows = await queryRows<StoredRow>(
        manager,
        `INSERT INTO webhook_endpoints (id, user_id, url, events, format, description, sealed_secret, kek_id)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8
         WHERE (SELECT count(*) FROM webhook_endpoints WHERE user_id = $2 AND deleted_at IS NULL) < $9
         RETURNING ${COLUMNS}`,
        [
          id,
          endpoint.userId,
          endpoint.url,
          endpoint.events,
          endpoint.format,
          endpoint.description,
          endpoint.secret.sealed,
          endpoint.secret.kekId,
          MAX_WEBHOOK_ENDPOINTS_PER_USER,
        ],
      );
      return rows[0] ? endpointOf(rows[0]) : null;
    };
    return this.manager.queryRunner?.isTransactionActive
      ? insert(this.manager)
      : this.manager.transaction(insert);
  }

  /** The user's endpoints, oldest first. */
  async listOf(userId: string): Promise<WebhookEndpoint[]> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE user_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [userId],
    );
    return rows.map(endpointOf);
  }

  /** One of the user's endpoints; null for another user's, a deleted or an unknown one. */
  async oneOf(userId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [userId, id],
    );
    return rows[0] ? endpointOf(rows[0]) : null;
  }

  /** Deletes one of the user's endpoints (its pending deliveries stop); false when there was none. */
  async deleteOf(userId: string, id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.manager,
      `UPDATE webhook_endpoints SET deleted_at = now()
       WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  }

  /**
   * The endpoints an event of `eventType` goes to, with their secrets: the
   * user's (`userId`), or every user's for a system event (`userId` null);
   * never a deleted or disabled one.
   */
  async subscribedTo(
    userId: string | null,
    eventType: WebhookEventType,
  ): Promise<WebhookEndpointWithSecret[]> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${COLUMNS}, sealed_secret, kek_id FROM webhook_endpoints
       WHERE ($1::text IS NULL OR user_id = $1) AND $2 = ANY(events)
         AND deleted_at IS NULL AND disabled_at IS NULL
       ORDER BY created_at, id`,
      [userId, eventType],
    );
    return rows.map(withSecret);
  }

  /** One endpoint with its secret, for a delivery (null once deleted or disabled). */
  async forDelivery(id: string): Promise<WebhookEndpointWithSecret | null> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `SELECT ${COLUMNS}, sealed_secret, kek_id FROM webhook_endpoints
       WHERE id = $1 AND deleted_at IS NULL AND disabled_at IS NULL`,
      [id],
    );
    return rows[0] ? withSecret(rows[0]) : null;
  }

  /** An attempt failed: the endpoint is failing, since now unless it already was. */
  async markFailing(id: string): Promise<WebhookEndpoint | null> {
    const rows = await queryRows<StoredRow>(
      this.manager,
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now())
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] ? endpointOf(rows[0]) : null;
  }

  /** A delivery succeeded: the endpoint is failing no more. */
  async markHealthy(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_endpoints SET failing_since = NULL
       WHERE id = $1 AND failing_since IS NOT NULL`,
      [id],
    );
  }

  /** Disables an endpoint, with the reason its owner reads (GET /webhooks/{id}). */
  async disable(id: string, reason: string): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $2
       WHERE id = $1 AND disabled_at IS NULL`,
      [id, reason],
    );
  }
}

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  encodeEnvelope,
  envelope,
  eventsStream,
  TRADE_FILL,
  TRADE_LIFECYCLE,
  tradeFillMessageId,
  tradeFillSubject,
  tradeLifecycleSubject,
  type FillEventType,
  type TradeFill,
  type TradeLifecycle,
  type TradeLifecycleEvent,
} from '@sts/contracts';
import {
  createTestDatabase,
  JwksServer,
  testNamespace,
  TestOperator,
  type TestDatabase,
  type TestUser,
} from '@sts/testing';
import { startNotifier, type RunningNotifier } from '../src/bootstrap';

export type { TestUser };

/**
 * Real notifier replicas on loopback ports, sharing one private database and
 * NATS prefix, with an identity provider stand-in. Specs drive them the way
 * production does: users and keys through the operator tool, trades as rows
 * in Postgres, lifecycle events published on JetStream as the workers publish them.
 */
export class NotifierHarness {
  readonly jwks = new JwksServer();
  readonly logDir = mkdtempSync(join(tmpdir(), 'sts-notifier-'));
  readonly replicas: RunningNotifier[] = [];
  /** WEBHOOK_SECRETS_KEK of the replicas: it seals and opens the webhook signing secrets. */
  readonly kek = randomBytes(32).toString('base64');
  database!: TestDatabase;
  nats!: NatsConnection;
  env: Record<string, string> = {};

  async start(extraEnv: Record<string, string> = {}): Promise<this> {
    await this.jwks.start();
    this.database = await createTestDatabase();
    this.nats = await connect({
      servers: (extraEnv['NATS_URL'] ?? '127.0.0.1:4222').replace(/^nats:\/\//, ''),
    });
    this.env = {
      DATABASE_URL: this.database.url,
      NATS_PREFIX: testNamespace().natsPrefix,
      LOG_LEVEL: 'debug',
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      OPERATOR_ID: 'spec-operator',
      WEBHOOK_SECRETS_KEK: this.kek,
      ...this.jwks.env(),
      ...extraEnv,
    };
    return this;
  }

  /** Starts one more replica; `extraEnv` overrides settings for this replica only. */
  async addReplica(extraEnv: Record<string, string> = {}): Promise<RunningNotifier> {
    const replica = await startNotifier({
      ...this.env,
      LOG_FILE: join(this.logDir, `notifier-${this.replicas.length}.log`),
      ...extraEnv,
    });
    this.replicas.push(replica);
    return replica;
  }

  async stop(): Promise<void> {
    for (const replica of this.replicas) {
      await replica.close();
    }
    if (this.nats) {
      await this.dropEventsStream(this.nats);
      await this.nats.close();
    }
    await this.jwks.stop();
    await this.database?.drop();
  }

  /**
   * Deletes the spec's events stream, tried a few times: on a busy machine
   * JetStream answers "temporarily unavailable" for a moment, and a spec
   * whose cases passed must not fail in its clean-up. Left behind after
   * that, the stream (its own prefix) harms no other spec.
   */
  private async dropEventsStream(nats: NatsConnection): Promise<void> {
    const name = eventsStream(this.env['NATS_PREFIX']).name;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      try {
        const jsm = await jetstreamManager(nats);
        await jsm.streams.delete(name);
        return;
      } catch (error) {
        if (String(error).includes('stream not found')) {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }

  /** The operator tool against this notifier's database. */
  readonly operator = new TestOperator(() => this.env);

  ops<T = any>(...argv: string[]): Promise<T> {
    return this.operator.ops<T>(...argv);
  }

  user(scopes = 'trades:read', extra: string[] = []): Promise<TestUser> {
    return this.operator.userWithKey(scopes, extra);
  }

  /** A trade row as the gateway inserts it (trade creation through the API is not built yet). */
  async trade(user: TestUser, status = 'pending'): Promise<string> {
    const id = randomUUID();
    await this.query(
      `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
         maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group,
         target_spread, spread_condition, target_size, max_slippage, status, rate_budget, idempotency_key)
       VALUES ($1, $2, 'BTC', 'hyperliquid', $3, 'paradex', $3, 'long', 'hyperliquid', $3, 'paradex', $3,
         'hyperliquid', '5', 'gte', '0.01', '0.001', $4, 10, $5)`,
      [id, user.userId, user.wallet, status, `idem-${id}`],
    );
    return id;
  }

  /** The events stream's last sequence, as its leader reports it. */
  async eventsStreamLast(): Promise<number> {
    const jsm = await jetstreamManager(this.nats);
    const { state } = await jsm.streams.info(eventsStream(this.env['NATS_PREFIX']).name);
    return state.last_seq;
  }

  /** Publishes a lifecycle event exactly as a worker does: an envelope on JetStream, deduplicated by message id. */
  async publishLifecycle(
    user: TestUser,
    tradeId: string,
    event: TradeLifecycleEvent,
    status: string,
    data: Record<string, unknown> = {},
    subjectTradeId = tradeId,
  ): Promise<string> {
    const payload: TradeLifecycle = {
      event,
      trade_id: tradeId,
      user_id: user.userId,
      status,
      timestamp: new Date().toISOString(),
      data,
    };
    const message = envelope(TRADE_LIFECYCLE, payload);
    await jetstream(this.nats).publish(
      tradeLifecycleSubject(this.env['NATS_PREFIX'], subjectTradeId),
      encodeEnvelope(message),
      { msgID: message.message_id },
    );
    return message.message_id;
  }

  /** Publishes a fill entry as the worker's outbox does: message id `fill-<trade>-<sequence>`. */
  async publishFill(
    user: TestUser,
    tradeId: string,
    sequence: number,
    eventType: FillEventType,
    data: Record<string, unknown>,
  ): Promise<string> {
    const payload: TradeFill = {
      trade_id: tradeId,
      user_id: user.userId,
      sequence,
      event_type: eventType,
      created_at: new Date().toISOString(),
      data,
    };
    const messageId = tradeFillMessageId(tradeId, sequence);
    await jetstream(this.nats).publish(
      tradeFillSubject(this.env['NATS_PREFIX'], tradeId),
      encodeEnvelope(envelope(TRADE_FILL, payload, { messageId })),
      { msgID: messageId },
    );
    return messageId;
  }

  query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.database.query<T>(sql, params);
  }

  logs(): string {
    return this.replicas
      .map((_, index) => {
        try {
          return readFileSync(join(this.logDir, `notifier-${index}.log`), 'utf8');
        } catch {
          return '';
        }
      })
      .join('\n');
  }
}

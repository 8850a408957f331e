import 'reflect-metadata';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { RequestAuthenticator } from '@sts/auth';
import { createEdgeDataSource } from '@sts/persistence';
import {
  connectNats,
  createLogger,
  NatsLink,
  type Logger,
  type NatsConnection,
  type Readiness,
} from '@sts/platform';
import { CredentialMonitor } from './auth/credential-monitor';
import { loadNotifierSettings } from './config/load-notifier-settings';
import type { NotifierSettings } from './config/notifier.settings';
import { SwitchesInForce } from './switches/switches-in-force';
import { ConnectionRegistry } from './connections/connection-registry';
import { EventsSubscriber } from './events.subscriber';
import { EventFanout } from './fanout/event-fanout';
import { HealthCheck } from './health/health.check';
import { notifierMetrics } from './notifier.metrics';
import { Heartbeat } from './liveness/heartbeat';
import { TradeFillsReader } from './trades/trade-fills.reader';
import { TradeOwnershipReader } from './trades/trade-ownership.reader';
import { AuthenticateSocket } from './use-cases/authenticate-socket/authenticate-socket.use-case';
import { SubscribeFills } from './use-cases/subscribe-fills/subscribe-fills.use-case';
import { SubscribeTrades } from './use-cases/subscribe-trades/subscribe-trades.use-case';
import { UnsubscribeFills } from './use-cases/unsubscribe-fills/unsubscribe-fills.use-case';
import { UnsubscribeTrades } from './use-cases/unsubscribe-trades/unsubscribe-trades.use-case';
import { WebhookService } from './webhooks/webhook-service';
import { WS_PATH, WsGateway } from './ws.gateway';

export interface RunningNotifier {
  /** The port actually bound (NOTIFIER_PORT=0 picks a free one). */
  port: number;
  /** ws://host:port/api/v1/ws */
  url: string;
  /** Sockets currently held. */
  connections(): number;
  /** The notifier's Prometheus series (main.ts serves them on NOTIFIER_METRICS_PORT). */
  metrics: Registry;
  /** Postgres and NATS answering, not closing (the metrics port's `/readyz`). */
  readiness(): Promise<Readiness>;
  /** Closes every socket with 1001, stops consuming and delivering, closes NATS and Postgres. */
  close(): Promise<void>;
}

async function watchNats(nats: NatsConnection, log: Logger): Promise<void> {
  for await (const status of nats.status()) {
    if (status.type === 'disconnect' || status.type === 'reconnect') {
      log.warn({ nats_status: status.type, data: status.server }, 'NATS connection status');
    } else if (status.type === 'error') {
      log.warn({ nats_status: status.type, data: status.error.message }, 'NATS connection status');
    }
  }
}

/** The notifier's parts, wired on open connections. */
interface NotifierParts {
  registry: ConnectionRegistry;
  credentials: CredentialMonitor;
  heartbeat: Heartbeat;
  subscriber: EventsSubscriber;
  health: HealthCheck;
  metrics: ReturnType<typeof notifierMetrics>;
  gateway: WsGateway;
  /** Null with WEBHOOKS_ENABLED=false. */
  webhooks: WebhookService | null;
}

function assemble(
  settings: NotifierSettings,
  dataSource: DataSource,
  nats: NatsConnection,
  log: Logger,
): NotifierParts {
  const registry = new ConnectionRegistry();
  const authenticator = new RequestAuthenticator(dataSource, settings.auth);
  const credentials = new CredentialMonitor(registry, authenticator, settings.authRecheckMs, log);
  const heartbeat = new Heartbeat(registry, settings.heartbeatIntervalMs, log);
  const subscriber = new EventsSubscriber(
    nats,
    settings.natsPrefix,
    new EventFanout(registry, log),
    log,
    settings.natsReplicas,
  );
  const health = new HealthCheck(dataSource, new NatsLink(nats), registry);
  const metrics = notifierMetrics(registry, () => subscriber.figures);
  const ownership = new TradeOwnershipReader(dataSource);
  const gateway = new WsGateway({
    settings,
    registry,
    authenticate: new AuthenticateSocket(authenticator),
    subscribe: new SubscribeTrades(registry, ownership, settings.maxTradeSubscriptions, log),
    unsubscribe: new UnsubscribeTrades(registry),
    subscribeFills: new SubscribeFills(
      registry,
      ownership,
      new TradeFillsReader(dataSource),
      settings.maxTradeSubscriptions,
      log,
    ),
    unsubscribeFills: new UnsubscribeFills(registry),
    credentials,
    switches: new SwitchesInForce(dataSource),
    health,
    log,
    onAnswered: (route, status, seconds) => metrics.recordAnswered(route, status, seconds),
  });
  const webhooks = WebhookService.fromSettings(settings, dataSource, nats, metrics.webhooks, log);
  return { registry, credentials, heartbeat, subscriber, health, metrics, gateway, webhooks };
}

/**
 * Starts one notifier replica: Postgres (credentials and trade ownership),
 * NATS (the events stream), the WebSocket server and webhook delivery. Any
 * number of replicas run behind a load balancer; each consumes every event
 * for its sockets, and they share the webhook work.
 */
export async function startNotifier(
  env: Record<string, string | undefined> = process.env,
): Promise<RunningNotifier> {
  const settings = loadNotifierSettings(env);
  const instanceId = settings.instanceId ?? `notifier-${hostname()}-${process.pid}`;
  const log = createLogger('notifier', settings.logLevel, settings.logFile).child({
    instance: instanceId,
  });

  let dataSource: DataSource | undefined;
  let nats: NatsConnection | undefined;
  try {
    dataSource = createEdgeDataSource(settings.databaseUrl, 'sts-notifier');
    await dataSource.initialize();
    nats = await connectNats({ url: settings.natsUrl, name: instanceId });
    void watchNats(nats, log);

    const parts = assemble(settings, dataSource, nats, log);
    await parts.subscriber.start();
    await parts.webhooks?.start();
    const address = await parts.gateway.listen(settings.port, settings.host);
    parts.credentials.start();
    parts.heartbeat.start();
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `ws://${host}:${address.port}${WS_PATH}`;
    log.info(
      {
        port: address.port,
        url,
        nats_prefix: settings.natsPrefix,
        webhooks: parts.webhooks ? 'on' : 'off',
      },
      'notifier listening',
    );
    return running(parts, { port: address.port, url }, { dataSource, nats }, log);
  } catch (error) {
    await nats?.close().catch(() => undefined);
    if (dataSource?.isInitialized) {
      await dataSource.destroy().catch(() => undefined);
    }
    throw error;
  }
}

/** The handle of a started notifier; close() stops the parts in order, once. */
function running(
  parts: NotifierParts,
  listening: { port: number; url: string },
  opened: { dataSource: DataSource; nats: NatsConnection },
  log: Logger,
): RunningNotifier {
  const { registry, credentials, heartbeat, subscriber, health, metrics, gateway, webhooks } =
    parts;
  let closing: Promise<void> | undefined;
  return {
    ...listening,
    connections: () => registry.size,
    metrics: metrics.registry,
    readiness: async () => {
      const { healthy, body } = await health.report();
      const checks = { notifier: closing ? 'draining' : 'up', ...body.checks };
      return { ready: healthy && !closing, checks };
    },
    close: () =>
      (closing ??= (async () => {
        await Promise.all([heartbeat.stop(), credentials.stop()]);
        await subscriber.stop();
        await webhooks?.stop();
        await gateway.close();
        await opened.nats.drain().catch(() => undefined);
        await opened.dataSource.destroy().catch(() => undefined);
        log.info('notifier stopped');
      })()),
  };
}

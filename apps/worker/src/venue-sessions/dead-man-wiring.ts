import type { Logger, NatsConnection } from '@sts/platform';
import type { WorkerConfig } from '../config/load-worker-config';
import type { WorkerMetrics } from '../metrics/worker-metrics';
import type { AccountSessions } from './account-sessions';
import { DeadManBoard } from './dead-man-board';
import type { DeadManPolicy } from './dead-man-keeper';

/**
 * How this worker keeps its accounts' dead-man switches: armed with
 * WORKER_DEAD_MAN_TIMEOUT_MS, each status shown on the operators' board
 * (NATS KV), each refusal or failure counted. The board closes with the worker.
 */
export function deadManPolicy(
  config: WorkerConfig,
  nats: NatsConnection,
  metrics: WorkerMetrics,
  logger: Logger,
  closers: Array<() => Promise<unknown>>,
): DeadManPolicy {
  const board = new DeadManBoard(
    nats,
    config.settings.natsPrefix,
    config.workerId,
    logger,
    config.settings.natsReplicas,
  );
  closers.push(async () => board.close());
  return {
    timeoutMs: config.settings.deadManTimeoutMs,
    onStatus: (venue, wallet, status) => board.show(venue, wallet, status),
    onArmFailure: (venue, kind) => metrics.recordDeadManFailure(venue, kind),
  };
}

/** Connects the metrics' dead-man gauges to the account sessions (read when scraped). */
export function watchDeadMen(metrics: WorkerMetrics, accounts: AccountSessions): void {
  metrics.watchDeadMen(() =>
    accounts.deadManStatuses().map(({ venue, status }) => ({
      venue,
      state: status.state,
      lastRefreshAtMs: status.lastRefreshAtMs,
    })),
  );
}

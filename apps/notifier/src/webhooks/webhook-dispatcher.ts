import type { DataSource } from 'typeorm';
import {
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type AttemptOutcome,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@sts/persistence';
import type { Logger } from '@sts/platform';
import type { WebhookSeries } from '../notifier.metrics';
import type { RetrySchedule } from './retry-schedule';
import type { SendResult, WebhookSender } from './webhook-sender';

/** A claim outlasts the attempt's timeout by this much: time to record it. */
const CLAIM_MARGIN_MS = 5_000;

export interface DispatcherOptions {
  /** Deliveries in flight at once (WEBHOOKS_CONCURRENCY). */
  concurrency: number;
  /** One attempt's bound (WEBHOOKS_TIMEOUT_MS): a claim lasts this and CLAIM_MARGIN_MS. */
  timeoutMs: number;
  /** How often an idle dispatcher looks again (WEBHOOKS_POLL_MS). */
  pollMs: number;
  /** Failing this long without a success disables an endpoint (WEBHOOKS_DISABLE_AFTER_MS). */
  disableAfterMs: number;
}

/**
 * Sends what is owed, from every replica at once: it claims the deliveries
 * that are due (each endpoint's oldest pending one only, so an endpoint gets
 * its events in order and one at a time; a claim is a lease, so a dead
 * replica's lapses and another sends it), sends each, and records the
 * attempt: delivered, due again per the retry schedule, or failed when the
 * schedule is spent. An endpoint is failing from its first failed attempt
 * until a success; failing for WEBHOOKS_DISABLE_AFTER_MS, or answering 410
 * Gone, disables it with the reason its owner reads, and what it still owes is
 * canceled. Sends are plain I/O on the event loop beside the sockets, never
 * awaited by them.
 */
export class WebhookDispatcher {
  private readonly deliveries: WebhookDeliveryRepository;
  private readonly endpoints: WebhookEndpointRepository;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  private wake?: () => void;

  constructor(
    private readonly db: DataSource,
    private readonly sender: WebhookSender,
    private readonly schedule: RetrySchedule,
    private readonly options: DispatcherOptions,
    private readonly series: WebhookSeries,
    private readonly log: Logger,
  ) {
    this.deliveries = new WebhookDeliveryRepository(db.manager);
    this.endpoints = new WebhookEndpointRepository(db.manager);
  }

  start(): void {
    this.running = this.run();
  }

  /** Claims nothing more; sends in flight are cut short and handed back unsent. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.running;
    await Promise.all(this.inFlight);
  }

  private async run(): Promise<void> {
    const claimMs = this.options.timeoutMs + CLAIM_MARGIN_MS;
    while (!this.stopping.signal.aborted) {
      const room = this.options.concurrency - this.inFlight.size;
      if (room > 0) {
        try {
          for (const delivery of await this.deliveries.claimDue(room, claimMs)) {
            this.launch(delivery);
          }
        } catch (error) {
          this.log.warn({ err: error }, 'webhook deliveries not claimed; trying again');
        }
      }
      await this.idle();
    }
  }

  /** Until the poll period passes or a send ends (its endpoint's next delivery may be due). */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.pollMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private launch(delivery: WebhookDelivery): void {
    this.series.sending(1);
    const sending = this.deliver(delivery)
      .catch((error: unknown) =>
        // Its claim lapses and another attempt follows: at least once.
        this.log.warn(
          { err: error, delivery_id: delivery.id, endpoint_id: delivery.endpointId },
          'webhook delivery not recorded; its claim will lapse',
        ),
      )
      .finally(() => {
        this.inFlight.delete(sending);
        this.series.sending(-1);
        this.wake?.();
      });
    this.inFlight.add(sending);
  }

  private async deliver(delivery: WebhookDelivery): Promise<void> {
    const endpoint = await this.endpoints.forDelivery(delivery.endpointId);
    if (!endpoint) {
      // Deleted or disabled since the event came: nothing more goes to it.
      await this.deliveries.cancelPendingOf(delivery.endpointId);
      return;
    }
    const result = await this.sender.send(endpoint, delivery, this.stopping.signal);
    if (result.verdict === 'stopped') {
      await this.deliveries.release(delivery.id);
      return;
    }
    const outcome = this.outcomeOf(delivery, result);
    await this.deliveries.recordAttempt(delivery.id, result.attempt, outcome);
    this.series.attempted(outcome.kind, result.attempt.duration_ms / 1000);
    this.log.info(
      {
        delivery_id: delivery.id,
        endpoint_id: endpoint.id,
        webhook_id: delivery.messageId,
        event_type: delivery.eventType,
        attempt: delivery.attempts + 1,
        status_code: result.attempt.status_code,
        error: result.attempt.error,
        outcome: outcome.kind,
      },
      'webhook attempt',
    );
    await this.judgeEndpoint(endpoint.id, result);
  }

  private outcomeOf(delivery: WebhookDelivery, result: SendResult): AttemptOutcome {
    switch (result.verdict) {
      case 'delivered':
        return { kind: 'delivered' };
      case 'gone':
      case 'invalid':
        return { kind: 'failed' };
      case 'retry':
      case 'stopped': {
        const next = this.schedule.nextAttemptAt(delivery.attempts + 1, new Date());
        return next ? { kind: 'retry', nextAttemptAt: next } : { kind: 'failed' };
      }
    }
  }

  /** Healthy after a success; failing after anything else, disabled after long enough or a 410. */
  private async judgeEndpoint(endpointId: string, result: SendResult): Promise<void> {
    if (result.verdict === 'delivered') {
      await this.endpoints.markHealthy(endpointId);
      return;
    }
    if (result.verdict === 'gone') {
      await this.disable(
        endpointId,
        `answered 410 Gone at ${result.attempt.at}: the receiver asks for no more deliveries`,
      );
      return;
    }
    const marked = await this.endpoints.markFailing(endpointId);
    const since = marked?.failingSince;
    if (since && Date.now() - since.getTime() >= this.options.disableAfterMs) {
      await this.disable(
        endpointId,
        `failing since ${since.toISOString()}; last error: ${lastError(result.attempt)}`,
      );
    }
  }

  /**
   * Disabled and what it owes canceled in one transaction: nobody reads a
   * disabled endpoint with deliveries still pending that were owed when it was
   * disabled. (One an event adds later is canceled when it comes due.)
   */
  private async disable(endpointId: string, reason: string): Promise<void> {
    const canceled = await this.db.transaction(async (tx) => {
      await new WebhookEndpointRepository(tx).disable(endpointId, reason);
      return new WebhookDeliveryRepository(tx).cancelPendingOf(endpointId);
    });
    this.series.disabled();
    this.log.warn({ endpoint_id: endpointId, reason, canceled }, 'webhook endpoint disabled');
  }
}

const lastError = (attempt: WebhookAttempt): string =>
  attempt.error ?? `answered ${attempt.status_code ?? 'nothing'}`;

import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  BUDGET_ACCOUNT,
  BUDGET_ACCOUNT_RESULT,
  BUDGET_CUMULATIVE,
  BUDGET_CUMULATIVE_RESULT,
  BUDGET_GET,
  BUDGET_GET_RESULT,
  BUDGET_RELEASE,
  BUDGET_RELEASE_RESULT,
  BUDGET_RESERVE,
  BUDGET_RESERVE_BATCH,
  BUDGET_RESERVE_BATCH_RESULT,
  BUDGET_RESERVE_RESULT,
  budgetAccountSubject,
  budgetCumulativeSubject,
  budgetGetSubject,
  budgetReleaseSubject,
  budgetReserveBatchSubject,
  budgetReserveSubject,
  parseBudgetAccountRequest,
  parseBudgetCumulativeRequest,
  parseBudgetGetRequest,
  parseBudgetReleaseRequest,
  parseBudgetReserveBatchRequest,
  parseBudgetReserveRequest,
  type Envelope,
} from '@sts/contracts';
import type { Logger, NatsConnection } from '@sts/platform';
import type { BudgetMetrics } from './budget.metrics';
import { BudgetSettings } from './config/budget.settings';
import { NatsRequestServer } from './nats-request-server';
import { BUDGET_METRICS, BUDGET_SETTINGS, LOGGER, NATS } from './tokens';
import { ReadBudgetUseCase } from './use-cases/read-budget/read-budget.use-case';
import { ReleaseBudgetUseCase } from './use-cases/release-budget/release-budget.use-case';
import { ReportCumulativeUseCase } from './use-cases/report-cumulative/report-cumulative.use-case';
import { ReserveBudgetUseCase } from './use-cases/reserve-budget/reserve-budget.use-case';

const tracing = (message: Envelope<unknown>) => ({
  correlationId: message.correlation_id,
  causationId: message.message_id,
});

/**
 * The budget subjects, one line each. Why not `@MessagePattern` on Nest's NATS
 * transport: its subjects are fixed in decorators at import time while ours are
 * built from NATS_PREFIX at boot (two services with different prefixes run in
 * one test process), and its wire format wraps every message in Nest's own
 * {pattern, data, id} record instead of our validated envelopes. So this is a
 * Nest application context whose handlers subscribe through the `nats` client.
 */
@Injectable()
export class BudgetHandler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly server: NatsRequestServer;

  constructor(
    @Inject(NATS) nc: NatsConnection,
    @Inject(BUDGET_SETTINGS) private readonly settings: BudgetSettings,
    @Inject(LOGGER) logger: Logger,
    @Inject(BUDGET_METRICS) metrics: BudgetMetrics,
    private readonly reserve: ReserveBudgetUseCase,
    private readonly release: ReleaseBudgetUseCase,
    private readonly read: ReadBudgetUseCase,
    private readonly cumulative: ReportCumulativeUseCase,
  ) {
    this.server = new NatsRequestServer(nc, 'budget', logger, metrics);
  }

  onApplicationBootstrap(): void {
    const prefix = this.settings.natsPrefix;
    this.server.serve({
      subject: budgetReserveSubject(prefix),
      requestType: BUDGET_RESERVE,
      resultType: BUDGET_RESERVE_RESULT,
      parse: parseBudgetReserveRequest,
      handle: (request, message) => this.reserve.execute(request, tracing(message)),
    });
    this.server.serve({
      subject: budgetReserveBatchSubject(prefix),
      requestType: BUDGET_RESERVE_BATCH,
      resultType: BUDGET_RESERVE_BATCH_RESULT,
      parse: parseBudgetReserveBatchRequest,
      handle: (request, message) => this.reserve.executeBatch(request, tracing(message)),
    });
    this.server.serve({
      subject: budgetReleaseSubject(prefix),
      requestType: BUDGET_RELEASE,
      resultType: BUDGET_RELEASE_RESULT,
      parse: parseBudgetReleaseRequest,
      handle: (request, message) => this.release.execute(request, tracing(message)),
    });
    this.server.serve({
      subject: budgetGetSubject(prefix),
      requestType: BUDGET_GET,
      resultType: BUDGET_GET_RESULT,
      parse: parseBudgetGetRequest,
      handle: (request) => this.read.trade(request),
    });
    this.server.serve({
      subject: budgetAccountSubject(prefix),
      requestType: BUDGET_ACCOUNT,
      resultType: BUDGET_ACCOUNT_RESULT,
      parse: parseBudgetAccountRequest,
      handle: (request) => this.read.account(request),
    });
    this.server.serve({
      subject: budgetCumulativeSubject(prefix),
      requestType: BUDGET_CUMULATIVE,
      resultType: BUDGET_CUMULATIVE_RESULT,
      parse: parseBudgetCumulativeRequest,
      handle: (request) => this.cumulative.execute(request),
    });
  }

  onModuleDestroy(): Promise<void> {
    return this.server.drain();
  }
}

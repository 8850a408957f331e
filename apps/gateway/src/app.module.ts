import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import { AuthGuard } from '@sts/auth';
import { logDestination, loggerOptions } from '@sts/platform';
import { AccountsModule } from './accounts/accounts.module';
import type { GatewayConfig } from './config/load-gateway-settings';
import { AppErrorFilter } from './errors/app-error.filter';
import { HEALTH_PATHS, HealthController } from './health/health.controller';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { MarketsModule } from './markets/markets.module';
import { SpreadModule } from './spread/spread.module';
import { TradesModule } from './trades/trades.module';

const infoEnabled = (level: string): boolean => ['trace', 'debug', 'info'].includes(level);

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: [
            {
              ...loggerOptions('gateway', config.settings.logLevel),
              genReqId: (request) => {
                const given = request.headers['x-request-id'];
                return typeof given === 'string' && /^[\w-]{1,64}$/.test(given)
                  ? given
                  : randomUUID();
              },
              customProps: (request) => ({ correlation_id: request.id }),
              // pino-http binds the request to a child logger on every request, logged or not,
              // and the redaction cloned and the binding serialized every header (a twelfth of a
              // GET's CPU). A request is named by its method and URL (the standard serializer
              // runs first and resolves the URL middie rewrote); headers carry keys and tokens.
              serializers: {
                req: (request: { method: string; url: string }) => ({
                  method: request.method,
                  url: request.url,
                }),
              },
              // One line per request at info; below that level nothing would be written, so
              // pino-http is not asked to build and serialize one (it did, on every request).
              autoLogging: infoEnabled(config.settings.logLevel)
                ? { ignore: (request) => HEALTH_PATHS.has(request.url ?? '') }
                : false,
            },
            logDestination(config.settings.logFile),
          ],
        }),
        InfrastructureModule.forRoot(config),
        MaintenanceModule,
        AccountsModule,
        MarketsModule,
        SpreadModule,
        TradesModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: AppErrorFilter },
      ],
    };
  }
}

import 'reflect-metadata';
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppError, createLogger } from '@sts/platform';
import { AppModule } from './app.module';
import type { GatewayConfig } from './config/load-gateway-settings';
import { httpEdgeOptions, registerHttpEdge } from './errors/http-edge';
import { ChangeFeed } from './infrastructure/change-feed';
import { registerChangeMarks } from './infrastructure/change-marks';
import { registerRateLimit } from './errors/rate-limit';
import { registerApiDocs } from './openapi/api-docs.routes';
import { registerConsole } from './console/console.routes';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import { CreateTradeGroups } from './trades/use-cases/create-trade/create-trade-groups';
import { HEALTH_PATHS } from './health/health.controller';
import { NestPinoLogger } from './logging/nest-pino-logger';
import { registerRequestLog, requestIdOf } from './logging/request-log';

const describeValidation = (errors: ValidationError[], parent = ''): string[] =>
  errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    return [
      ...Object.values(error.constraints ?? {}).map((text) =>
        text.startsWith(error.property) ? text.replace(error.property, path) : `${path}: ${text}`,
      ),
      ...describeValidation(error.children ?? [], path),
    ];
  });

/** Every body and query is validated; an unknown field is a 400, never silently dropped. */
export const validationPipe = (): ValidationPipe =>
  new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) =>
      new AppError('invalid_request', describeValidation(errors).join('; ') || 'invalid request'),
  });

export async function createGatewayApp(
  config: GatewayConfig,
  metrics?: GatewayMetrics,
): Promise<NestFastifyApplication> {
  const logger = createLogger('gateway', config.settings.logLevel, config.settings.logFile);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config),
    new FastifyAdapter({ ...httpEdgeOptions(config.settings.trustProxy), genReqId: requestIdOf }),
    // Bodies are parsed by registerHttpEdge's JSON parser (depth limit, prototype keys refused), not Nest's.
    { bufferLogs: true, bodyParser: false },
  );
  app.useLogger(new NestPinoLogger(logger));
  registerRequestLog(app.getHttpAdapter().getInstance(), logger, HEALTH_PATHS);
  metrics?.register(app.getHttpAdapter().getInstance());
  metrics?.observeCreateGroups(app.get(CreateTradeGroups));
  registerHttpEdge(app.getHttpAdapter().getInstance());
  registerChangeMarks(app.getHttpAdapter().getInstance(), app.get(ChangeFeed));
  // AuthGuard sets each request's principal: declared, so requests are built with the field.
  app.getHttpAdapter().getInstance().decorateRequest('principal', null);
  await registerRateLimit(app, {
    perSecond: config.settings.rateLimitPerS,
    redisUrl: config.settings.redisUrl,
    redisPrefix: config.settings.redisPrefix,
    logger,
    registry: metrics?.registry,
  });
  app.useGlobalPipes(validationPipe());

  registerApiDocs(app);
  await registerConsole(app.getHttpAdapter().getInstance(), config);
  return app;
}

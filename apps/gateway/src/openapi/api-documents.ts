import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import { loadGatewayConfig } from '../config/load-gateway-settings';
import { describeApi } from './api-document';
import { ASYNCAPI_DOCUMENT } from './asyncapi-document';

export interface ApiDocuments {
  openapi: unknown;
  asyncapi: unknown;
}

/**
 * Settings the modules are declared with. Preview mode instantiates no
 * provider, so none of these is ever connected to; fixed, not read from the
 * environment, so every machine builds the same document.
 */
const NO_SERVICES = {
  DATABASE_URL: 'postgres://nobody@api-docs.invalid:1/none',
  NATS_URL: 'nats://api-docs.invalid:1',
  REDIS_URL: 'redis://api-docs.invalid:1',
  CREDENTIALS_KEK: Buffer.alloc(32).toString('base64'),
  WEBHOOK_SECRETS_KEK: Buffer.alloc(32).toString('base64'),
};

/** As served: JSON, so what the document leaves undefined is absent. */
const asJson = (document: unknown): unknown => JSON.parse(JSON.stringify(document));

/**
 * The documents the gateway serves at /api/v1/openapi.json and
 * /api/v1/asyncapi.json, built from their sources without any running
 * service: the gateway's modules in Nest's preview mode (controllers and their
 * request classes are read, no provider is instantiated: no Postgres, NATS or
 * Redis) and the same describeApi the gateway runs at boot.
 */
export async function buildApiDocuments(): Promise<ApiDocuments> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(loadGatewayConfig(NO_SERVICES)),
    new FastifyAdapter(),
    { preview: true, logger: false },
  );
  try {
    return { openapi: asJson(describeApi(app)), asyncapi: asJson(ASYNCAPI_DOCUMENT) };
  } finally {
    await app.close();
  }
}

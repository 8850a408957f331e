import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ErrorCode } from '@sts/platform';
import { httpStatusOf } from '../errors/http-status';
import { API_SCHEMAS } from './api-schemas';
import { WEBHOOKS } from './schemas/webhook-payload-schemas';
import { EVERY_ROUTE, OPERATIONS, type OperationAnswers } from './api-operations';
import { RATE_LIMIT_HEADERS, rateLimitHeaders } from './operations/answers';
import { strictBodySchema, strictParameters, type Parameter } from './request-rules';
import type { Schema } from './schemas/schema-helpers';

const API_KEY = 'api-key';
const BEARER = 'bearer';
const RETRY_AFTER = { $ref: '#/components/headers/RetryAfter' };
const REQUEST_ID = { $ref: '#/components/headers/RequestId' };

const STATUS_TEXT: Record<number, string> = {
  400: 'the request is malformed or breaks a rule',
  401: 'missing, malformed, unknown, expired or revoked API key or JWT',
  403: 'not allowed',
  404: 'not found (unknown and foreign resources answer alike)',
  408: 'the request body did not arrive in time',
  409: 'conflicts with the current state',
  413: 'body over 64 KiB',
  414: 'request target over 2048 characters, or a path parameter over 100',
  415: 'a body that is not application/json',
  429: 'rate limited (the API itself), or no rate budget left on the maker exchange',
  431: 'headers over 16 KiB',
  500: 'internal error (details only in the log)',
  503: 'maintenance, kill switch, or a dependency lost (`reason` names it); retry after Retry-After',
};

/** `{error, code}` narrowed to the codes one status of one operation can carry. */
function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = httpStatusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, statusCodes]) => [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? 'refused'}: ${statusCodes.join(', ')}`,
          headers: {
            'X-Request-Id': REQUEST_ID,
            ...(status === 429 || status === 503 ? { 'Retry-After': RETRY_AFTER } : {}),
            ...rateLimitHeaders(status),
          },
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/Error' },
                  { properties: { code: { enum: statusCodes } } },
                ],
              },
              example: { error: statusCodes[0]?.replace(/_/g, ' '), code: statusCodes[0] },
            },
          },
        },
      ]),
  );
}

interface Operation {
  [field: string]: unknown;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: { $ref: string }; example?: unknown }> };
}

/**
 * The request side, as strict as the server: parameters and body with the
 * rules the gateway validates them by, and an example body it accepts.
 */
function describeRequest(
  operation: Operation,
  answers: OperationAnswers,
  schemas: Record<string, Schema>,
): void {
  strictParameters(answers.operationId, operation.parameters ?? []);
  const content = operation.requestBody?.content?.['application/json'];
  if (!content) {
    return;
  }
  const name = content.schema.$ref.replace('#/components/schemas/', '');
  strictBodySchema(name, schemas[name] ?? {});
  if (!answers.requestExample) {
    throw new Error(`OpenAPI: no request example for ${answers.operationId}`);
  }
  content.example = answers.requestExample;
}

function describeOperation(operation: Operation, answers: OperationAnswers): void {
  operation['operationId'] = answers.operationId;
  operation.description ??= answers.description;
  if (!operation.description) {
    throw new Error(`OpenAPI: no description for ${answers.operationId}`);
  }
  operation['responses'] = {
    ...Object.fromEntries(
      answers.successes.map((success) => [
        String(success.status),
        {
          description: success.description,
          headers: { 'X-Request-Id': REQUEST_ID, ...rateLimitHeaders(success.status) },
          ...('schema' in success
            ? {
                content: {
                  'application/json': { schema: success.schema, example: success.example },
                },
              }
            : {}),
        },
      ]),
    ),
    ...errorResponses([...answers.errors, ...EVERY_ROUTE]),
  };
  if (answers.public) {
    operation['security'] = [];
  } else if (answers.errors.includes('session_required')) {
    operation['security'] = [{ [BEARER]: [] }];
  } else {
    delete operation['security'];
  }
}

/** The headers the answers name (`#/components/headers`). */
const RESPONSE_HEADERS = {
  RequestId: {
    description:
      "the request's correlation id, on every answer: the caller's X-Request-Id when it is " +
      '1 to 64 letters, digits, `_` or `-`, else one the gateway made; it names the log line',
    schema: { type: 'string' },
  },
  RetryAfter: {
    description:
      'seconds to wait before retrying: always sent with 429 rate_limited and with 503 ' +
      'service_unavailable and budget_unavailable; absent where no end is known ' +
      '(rate_budget_exhausted lasts until a trade on the account ends, maintenance until an operator ends it)',
    schema: { type: 'integer', minimum: 0 },
  },
};

/**
 * The OpenAPI 3.1 description: request bodies and parameters from the DTOs'
 * decorators, answers from `api-operations.ts`. Built once at boot; the same
 * document is served at /api/v1/openapi.json and kept in apps/gateway/openapi.json.
 */
export function describeApi(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.1.0')
      .setTitle('Spread trading API')
      .setDescription(
        'Two-legged maker-taker spread trades across perpetual-futures venues. ' +
          'Lifecycle events are pushed over the notifier WebSocket (AsyncAPI at /api/v1/asyncapi.json). ' +
          'Every error is `{error, code}` (+ `reason`); a 429 or 503 carries Retry-After.',
      )
      .setVersion('v1')
      .addServer('/', 'the gateway serving this document (npm start: http://localhost:3000)')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY)
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'browser session' },
        BEARER,
      )
      .addSecurityRequirements(API_KEY)
      .addSecurityRequirements(BEARER)
      .addTag('trades', 'spread trades: create, read, amend, cancel, execution log')
      .addTag('markets', 'market universes (public)')
      .addTag('exchanges', 'the venues of this deployment, paper or live (public)')
      .addTag('maintenance', 'maintenance flags (public)')
      .addTag('wallets', 'linked wallets; linking and unlinking need a browser session')
      .addTag('credentials', 'exchange credentials (metadata); changes need a browser session')
      .addTag('limits', "pre-trade risk limits an operator sets per user, and the caller's usage")
      .addTag(
        'quality',
        "execution quality of the caller's maker fills: markouts and hedge slippage (account:read)",
      )
      .addTag(
        'webhooks',
        "the caller's webhook endpoints (Standard Webhooks) and their deliveries (webhooks:read, webhooks:write)",
      )
      .addTag('session', 'browser session bootstrap')
      .build(),
  );
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const answers = OPERATIONS[`${method} ${path}`];
      if (!answers) {
        throw new Error(`OpenAPI: no answers described for ${method} ${path}`);
      }
      describeOperation(operation, answers);
      describeRequest(operation, answers, schemas);
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...API_SCHEMAS },
    headers: { ...RESPONSE_HEADERS, ...RATE_LIMIT_HEADERS },
  } as OpenAPIObject['components'];
  // OpenAPI 3.1's webhooks: what the notifier POSTs to a user's endpoints.
  return { ...document, webhooks: WEBHOOKS } as OpenAPIObject;
}

import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { apiKeyPrefix } from '@sts/auth';
import { HEALTH_PATHS } from '../health/health.controller';

/**
 * Who a request counts against: its API key (by lookup prefix), its bearer
 * token, or its IP. Counted before authentication, so a flood of bad keys is
 * throttled too; the prefix is not secret.
 */
function callerOf(request: FastifyRequest): string {
  const apiKey = request.headers['x-api-key'];
  const prefix = typeof apiKey === 'string' ? apiKeyPrefix(apiKey) : null;
  if (prefix) {
    return `key:${prefix}`;
  }
  const authorization = request.headers['authorization'];
  if (typeof authorization === 'string' && authorization.length > 0) {
    return `session:${createHash('sha256').update(authorization).digest('hex').slice(0, 24)}`;
  }
  return `ip:${request.ip}`;
}

/** 429 `rate_limited` with Retry-After (decisions section 4); health checks are never limited. */
export async function registerRateLimit(
  app: NestFastifyApplication,
  perSecond: number,
): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: perSecond,
    timeWindow: 1000,
    keyGenerator: callerOf,
    allowList: (request) => HEALTH_PATHS.has(request.url),
    // Thrown into Nest's error filter, which maps status 429 to code rate_limited.
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `rate limit exceeded: ${context.max} requests per second; retry in ${context.after}`,
    }),
  });
}

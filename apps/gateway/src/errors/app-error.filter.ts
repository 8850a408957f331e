import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  isPostgresDataException,
  lostDependencyOf,
  type Dependency,
  type ErrorCode,
} from '@sts/platform';
import { httpStatusOf } from './http-status';
import { allowedMethodsOf } from './route-table';

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  reason?: string;
  [detail: string]: unknown;
}

/**
 * What of an unexpected error goes to the log: never a failed query's
 * parameters (they can hold a key hash or a sealed credential), only what
 * names the failure.
 */
function loggable(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || !('parameters' in error)) {
    return error;
  }
  const { name, message, code, query } = error as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    query?: unknown;
  };
  return { name, message, code, query };
}

/** A lost dependency is logged once per this interval, not once per refused request. */
const DEPENDENCY_LOG_EVERY_MS = 5_000;

/** Seconds a client should wait before retrying a 503 caused by a lost dependency. */
export const DEPENDENCY_RETRY_AFTER_S = 2;

/** Codes whose 503 is worth retrying soon (maintenance and the kill switch are not). */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['service_unavailable', 'budget_unavailable']);

/**
 * What the HTTP stack (Fastify, Nest) refuses before a route runs, by status.
 * Fixed texts: the framework's own messages can carry paths, parser details or
 * class names, and none of that is the client's business.
 */
export function frameworkRefusal(status: number): [ErrorCode, string] {
  switch (status) {
    case 400:
      return ['invalid_request', 'malformed request'];
    case 401:
      return ['unauthorized', 'unauthorized'];
    case 403:
      return ['insufficient_scope', 'forbidden'];
    case 404:
      return ['not_found', 'not found'];
    case 405:
      return ['method_not_allowed', 'method not allowed'];
    case 408:
      return ['request_timeout', 'request timeout'];
    case 409:
      return ['conflict', 'conflict'];
    case 413:
      return ['payload_too_large', 'request body too large'];
    case 414:
      return ['uri_too_long', 'request URI too long'];
    case 415:
      return ['unsupported_media_type', 'request bodies must be application/json'];
    case 429:
      return ['rate_limited', 'rate limit exceeded'];
    case 431:
      return ['headers_too_large', 'request headers too large'];
    default:
      return ['invalid_request', 'request refused'];
  }
}

export const dependencyUnavailable = (dependency: Dependency): AppError =>
  new AppError(
    'service_unavailable',
    `service unavailable: ${dependency} cannot be reached; retry`,
    {
      reason: dependency,
    },
  );

/**
 * Every error leaves the gateway as `{ error, code, reason? }`, from this one
 * filter. AppErrors map through httpStatusOf; a lost Postgres or NATS is 503
 * service_unavailable naming it, with Retry-After; framework refusals (unknown
 * route, wrong method, bad JSON, too large, wrong content type) keep their
 * status with a code of their own; anything else is a 500 whose detail goes to
 * the log, not the client.
 */
@Catch()
export class AppErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');
  private readonly dependencyLoggedAt = new Map<Dependency, number>();

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const [status, body] = this.describe(exception, request);
    if (status === 500) {
      this.logger.error({ err: loggable(exception) }, 'unhandled error');
    }
    if (status === 503 && RETRYABLE.has(body.code)) {
      void reply.header('retry-after', String(DEPENDENCY_RETRY_AFTER_S));
    }
    if (status === 405) {
      void reply.header('allow', allowedMethodsOf(request.method, request.url).join(', '));
    }
    void reply.status(status).send(body);
  }

  private describe(exception: unknown, request: FastifyRequest): [number, ErrorBody] {
    if (exception instanceof AppError) {
      return appErrorReply(exception);
    }
    const dependency = lostDependencyOf(exception);
    if (dependency) {
      this.logDependencyLoss(dependency, exception);
      return appErrorReply(dependencyUnavailable(dependency));
    }
    if (isPostgresDataException(exception)) {
      // A value the validators let through and Postgres refused: a validation gap, logged to be closed.
      this.logger.warn({ err: loggable(exception) }, 'database refused a request value');
      return [
        400,
        { error: 'a value in the request is malformed or out of range', code: 'invalid_request' },
      ];
    }
    let status =
      exception instanceof HttpException
        ? exception.getStatus()
        : typeof (exception as { statusCode?: unknown })?.statusCode === 'number'
          ? (exception as { statusCode: number }).statusCode
          : 500;
    if (status >= 500 || status < 400) {
      return [500, { error: 'internal error', code: 'internal_error' }];
    }
    if (status === 404 && allowedMethodsOf(request.method, request.url).length > 0) {
      status = 405;
    }
    const [code, text] = frameworkRefusal(status);
    // The rate limiter's message (limit and wait) is ours and useful; other framework texts are not shown.
    const limiterText = (exception as { message?: unknown }).message;
    const message = status === 429 && typeof limiterText === 'string' ? limiterText : text;
    return [status, { error: message, code }];
  }

  private logDependencyLoss(dependency: Dependency, exception: unknown): void {
    const now = Date.now();
    if (now - (this.dependencyLoggedAt.get(dependency) ?? 0) < DEPENDENCY_LOG_EVERY_MS) {
      return;
    }
    this.dependencyLoggedAt.set(dependency, now);
    this.logger.warn(
      { dependency, err: loggable(exception) },
      'a dependency cannot be reached; answering 503',
    );
  }
}

function appErrorReply(error: AppError): [number, ErrorBody] {
  const body: ErrorBody = { ...error.details, error: error.message, code: error.code };
  if (error.reason !== undefined) {
    body.reason = error.reason;
  }
  return [httpStatusOf(error.code), body];
}

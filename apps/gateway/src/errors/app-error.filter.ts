import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError, type ErrorCode } from '@sts/platform';
import { httpStatusOf } from './http-status';

interface ErrorBody {
  error: string;
  code: ErrorCode;
  reason?: string;
  [detail: string]: unknown;
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'insufficient_scope',
  404: 'not_found',
  409: 'conflict',
  413: 'invalid_request',
  415: 'invalid_request',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/**
 * Every error leaves the gateway as `{ error, code, reason? }`. AppErrors map
 * through httpStatusOf; framework errors (unknown route, bad JSON, body too
 * large) keep their status with a matching code; anything else is a 500 whose
 * detail goes to the log, not the client.
 */
@Catch()
export class AppErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const [status, body] = this.describe(exception);
    if (status >= 500 && !(exception instanceof AppError)) {
      this.logger.error({ err: exception }, 'unhandled error');
    }
    void reply.status(status).send(body);
  }

  private describe(exception: unknown): [number, ErrorBody] {
    if (exception instanceof AppError) {
      const body: ErrorBody = {
        ...exception.details,
        error: exception.message,
        code: exception.code,
      };
      if (exception.reason !== undefined) body.reason = exception.reason;
      return [httpStatusOf(exception.code), body];
    }
    const status =
      exception instanceof HttpException
        ? exception.getStatus()
        : typeof (exception as { statusCode?: unknown })?.statusCode === 'number'
          ? (exception as { statusCode: number }).statusCode
          : 500;
    if (status >= 500 || status < 400) {
      return [500, { error: 'internal error', code: 'internal_error' }];
    }
    const message =
      exception instanceof HttpException ? exception.message : (exception as Error).message;
    return [
      status,
      { error: message || 'request failed', code: CODE_OF_STATUS[status] ?? 'invalid_request' },
    ];
  }
}

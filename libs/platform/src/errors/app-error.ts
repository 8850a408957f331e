import type { ErrorCode } from './error-codes';

export interface AppErrorOptions {
  /** Operator- or domain-supplied detail shown as `reason` (e.g. the maintenance text). */
  reason?: string;
  /** Extra fields merged into the error body (never secrets). */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** A failure with a machine code. Thrown anywhere; turned into HTTP only at the edge. */
export class AppError extends Error {
  readonly reason?: string;
  readonly details?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.reason = options.reason;
    this.details = options.details;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

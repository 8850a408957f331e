import { isAppError, lostDependencyOf, type ErrorCode } from '@sts/platform';
import { CloseCode } from '../protocol/close-codes';

export interface AuthFailure {
  code: ErrorCode;
  message: string;
  /** The dependency that could not be reached (service_unavailable only). */
  reason?: string;
  /** Answer to a handshake carrying header credentials (the upgrade is refused). */
  httpStatus: number;
  /** Close code after a failed auth message. */
  closeCode: CloseCode;
}

/**
 * How an authentication error reaches a socket client: the same codes as the
 * gateway's HTTP answers (decisions section 4), as an HTTP status before the
 * upgrade or as a close code after it.
 */
export function authFailure(error: unknown): AuthFailure {
  if (!isAppError(error)) {
    // Anything but a refusal means the credentials could not be read; name what is gone when known.
    return {
      code: 'service_unavailable',
      message: 'credentials could not be checked; retry',
      reason: lostDependencyOf(error) ?? 'postgres',
      httpStatus: 503,
      closeCode: CloseCode.InternalError,
    };
  }
  if (error.code === 'service_unavailable') {
    return {
      code: 'service_unavailable',
      message: error.message,
      reason: error.reason,
      httpStatus: 503,
      closeCode: CloseCode.InternalError,
    };
  }
  if (error.code === 'insufficient_scope' || error.code === 'ip_not_allowed') {
    return {
      code: error.code,
      message: error.message,
      httpStatus: 403,
      closeCode: CloseCode.Forbidden,
    };
  }
  // Every other refusal from the authenticator is a credentials problem (decisions section 4: 401).
  return {
    code: 'unauthorized',
    message: error.message,
    httpStatus: 401,
    closeCode: CloseCode.Unauthorized,
  };
}

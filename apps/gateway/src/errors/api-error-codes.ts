import { ERROR_CODES, type ErrorCode } from '@sts/platform';

/**
 * Codes only the gateway answers with, not among @sts/platform's ERROR_CODES:
 * a pre-trade risk limit is the gateway's rule alone (decisions section 8).
 * Mapped to a status by httpStatusOf and answered by the one filter like an
 * AppError's code.
 */
export const GATEWAY_ERROR_CODES = ['risk_limit_exceeded'] as const;

export type GatewayErrorCode = (typeof GATEWAY_ERROR_CODES)[number];

/** Every code an answer of the API can carry. */
export type ApiErrorCode = ErrorCode | GatewayErrorCode;

export const API_ERROR_CODES: readonly ApiErrorCode[] = [...ERROR_CODES, ...GATEWAY_ERROR_CODES];

/** A refusal with a gateway-only code; `details` join the body as an AppError's do. */
export class GatewayRefusal extends Error {
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'GatewayRefusal';
  }
}

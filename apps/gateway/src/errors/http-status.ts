import type { ErrorCode } from '@sts/platform';

/** The one place an error code becomes an HTTP status (decisions section 4). */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'invalid_request':
    case 'idempotency_key_required':
    case 'invalid_idempotency_key':
    case 'same_exchange':
    case 'market_not_tradeable':
    case 'unknown_exchange':
    case 'invalid_signature':
    case 'nonce_expired':
      return 400;
    case 'unauthorized':
      return 401;
    case 'insufficient_scope':
    case 'ip_not_allowed':
    case 'session_required':
    case 'credentials_not_linked':
      return 403;
    case 'not_found':
    case 'trade_not_found':
    case 'wallet_not_found':
    case 'credential_not_found':
    case 'webhook_not_found':
      return 404;
    case 'maker_cap_exceeded':
    case 'trade_not_amendable':
    case 'wallet_already_linked':
    case 'wallet_is_primary':
    case 'wallet_has_live_trades':
    case 'conflict':
    case 'risk_limit_exceeded':
    case 'webhook_cap_exceeded':
    case 'webhook_disabled':
      return 409;
    case 'method_not_allowed':
      return 405;
    case 'request_timeout':
      return 408;
    case 'payload_too_large':
      return 413;
    case 'uri_too_long':
      return 414;
    case 'unsupported_media_type':
      return 415;
    case 'headers_too_large':
      return 431;
    case 'rate_budget_exhausted':
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    case 'system_maintenance':
    case 'exchange_maintenance':
    case 'kill_switch':
    case 'budget_unavailable':
    case 'service_unavailable':
      return 503;
  }
}

/**
 * Every error the service reports carries one of these machine codes
 * (decisions section 4). Shared and worker code throws `AppError`; only the
 * HTTP edge maps a code to a status.
 */
export const ERROR_CODES = [
  'unauthorized',
  'insufficient_scope',
  'ip_not_allowed',
  'session_required',
  'invalid_request',
  'not_found',
  'idempotency_key_required',
  'invalid_idempotency_key',
  'same_exchange',
  'market_not_tradeable',
  'credentials_not_linked',
  'maker_cap_exceeded',
  'rate_budget_exhausted',
  'risk_limit_exceeded',
  'budget_unavailable',
  'system_maintenance',
  'exchange_maintenance',
  'kill_switch',
  'trade_not_found',
  'trade_not_amendable',
  'wallet_not_found',
  'wallet_already_linked',
  'wallet_is_primary',
  'wallet_has_live_trades',
  'invalid_signature',
  'nonce_expired',
  'credential_not_found',
  'unknown_exchange',
  'webhook_not_found',
  'webhook_cap_exceeded',
  'webhook_disabled',
  'rate_limited',
  'conflict',
  'service_unavailable',
  // What the HTTP stack refuses before a route runs (every one answered as { error, code }).
  'method_not_allowed',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'headers_too_large',
  'request_timeout',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

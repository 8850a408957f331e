/**
 * WebSocket close codes the notifier sends (apps/notifier/README.md, Close codes).
 * 4000-4999 is the range RFC 6455 leaves to applications; the last three digits
 * echo the HTTP status a REST client would have seen, so clients map them alike.
 * The close reason carries the machine code (`unauthorized`, `slow_consumer`, ...).
 */
export const CloseCode = {
  /** The server is shutting down: reconnect (to another replica) and resubscribe. */
  GoingAway: 1001,
  /** Credentials could not be checked (database unreachable): retry later. */
  InternalError: 1011,
  /** Missing, malformed, unknown, expired or revoked credentials at connect, or no auth in time. */
  Unauthorized: 4001,
  /** Valid credentials without trades:read, or an API key used from a disallowed IP. */
  Forbidden: 4003,
  /** The client did not read fast enough: its unsent bytes passed NOTIFIER_MAX_BUFFERED_BYTES. */
  SlowConsumer: 4008,
  /** The credentials of a live connection were revoked or expired. */
  CredentialsEnded: 4009,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** Machine codes sent as the close reason where no `ErrorCode` fits. */
export const CloseReason = {
  AuthTimeout: 'auth_timeout',
  SlowConsumer: 'slow_consumer',
  CredentialsRevoked: 'credentials_revoked',
  CredentialsExpired: 'credentials_expired',
  GoingAway: 'going_away',
} as const;

/** A refusal with the gateway's error shape: `{ error, code }` with an HTTP status. */
export class IdentityError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 413 | 415,
    readonly code: IdentityErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityError';
  }
}

export type IdentityErrorCode =
  | 'invalid_request'
  | 'domain_mismatch'
  | 'nonce_invalid'
  | 'message_expired'
  | 'invalid_signature'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type';

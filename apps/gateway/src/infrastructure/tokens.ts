/** DI tokens for things that are not classes of ours. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
/** A CredentialCipher under WEBHOOK_SECRETS_KEK: webhook signing secrets, never venue credentials. */
export const WEBHOOK_SECRET_CIPHER = Symbol('WEBHOOK_SECRET_CIPHER');

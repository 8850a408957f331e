/** DI tokens for things that are not classes of ours. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

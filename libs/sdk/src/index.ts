// The browser-safe core: no Node module is imported here or below (the
// package build type-checks it against the DOM library alone).
export * from './client';
export {
  StsApiError,
  StsNetworkError,
  StsStreamClosedError,
  type ErrorBody,
  type ErrorCode,
  type NetworkFailure,
  type StsErrorBody,
  type StsErrorCode,
  type TransportErrorCode,
} from './errors';
export * from './event-stream';
export type { Answered, HttpOptions } from './http-transport';
export * from './retry';
export * from './stream-frames';
export * from './trade-watch';
export * from './types';
export * from './web-socket';
export type { components, operations, paths } from './generated/openapi';

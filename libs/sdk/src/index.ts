export * from './client';
export * from './errors';
export * from './event-stream';
export * from './retry';
export * from './types';
export type { components, operations, paths } from './generated/openapi';

export * from './config';
export * from './crypto';
export * from './errors';
export * from './lifecycle';
export * from './logging';
export * from './nats';
export * from './redis';
export * from './health/edge-dependencies';

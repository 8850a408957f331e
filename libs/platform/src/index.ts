export * from './config';
export * from './errors';
export * from './logging';
export * from './nats';
export * from './redis';

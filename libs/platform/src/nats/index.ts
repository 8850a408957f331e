export * from './nats-connection';
export * from './streams';
export * from './nats-link';

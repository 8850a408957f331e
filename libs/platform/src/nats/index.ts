export * from './nats-connection';
export * from './streams';

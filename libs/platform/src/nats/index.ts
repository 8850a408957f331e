export * from './nats-connection';

export * from './credentials/credential-store';
export * from './data-source';
export * from './entities';
export * from './migrations';
export * from './outbox/jetstream-publisher';
export * from './outbox/outbox';
export * from './outbox/outbox-relay';
export * from './query-rows';

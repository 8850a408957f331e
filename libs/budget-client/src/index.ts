export * from './budget-client';
export * from './budget-errors';
export * from './trade-budget';
export {
  BucketClosedError,
  DEFAULT_BUCKET_WINDOW_MS,
  monotonicClock,
  type BucketClock,
  type TokenBucketOptions,
} from './token-bucket-support';
export * from './token-bucket';
export * from './trade-budget-watch';
export * from './budget-shares-changed';

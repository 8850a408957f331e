export * from './budget-client';
export * from './budget-errors';
export * from './bucket-options';
export * from './token-bucket';
export * from './trade-budget-watch';
export * from './budget-shares-changed';

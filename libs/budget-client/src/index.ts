export * from './budget-client';
export * from './budget-errors';
export * from './trade-budget';
export * from './token-bucket';
export * from './trade-budget-watch';
export * from './budget-shares-changed';

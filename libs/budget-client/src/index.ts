export * from './budget-client';
export * from './budget-errors';
export * from './token-bucket';
export * from './trade-budget-watch';
export * from './budget-shares-changed';

export * from './budget-types';
export * from './cumulative-quotas';
export * from './rebuild-call';
export * from './redis-scripts';
export * from './reserve-shares';
export * from './script-replies';
export * from './shares-changed';
export * from './venue-division';

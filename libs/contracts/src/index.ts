export * from './envelope';
export * from './guards';
export * from './maintenance-changed';
export * from './dead-man-state';
export * from './budget';
export * from './streams';
export * from './trade-lifecycle';
export * from './trade-commands';

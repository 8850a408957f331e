export * from './envelope';
export * from './guards';
export * from './maintenance-changed';
export * from './budget';

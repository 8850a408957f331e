export * from './common.settings';
export * from './load-config';
export * from './venue-registry';

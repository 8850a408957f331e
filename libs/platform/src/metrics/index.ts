export * from './ops-server';
export * from './service-metrics';

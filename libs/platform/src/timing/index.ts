export * from './sleep';
export * from './with-timeout';
export * from './retry-with-backoff';
export * from './periodic-task';

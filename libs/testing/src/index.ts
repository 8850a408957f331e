export * from './jwks-server';
export * from './namespace';
export * from './test-database';
export * from './test-operator';
export * from './tcp-proxy';
export * from './fuzz/error-shape';
export * from './fuzz/hostile-values';
export * from './openapi/openapi-conformance';

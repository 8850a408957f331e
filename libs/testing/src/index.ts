export * from './jwks-server';
export * from './namespace';
export * from './test-database';
export * from './test-operator';
export * from './tcp-proxy';
export * from './openapi/openapi-conformance';
export * from './openapi/asyncapi-conformance';
export * from './unavailable-retry';

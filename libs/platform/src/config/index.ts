export * from './boolean-setting';
export * from './common.settings';
export * from './credentials.settings';
export * from './dotenv';
export * from './load-config';
export * from './venue-registry';
export * from './webhook-secrets.settings';

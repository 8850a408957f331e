export * from './credential-cipher';

export * from './app-error';
export * from './error-codes';
export * from './dependency-failure';

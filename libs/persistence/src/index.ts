export * from './credentials/credential-store';
export * from './data-source';
export * from './entities';
export * from './migrations';

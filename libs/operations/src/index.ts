export * from './commands/api-keys.commands';
export * from './commands/credentials.commands';
export * from './commands/dead-man.commands';
export * from './commands/limits.commands';
export * from './commands/switches.commands';
export * from './commands/users.commands';
export * from './ops-context';
export * from './run-ops';

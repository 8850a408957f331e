/** Nest injection tokens for what the budget service is built from. */
export const BUDGET_SETTINGS = Symbol('BUDGET_SETTINGS');
export const VENUES = Symbol('VENUES');
export const LOGGER = Symbol('LOGGER');
export const REDIS = Symbol('REDIS');
export const NATS = Symbol('NATS');
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const BUDGET_METRICS = Symbol('BUDGET_METRICS');

import { JetStreamError, JetStreamApiError } from '@nats-io/jetstream';
import { errors as natsErrors } from '@nats-io/nats-core';

/** A backing service whose loss the edge reports as 503 service_unavailable, named in `reason`. */
export type Dependency = 'postgres' | 'nats' | 'redis' | 'budget_service' | 'identity_provider';

/** SQLSTATEs that mean "the database is not there right now", not "your query is wrong". */
const POSTGRES_UNAVAILABLE_STATES = /^(08...|57P0[1-3]|57014|53300|53400)$/;

/** Socket-level failures (node system errors) on the way to a backing service. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres and pg-pool report a lost or unreachable server with these uncoded messages. */
const POSTGRES_LOST_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection is not established|connection error/i;

/** TypeORM's errors for a transaction whose connection it released when the server went away. */
const RELEASED_RUNNER_ERRORS = new Set([
  'QueryRunnerProviderAlreadyReleasedError',
  'QueryRunnerAlreadyReleasedError',
]);

/**
 * nats.js errors for a connection that is gone or a request nobody answered
 * in time. A request nobody listens to (NoResponders) is not a lost link.
 */
const NATS_LOST_ERRORS = [
  natsErrors.ClosedConnectionError,
  natsErrors.DrainingConnectionError,
  natsErrors.TimeoutError,
];
/** How nats.js words the RequestError of requests a dropped or closed connection failed. */
const NATS_LOST_REQUEST = /^connection (disconnected|closed)$/;
/** Every error class of the NATS client: none of them is ever Postgres' fault. */
const NATS_ERRORS = [...Object.values(natsErrors), JetStreamError, JetStreamApiError];

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
}

const asErrorLike = (value: unknown): ErrorLike | undefined =>
  typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined;

function natsVerdict(error: ErrorLike): Dependency | undefined {
  if (NATS_LOST_ERRORS.some((type) => error instanceof type)) {
    return 'nats';
  }
  const lostRequest =
    error instanceof natsErrors.RequestError && NATS_LOST_REQUEST.test(error.message);
  return lostRequest ? 'nats' : undefined;
}

function classifyOne(error: ErrorLike): Dependency | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = typeof error.message === 'string' ? error.message : '';
  if (NATS_ERRORS.some((type) => error instanceof type)) {
    return natsVerdict(error);
  }
  // TypeORM released a transaction's connection under it: the server went away mid-transaction.
  if (RELEASED_RUNNER_ERRORS.has(String(error.name))) {
    return 'postgres';
  }
  if (POSTGRES_UNAVAILABLE_STATES.test(code)) {
    return 'postgres';
  }
  if (POSTGRES_LOST_MESSAGES.test(message)) {
    return 'postgres';
  }
  // TypeORM's QueryFailedError and its connection errors carry pg's error as driverError.
  if (error.driverError !== undefined || error.name === 'QueryFailedError') {
    return NETWORK_CODES.has(code) ? 'postgres' : undefined;
  }
  return undefined;
}

/**
 * Which backing service an unexpected error says is gone, if any: the one
 * place that tells "Postgres restarted under us" (503, retry) from a bug
 * (500). It reads the error, its driverError and its cause chain (a few levels).
 * A bare socket error with no other hint is blamed on Postgres, the only
 * service the gateway and notifier reach over a raw client of their own
 * (NATS errors are the NATS client's own classes; the budget service answers over NATS).
 */
export function lostDependencyOf(error: unknown): Dependency | undefined {
  let current = asErrorLike(error);
  for (let depth = 0; current && depth < 4; depth += 1) {
    const found = classifyOne(current);
    if (found) {
      return found;
    }
    const driver = asErrorLike(current.driverError);
    if (driver) {
      const fromDriver = classifyOne(driver);
      if (fromDriver) {
        return fromDriver;
      }
    }
    if (typeof current.code === 'string' && NETWORK_CODES.has(current.code)) {
      return 'postgres';
    }
    current = asErrorLike(current.cause);
  }
  return undefined;
}

/** Postgres refused a value as malformed or out of range (SQLSTATE class 22): input that slipped past validation. */
export function isPostgresDataException(error: unknown): boolean {
  const code = asErrorLike(error)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

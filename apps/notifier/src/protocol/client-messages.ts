import { AppError } from '@sts/platform';

/** Echoed back on the answer so a client can match replies to requests. */
export type RequestId = string | number;

export type ClientMessage =
  | { op: 'auth'; id?: RequestId; apiKey?: string; token?: string }
  | { op: 'subscribe'; id?: RequestId; tradeId?: string }
  | { op: 'unsubscribe'; id?: RequestId; tradeId?: string }
  | { op: 'ping'; id?: RequestId };

export type ClientOp = ClientMessage['op'];

const ALLOWED_FIELDS: Record<ClientOp, readonly string[]> = {
  auth: ['op', 'id', 'api_key', 'token'],
  subscribe: ['op', 'id', 'subscription', 'params'],
  unsubscribe: ['op', 'id', 'subscription', 'params'],
  ping: ['op', 'id'],
};

const isOp = (value: unknown): value is ClientOp =>
  typeof value === 'string' && Object.hasOwn(ALLOWED_FIELDS, value);

/** The request id of a message that failed to parse, when one can be read from it. */
export function requestIdOf(raw: unknown): RequestId | undefined {
  if (typeof raw !== 'object' || raw === null) {
    return undefined;
  }
  const id = (raw as Record<string, unknown>)['id'];
  return isRequestId(id) ? id : undefined;
}

const isRequestId = (value: unknown): value is RequestId =>
  (typeof value === 'string' && value.length <= 64) ||
  (typeof value === 'number' && Number.isSafeInteger(value));

const invalid = (message: string): AppError => new AppError('invalid_request', message);

function optionalString(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) {
    throw invalid(`${field} must be a non-empty string`);
  }
  return value;
}

/** The trade id of a subscribe/unsubscribe; absent means all of the caller's trades. */
function subscriptionTarget(record: Record<string, unknown>): string | undefined {
  if (record['subscription'] !== 'trades') {
    throw invalid('subscription must be "trades"');
  }
  const params = record['params'];
  if (params === undefined) {
    return undefined;
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw invalid('params must be an object');
  }
  const extra = Object.keys(params).filter((key) => key !== 'trade_id');
  if (extra.length > 0) {
    throw invalid(`unknown params field ${extra[0]}`);
  }
  return optionalString(params as Record<string, unknown>, 'trade_id');
}

/**
 * Validates one client frame (decisions section 5). Anything else is an
 * `invalid_request` error answered on the socket; the connection stays open.
 */
export function parseClientMessage(raw: unknown): ClientMessage {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid('a message must be a JSON object');
  }
  const record = raw as Record<string, unknown>;
  const op = record['op'];
  if (!isOp(op)) {
    throw invalid('op must be one of auth, subscribe, unsubscribe, ping');
  }
  const extra = Object.keys(record).filter((key) => !ALLOWED_FIELDS[op].includes(key));
  if (extra.length > 0) {
    throw invalid(`unknown field ${extra[0]} for op ${op}`);
  }
  if (record['id'] !== undefined && !isRequestId(record['id'])) {
    throw invalid('id must be a string of at most 64 characters or an integer');
  }
  const id = record['id'] as RequestId | undefined;
  switch (op) {
    case 'auth': {
      const apiKey = optionalString(record, 'api_key');
      const token = optionalString(record, 'token');
      if ((apiKey === undefined) === (token === undefined)) {
        throw invalid('auth needs exactly one of api_key or token');
      }
      return { op, id, apiKey, token };
    }
    case 'subscribe':
    case 'unsubscribe':
      return { op, id, tradeId: subscriptionTarget(record) };
    case 'ping':
      return { op, id };
  }
}

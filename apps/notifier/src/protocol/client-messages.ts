import { AppError } from '@sts/platform';

/** Echoed back on the answer so a client can match replies to requests. */
export type RequestId = string | number;

/** `trades`: lifecycle events; `fills`: the execution log's fill entries (opt-in). */
export type Subscription = 'trades' | 'fills';

export type ClientMessage =
  | { op: 'auth'; id?: RequestId; apiKey?: string; token?: string }
  | {
      op: 'subscribe';
      id?: RequestId;
      subscription: Subscription;
      tradeId?: string;
      /** fills with a trade_id only: replay the log's fill entries from this sequence first. */
      fromSequence?: number;
    }
  | { op: 'unsubscribe'; id?: RequestId; subscription: Subscription; tradeId?: string }
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

interface SubscriptionTarget {
  subscription: Subscription;
  tradeId?: string;
  fromSequence?: number;
}

/** The params a subscription takes: `from_sequence` only on a fills subscribe. */
const paramsAllowed = (op: 'subscribe' | 'unsubscribe', subscription: Subscription): string[] =>
  op === 'subscribe' && subscription === 'fills' ? ['trade_id', 'from_sequence'] : ['trade_id'];

function fromSequenceOf(params: Record<string, unknown>, tradeId: string | undefined) {
  const value = params['from_sequence'];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalid('from_sequence must be a non-negative integer');
  }
  if (tradeId === undefined) {
    throw invalid('from_sequence needs a trade_id');
  }
  return value;
}

/** What a subscribe/unsubscribe names; no trade_id means all of the caller's trades. */
function subscriptionTarget(
  op: 'subscribe' | 'unsubscribe',
  record: Record<string, unknown>,
): SubscriptionTarget {
  const subscription = record['subscription'];
  if (subscription !== 'trades' && subscription !== 'fills') {
    throw invalid('subscription must be "trades" or "fills"');
  }
  const params = record['params'];
  if (params === undefined) {
    return { subscription };
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw invalid('params must be an object');
  }
  const allowed = paramsAllowed(op, subscription);
  const extra = Object.keys(params).filter((key) => !allowed.includes(key));
  if (extra.length > 0) {
    throw invalid(`unknown params field ${extra[0]}`);
  }
  const tradeId = optionalString(params as Record<string, unknown>, 'trade_id');
  const fromSequence = fromSequenceOf(params as Record<string, unknown>, tradeId);
  return { subscription, tradeId, ...(fromSequence === undefined ? {} : { fromSequence }) };
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
      return { op, id, ...subscriptionTarget(op, record) };
    case 'unsubscribe': {
      const { subscription, tradeId } = subscriptionTarget(op, record);
      return { op, id, subscription, tradeId };
    }
    case 'ping':
      return { op, id };
  }
}

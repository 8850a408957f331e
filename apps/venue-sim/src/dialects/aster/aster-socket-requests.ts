import type { RawData } from 'ws';
import type { StreamConnection } from '../../api/stream-connection';

const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'];

/** One socket: its streams, combined or raw payloads, and the account of its listenKey. */
export interface AsterSocket {
  connection: StreamConnection;
  streams: Set<string>;
  combined: boolean;
  listenKey?: string;
  /** Set once `listenKeyExpired` went out: no more user data on this socket. */
  expired?: boolean;
}

/**
 * A request on an Aster socket, answered in the venue's words: SUBSCRIBE
 * (acknowledged, then the streams added), UNSUBSCRIBE, LIST_SUBSCRIPTIONS,
 * SET_PROPERTY / GET_PROPERTY of `combined`; a malformed one gets the
 * venue's error code and text.
 */
export function answerSocketRequest(
  entry: AsterSocket,
  data: RawData,
  subscribe: (names: string[]) => void,
): void {
  const reply = (body: unknown): void => entry.connection.send(JSON.stringify(body));
  let message: unknown;
  try {
    message = JSON.parse(data.toString());
  } catch {
    return reply({ code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' });
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) {
    return reply({ code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' });
  }
  const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
  if (id !== undefined && id !== null && !(Number.isSafeInteger(id) && (id as number) >= 0)) {
    return reply({
      code: 2,
      msg: 'Invalid request: request ID must be an unsigned integer',
    });
  }
  const requestId = (id as number | undefined) ?? null;
  if (typeof method !== 'string' || !METHODS.includes(method)) {
    return reply({
      code: 2,
      msg: `Invalid request: unknown variant ${String(method)}, expected one of \`SUBSCRIBE\`, \`UNSUBSCRIBE\`, \`LIST_SUBSCRIPTIONS\`, \`SET_PROPERTY\`, \`GET_PROPERTY\``,
    });
  }
  const args = Array.isArray(params) ? params : [];
  switch (method) {
    case 'SUBSCRIBE':
      reply({ result: null, id: requestId });
      return subscribe(args.filter((name): name is string => typeof name === 'string'));
    case 'UNSUBSCRIBE':
      for (const name of args) {
        if (typeof name === 'string') {
          entry.streams.delete(name);
        }
      }
      return reply({ result: null, id: requestId });
    case 'LIST_SUBSCRIPTIONS':
      return reply({ result: [...entry.streams], id: requestId });
    case 'SET_PROPERTY':
      if (args[0] !== 'combined') {
        return reply({ code: 0, msg: 'Unknown property' });
      }
      if (typeof args[1] !== 'boolean') {
        return reply({ code: 1, msg: 'Invalid value type: expected Boolean' });
      }
      entry.combined = args[1];
      return reply({ result: null, id: requestId });
    case 'GET_PROPERTY':
      if (args[0] !== 'combined') {
        return reply({ code: 0, msg: 'Unknown property' });
      }
      return reply({ result: entry.combined, id: requestId });
  }
}

import { request as httpRequest } from 'node:http';
import {
  signedHeaders,
  type PaperCredentials,
  type WireOrderRequest,
  type WireServerMessage,
} from '@sts/venues';
import WebSocket from 'ws';
import { sleep } from '@sts/platform';

export type SocketAnswer = Extract<WireServerMessage, { type: 'response' }>;

/**
 * A venue socket driven by hand, for specs at the protocol level: what it
 * received, in order, whether and when the venue cut it.
 */
export class RawVenueSocket {
  readonly received: WireServerMessage[] = [];
  closedAtMs?: number;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) =>
      this.received.push(JSON.parse(data.toString()) as WireServerMessage),
    );
    socket.on('close', () => (this.closedAtMs = Date.now()));
  }

  /** Opens a socket (signed when credentials are given); rejects when the handshake is refused. */
  static async open(url: string, credentials?: PaperCredentials): Promise<RawVenueSocket> {
    const path = new URL(url).pathname;
    const socket = new WebSocket(url, {
      headers: credentials ? signedHeaders(credentials, 'GET', path, '') : {},
    });
    const raw = new RawVenueSocket(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return raw;
  }

  /** A signed socket with its account channel confirmed. */
  static async account(url: string, credentials: PaperCredentials): Promise<RawVenueSocket> {
    const raw = await RawVenueSocket.open(url, credentials);
    raw.send({ op: 'subscribe', channel: 'account' });
    await raw.until(() =>
      raw.received.some(
        (message) => message.type === 'subscribed' && message.channel === 'account',
      ),
    );
    return raw;
  }

  send(message: WireOrderRequest | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  answerTo(id: string): SocketAnswer | undefined {
    return this.received.find(
      (message): message is SocketAnswer => message.type === 'response' && message.id === id,
    );
  }

  async answer(id: string, timeoutMs = 3_000): Promise<SocketAnswer> {
    await this.until(() => this.answerTo(id) !== undefined, timeoutMs);
    return this.answerTo(id)!;
  }

  /** The `order` stream messages received for one client order id. */
  orderEvents(clientOrderId: string): Array<Extract<WireServerMessage, { type: 'order' }>> {
    return this.received.filter(
      (message): message is Extract<WireServerMessage, { type: 'order' }> =>
        message.type === 'order' && message.order.client_order_id === clientOrderId,
    );
  }

  async closed(timeoutMs = 3_000): Promise<void> {
    await this.until(() => this.closedAtMs !== undefined, timeoutMs);
  }

  async until(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) {
        throw new Error(`condition not met within ${timeoutMs} ms`);
      }
      await sleep(5);
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** How a raw HTTP request ended: an answer, or the connection failed under it. */
export type RawHttpOutcome =
  | { kind: 'answer'; status: number; body: Record<string, unknown>; atMs: number }
  | { kind: 'connection_error'; message: string; atMs: number };

/**
 * One signed request on a connection of its own (no keep-alive pool), so a
 * spec sees exactly what the venue did to that connection.
 */
export function signedHttp(
  baseUrl: string,
  credentials: PaperCredentials,
  method: string,
  pathWithQuery: string,
  body?: unknown,
): Promise<RawHttpOutcome> {
  const url = new URL(baseUrl);
  const text = body === undefined ? '' : JSON.stringify(body);
  const fullPath = `${url.pathname.replace(/\/+$/, '')}${pathWithQuery}`;
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: fullPath,
        method,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          ...signedHeaders(credentials, method, fullPath, text),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            kind: 'answer',
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<
              string,
              unknown
            >,
            atMs: Date.now(),
          }),
        );
      },
    );
    req.on('error', (error) =>
      resolve({ kind: 'connection_error', message: error.message, atMs: Date.now() }),
    );
    req.end(text);
  });
}

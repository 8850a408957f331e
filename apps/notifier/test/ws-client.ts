import { join } from 'node:path';
import WebSocket from 'ws';
import { AsyncApiConformance } from '@sts/testing';

/** Every frame a spec receives must be a message the AsyncAPI document describes. */
export const asyncApi = new AsyncApiConformance(join(__dirname, '../../gateway/asyncapi.json'));

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A real WebSocket client for specs: records every frame, lets a spec wait for
 * the next frame matching a predicate, and reports how the socket closed.
 */
export class TestClient {
  readonly messages: any[] = [];
  readonly closed: Promise<Closed>;
  private cursor = 0;
  /** Frames that break the AsyncAPI document; the next read fails with them. */
  private readonly nonConforming: string[] = [];
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      this.messages.push(frame);
      this.nonConforming.push(...asyncApi.problemsOf(frame));
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      });
    });
    socket.on('error', () => undefined);
  }

  /** Opens a socket; rejects with the HTTP status and body when the upgrade is refused. */
  static connect(
    url: string,
    options: { headers?: Record<string, string>; autoPong?: boolean } = {},
  ): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: options.headers,
        autoPong: options.autoPong ?? true,
      });
      const client = new TestClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () =>
          reject(
            Object.assign(new Error(`upgrade refused: ${response.statusCode}`), {
              status: response.statusCode,
              body: body ? JSON.parse(body) : undefined,
            }),
          ),
        );
      });
      socket.once('error', reject);
    });
  }

  /** The HTTP answer to an upgrade the server refuses. */
  static async refused(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: any }> {
    try {
      const client = await TestClient.connect(url, { headers });
      client.socket.terminate();
      throw new Error('the upgrade was accepted');
    } catch (error) {
      const refusal = error as { status?: number; body?: any };
      if (refusal.status === undefined) {
        throw error;
      }
      return { status: refusal.status, body: refusal.body };
    }
  }

  /** Connects and authenticates with an auth message; resolves on `authenticated`. */
  static async authenticated(
    url: string,
    credentials: { api_key?: string; token?: string },
  ): Promise<TestClient> {
    const client = await TestClient.connect(url);
    client.send({ op: 'auth', ...credentials });
    await client.next((message) => message.type === 'authenticated');
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Sends a subscribe and waits for its answer (subscribed or error). */
  async subscribe(tradeId?: string): Promise<any> {
    const id = `sub-${Math.random().toString(36).slice(2)}`;
    this.send({
      op: 'subscribe',
      id,
      subscription: 'trades',
      ...(tradeId ? { params: { trade_id: tradeId } } : {}),
    });
    return this.next((message) => message.id === id);
  }

  /** The next frame after the previous match that satisfies `predicate`; frames skipped stay readable via `messages`. */
  async next(predicate: (message: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.nonConforming.length > 0) {
        throw new Error(`frames break the AsyncAPI document: ${this.nonConforming.join('; ')}`);
      }
      for (let index = this.cursor; index < this.messages.length; index += 1) {
        if (predicate(this.messages[index])) {
          this.cursor = index + 1;
          return this.messages[index];
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(this.cursor))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Events received so far (frames of type `event`). */
  events(filter: (message: any) => boolean = () => true): any[] {
    return this.messages.filter((message) => message.type === 'event' && filter(message));
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) {
      return;
    }
    this.socket.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.closed,
      new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
    ]);
    clearTimeout(timer);
    this.socket.terminate();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) {
      wake();
    }
  }
}

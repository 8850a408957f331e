import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver took, and what it answered (undefined while held). */
export interface Received {
  /** The path without its query. */
  path: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
  status?: number;
}

/** What a path answers: a status (and headers), or `hold`: no answer at all. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hold';

/**
 * A webhook receiver on 127.0.0.1: every request kept, each path answering
 * as the spec tells it (200 unless told), told by the request's number on
 * its path (0 for the first).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, (index: number, request: Received) => Answer>();
  private readonly held = new Map<ServerResponse, Received>();
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = (request.url ?? '/').split('?')[0];
        const received: Received = {
          path,
          url: request.url ?? '/',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const index = this.of(path).length;
        this.received.push(received);
        const answer = this.answers.get(path)?.(index, received) ?? { status: 200 };
        if (answer === 'hold') {
          this.held.set(response, received);
          return;
        }
        received.status = answer.status;
        response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** How `path` answers from now on. */
  answer(path: string, answer: (index: number, request: Received) => Answer): void {
    this.answers.set(path, answer);
  }

  /** Answers every request held on `path` with `status`, as it would have at once. */
  release(path: string, status: number): void {
    for (const [response, received] of this.held) {
      if (received.path === path) {
        this.held.delete(response);
        received.status = status;
        response.writeHead(status).end();
      }
    }
  }

  /** The requests `path` took, in arrival order. */
  of(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    for (const response of this.held.keys()) {
      response.destroy();
    }
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Polls `probe` until it returns something other than null, undefined or false; fails naming `what` after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== null && value !== undefined && value !== false) {
        return value;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (${String(lastError)})` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

import type { Duplex } from 'node:stream';
import type { StreamConnection } from '../api/stream-connection';

/** Refuses a WebSocket upgrade with an HTTP status, as a venue's gateway does. */
export function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

const HEARTBEAT_MS = 15_000;

/**
 * The open sockets of one dialect. Every 15 s each is pinged; one that did
 * not answer the last ping (or that `isStale` condemns, e.g. silent too long)
 * is cut. `drop` cuts sockets like a network failure (the `drop-ws` fault).
 */
export class DialectSockets<T extends { connection: StreamConnection }> implements Iterable<T> {
  private readonly entries = new Set<T>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly isStale: (entry: T, nowMs: number) => boolean = () => false) {
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  add(entry: T): void {
    this.entries.add(entry);
  }

  delete(entry: T): void {
    this.entries.delete(entry);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.entries[Symbol.iterator]();
  }

  /** Cuts one socket like a network failure. */
  cut(entry: T): void {
    entry.connection.drop();
    this.entries.delete(entry);
  }

  /** Cuts the sockets `match` picks (every one by default); returns how many. */
  drop(match: (entry: T) => boolean = () => true): number {
    let dropped = 0;
    for (const entry of this.entries) {
      if (!match(entry)) {
        continue;
      }
      entry.connection.drop();
      this.entries.delete(entry);
      dropped += 1;
    }
    return dropped;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.drop();
  }

  private checkAlive(): void {
    const now = Date.now();
    this.drop((entry) => !entry.connection.alive || this.isStale(entry, now));
    for (const entry of this.entries) {
      entry.connection.alive = false;
      entry.connection.socket.ping();
    }
  }
}

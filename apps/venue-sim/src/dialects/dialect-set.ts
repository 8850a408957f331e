import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Router } from '../api/http-kit';
import { sourceAddressOf } from '../api/source-address';
import type { BookDelta } from '../engine/order-book';
import type { EngineFill, EngineOrder, EngineSink } from '../engine/types';
import type { Dialect, DialectDeps, DialectFactory } from './dialect';
import type { SocketSources } from './socket-sources';

const DIALECT_PATH = /^\/dialects\/([a-z0-9_-]+)(?:\/|$)/;

/**
 * The dialects a simulator serves, one per venue that has one, behind one
 * sink: the engine's events reach the paper stream hub and every dialect in
 * the order they happen.
 */
export class DialectSet implements EngineSink {
  private readonly byVenue = new Map<string, Dialect>();

  constructor(
    factories: ReadonlyMap<string, DialectFactory>,
    venueIds: readonly string[],
    deps: DialectDeps,
    private readonly paper: EngineSink,
    /** Where each upgrade came from (the control read-out). */
    private readonly sources: SocketSources,
  ) {
    for (const venue of venueIds) {
      const factory = factories.get(venue);
      if (factory) {
        this.byVenue.set(venue, factory(deps));
      }
    }
  }

  get venues(): string[] {
    return [...this.byVenue.keys()];
  }

  addRoutes(router: Router): void {
    for (const dialect of this.byVenue.values()) {
      dialect.addRoutes(router);
    }
  }

  /** True when the upgrade was a dialect's (taken or refused by it). */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const venue = DIALECT_PATH.exec(new URL(request.url ?? '/', 'http://venue-sim').pathname)?.[1];
    if (venue === undefined) {
      return false;
    }
    const dialect = this.byVenue.get(venue);
    if (!dialect) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    this.sources.opened(venue, sourceAddressOf(request.socket));
    dialect.handleUpgrade(request, socket, head);
    return true;
  }

  /** Cuts dialect sockets of a venue (or of every venue), of one account when given. */
  drop(venue?: string, accountId?: string): number {
    let dropped = 0;
    for (const dialect of this.byVenue.values()) {
      if (venue === undefined || dialect.venue === venue) {
        dropped += dialect.drop(accountId);
      }
    }
    return dropped;
  }

  close(): void {
    for (const dialect of this.byVenue.values()) {
      dialect.close();
    }
  }

  book(venue: string, symbol: string, delta: BookDelta & { seq: number }, tsMs: number): void {
    this.paper.book(venue, symbol, delta, tsMs);
    this.byVenue.get(venue)?.book(venue, symbol, delta, tsMs);
  }

  order(venue: string, order: EngineOrder): void {
    this.paper.order(venue, order);
    this.byVenue.get(venue)?.order(venue, order);
  }

  fill(venue: string, fill: EngineFill): void {
    this.paper.fill(venue, fill);
    this.byVenue.get(venue)?.fill(venue, fill);
  }
}

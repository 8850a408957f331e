import { newDeliveryCounts, type ClientConnection, type DeliveryCounts } from './client-connection';
import { FillStream } from './fill-stream';

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V): void => {
  let members = index.get(key);
  if (!members) {
    members = new Set();
    index.set(key, members);
  }
  members.add(value);
};

const removeFrom = <K, V>(index: Map<K, Set<V>>, key: K, value: V): void => {
  const members = index.get(key);
  if (!members) {
    return;
  }
  members.delete(value);
  if (members.size === 0) {
    index.delete(key);
  }
};

/**
 * Every socket of this replica and who listens to what, indexed so that an
 * event costs a lookup by trade id and by user id rather than a scan of every
 * connection. The connection's own fields mirror the indexes; only this class
 * changes either, so they never disagree.
 */
export class ConnectionRegistry {
  private readonly connections = new Set<ClientConnection>();
  private readonly allTradesByUser = new Map<string, Set<ClientConnection>>();
  private readonly byTrade = new Map<string, Set<ClientConnection>>();
  private readonly allFillsByUser = new Map<string, Set<ClientConnection>>();
  private readonly fillsByTrade = new Map<string, Set<ClientConnection>>();
  private stamp = 0;
  /** What every socket of this replica wrote and refused (read by the metrics). */
  readonly counts: DeliveryCounts = newDeliveryCounts();

  get size(): number {
    return this.connections.size;
  }

  /** Subscriptions held: one per trade subscribed, one per all-of-my-trades (lifecycle and fills). */
  subscriptionCount(): number {
    let count = 0;
    for (const connection of this.connections) {
      count += connection.trades.size + (connection.allTrades ? 1 : 0);
      count += connection.fillStreams.size + (connection.allFills ? 1 : 0);
    }
    return count;
  }

  add(connection: ClientConnection): void {
    this.connections.add(connection);
  }

  /** Forgets the socket and all its subscriptions; safe to call twice. */
  remove(connection: ClientConnection): void {
    if (!this.connections.delete(connection)) {
      return;
    }
    if (connection.userId !== undefined) {
      removeFrom(this.allTradesByUser, connection.userId, connection);
      removeFrom(this.allFillsByUser, connection.userId, connection);
    }
    for (const tradeId of connection.fillStreams.keys()) {
      removeFrom(this.fillsByTrade, tradeId, connection);
    }
    connection.fillStreams.clear();
    connection.allFills = false;
    for (const tradeId of connection.trades) {
      removeFrom(this.byTrade, tradeId, connection);
    }
    if (connection.pending) {
      removeFrom(this.byTrade, connection.pending.tradeId, connection);
    }
    connection.trades.clear();
    connection.pending = undefined;
    connection.allTrades = false;
  }

  subscribeAllTrades(connection: ClientConnection, userId: string): void {
    connection.allTrades = true;
    addTo(this.allTradesByUser, userId, connection);
  }

  unsubscribeAllTrades(connection: ClientConnection, userId: string): void {
    connection.allTrades = false;
    removeFrom(this.allTradesByUser, userId, connection);
  }

  /** Starts listening to a trade whose ownership is still being checked; its events are held. */
  holdTrade(connection: ClientConnection, tradeId: string): void {
    connection.pending = { tradeId, held: [] };
    addTo(this.byTrade, tradeId, connection);
  }

  /** Ownership confirmed: the subscription is live. Returns the events held meanwhile. */
  confirmTrade(connection: ClientConnection, tradeId: string): Buffer[] {
    const held = connection.pending?.tradeId === tradeId ? connection.pending.held : [];
    connection.pending = undefined;
    connection.trades.add(tradeId);
    addTo(this.byTrade, tradeId, connection);
    return held;
  }

  /** Ownership refused, or the client unsubscribed: the trade is forgotten, held events dropped. */
  dropTrade(connection: ClientConnection, tradeId: string): void {
    if (connection.pending?.tradeId === tradeId) {
      connection.pending = undefined;
    }
    connection.trades.delete(tradeId);
    removeFrom(this.byTrade, tradeId, connection);
  }

  subscribeAllFills(connection: ClientConnection, userId: string): void {
    connection.allFills = true;
    addTo(this.allFillsByUser, userId, connection);
  }

  unsubscribeAllFills(connection: ClientConnection, userId: string): void {
    connection.allFills = false;
    removeFrom(this.allFillsByUser, userId, connection);
  }

  /**
   * Starts (or restarts) the socket's fills subscription to a trade, holding
   * its live fills until the ownership check and the replay are done.
   */
  openFillStream(connection: ClientConnection, tradeId: string): FillStream {
    const stream = new FillStream(tradeId);
    connection.fillStreams.set(tradeId, stream);
    addTo(this.fillsByTrade, tradeId, connection);
    return stream;
  }

  /** Refused or unsubscribed; only `stream` when given (a newer subscription is left alone). */
  dropFillStream(connection: ClientConnection, tradeId: string, stream?: FillStream): void {
    if (stream && connection.fillStreams.get(tradeId) !== stream) {
      return;
    }
    connection.fillStreams.delete(tradeId);
    removeFrom(this.fillsByTrade, tradeId, connection);
  }

  /** Calls `visit` once per socket of `userId` subscribed to the fills of `tradeId` or of all its trades. */
  forFill(tradeId: string, userId: string, visit: (connection: ClientConnection) => void): void {
    this.visitOnce(tradeId, userId, this.allFillsByUser, this.fillsByTrade, visit);
  }

  /**
   * Calls `visit` once per socket of `userId` that listens to `tradeId`, either
   * through all-of-my-trades or the single trade. The owner check repeats the
   * one made at subscribe time: an event never reaches another user's socket.
   */
  forTradeEvent(
    tradeId: string,
    userId: string,
    visit: (connection: ClientConnection) => void,
  ): void {
    this.visitOnce(tradeId, userId, this.allTradesByUser, this.byTrade, visit);
  }

  private visitOnce(
    tradeId: string,
    userId: string,
    byUser: Map<string, Set<ClientConnection>>,
    byTrade: Map<string, Set<ClientConnection>>,
    visit: (connection: ClientConnection) => void,
  ): void {
    const stamp = ++this.stamp;
    const everyTrade = byUser.get(userId);
    if (everyTrade) {
      for (const connection of everyTrade) {
        if (connection.isOpen && connection.userId === userId) {
          connection.lastStamp = stamp;
          visit(connection);
        }
      }
    }
    const oneTrade = byTrade.get(tradeId);
    if (oneTrade) {
      for (const connection of oneTrade) {
        if (connection.isOpen && connection.userId === userId && connection.lastStamp !== stamp) {
          connection.lastStamp = stamp;
          visit(connection);
        }
      }
    }
  }

  /** Every authenticated socket (maintenance goes to all of them). */
  *authenticated(): Iterable<ClientConnection> {
    for (const connection of this.connections) {
      if (connection.isOpen) {
        yield connection;
      }
    }
  }

  all(): Iterable<ClientConnection> {
    return this.connections;
  }
}

import { lostDependencyOf, type Logger } from '@sts/platform';
import type { ClientConnection } from '../../connections/client-connection';
import type { ConnectionRegistry } from '../../connections/connection-registry';
import type { RequestId } from '../../protocol/client-messages';
import { errorReply, subscribedReply } from '../../protocol/server-messages';
import type { TradeOwnershipReader } from '../../trades/trade-ownership.reader';

/**
 * `{"op":"subscribe","subscription":"trades","params":{"trade_id":...}}`: one
 * trade of the caller's, or (no trade_id) every trade of the caller's.
 *
 * A single trade starts listening before its ownership is read and holds what
 * arrives meanwhile, so no event falls between the `subscribed` answer (which
 * carries the status read) and the live stream. Held events are dropped
 * unseen when the trade is not the caller's.
 */
export class SubscribeTrades {
  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly trades: TradeOwnershipReader,
    private readonly maxTradeSubscriptions: number,
    private readonly log: Logger,
  ) {}

  async execute(
    connection: ClientConnection,
    tradeId: string | undefined,
    id?: RequestId,
  ): Promise<void> {
    const userId = connection.userId;
    if (userId === undefined) {
      return;
    }
    if (tradeId === undefined) {
      this.registry.subscribeAllTrades(connection, userId);
      connection.reply(subscribedReply(undefined, undefined, id));
      return;
    }
    await this.subscribeOne(connection, userId, tradeId, id);
  }

  private async subscribeOne(
    connection: ClientConnection,
    userId: string,
    tradeId: string,
    id?: RequestId,
  ): Promise<void> {
    const context = { id, op: 'subscribe' as const, tradeId };
    const alreadySubscribed = connection.trades.has(tradeId);
    if (!alreadySubscribed && connection.trades.size >= this.maxTradeSubscriptions) {
      connection.reply(
        errorReply(
          'invalid_request',
          `at most ${this.maxTradeSubscriptions} trade subscriptions per connection; subscribe without trade_id for all trades`,
          context,
        ),
      );
      return;
    }

    this.registry.holdTrade(connection, tradeId);
    let status: string | null;
    try {
      status = await this.trades.statusOfOwnTrade(tradeId, userId);
    } catch (error) {
      this.lookupFailed(connection, tradeId, alreadySubscribed, error, context);
      return;
    }
    if (!connection.isOpen) {
      this.registry.dropTrade(connection, tradeId);
      return;
    }
    if (status === null) {
      this.registry.dropTrade(connection, tradeId);
      connection.reply(errorReply('trade_not_found', 'trade not found', context));
      return;
    }
    const held = this.registry.confirmTrade(connection, tradeId);
    connection.reply(subscribedReply(tradeId, status, id));
    for (const frame of held) {
      connection.deliver(frame);
    }
  }

  /** The ownership could not be read: an earlier subscription stays, a new one is dropped. */
  private lookupFailed(
    connection: ClientConnection,
    tradeId: string,
    alreadySubscribed: boolean,
    error: unknown,
    context: { id?: RequestId; op: 'subscribe'; tradeId: string },
  ): void {
    this.log.error(
      { err: error, trade_id: tradeId, connection_id: connection.id },
      'trade lookup failed',
    );
    if (alreadySubscribed) {
      this.registry.confirmTrade(connection, tradeId);
    } else {
      this.registry.dropTrade(connection, tradeId);
    }
    connection.reply(
      errorReply('service_unavailable', 'could not check the trade; retry', {
        ...context,
        reason: lostDependencyOf(error) ?? 'postgres',
      }),
    );
  }
}

import type { ClientConnection } from '../../connections/client-connection';
import type { ConnectionRegistry } from '../../connections/connection-registry';
import type { RequestId } from '../../protocol/client-messages';
import { unsubscribedReply } from '../../protocol/server-messages';

/**
 * `{"op":"unsubscribe",...}`: stops one trade, or (no trade_id) the
 * all-of-my-trades subscription. Idempotent: unsubscribing what was never
 * subscribed answers `unsubscribed` too, so a client can always reset.
 */
export class UnsubscribeTrades {
  constructor(private readonly registry: ConnectionRegistry) {}

  execute(connection: ClientConnection, tradeId: string | undefined, id?: RequestId): void {
    const userId = connection.userId;
    if (userId === undefined) {
      return;
    }
    if (tradeId === undefined) {
      this.registry.unsubscribeAllTrades(connection, userId);
    } else {
      this.registry.dropTrade(connection, tradeId);
    }
    connection.reply(unsubscribedReply(tradeId, id));
  }
}

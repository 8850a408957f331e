import type { ClientConnection } from '../../connections/client-connection';
import type { ConnectionRegistry } from '../../connections/connection-registry';
import type { RequestId } from '../../protocol/client-messages';
import { fillsUnsubscribedReply } from '../../protocol/server-messages';

/**
 * `{"op":"unsubscribe","subscription":"fills",...}`: stops one trade's fills,
 * or (no trade_id) the all-of-my-trades fills. Idempotent, like trades.
 */
export class UnsubscribeFills {
  constructor(private readonly registry: ConnectionRegistry) {}

  execute(connection: ClientConnection, tradeId: string | undefined, id?: RequestId): void {
    const userId = connection.userId;
    if (userId === undefined) {
      return;
    }
    if (tradeId === undefined) {
      this.registry.unsubscribeAllFills(connection, userId);
    } else {
      this.registry.dropFillStream(connection, tradeId);
    }
    connection.reply(fillsUnsubscribedReply(tradeId, id));
  }
}

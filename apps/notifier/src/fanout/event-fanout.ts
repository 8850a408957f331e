import type { Envelope, MaintenanceChanged, TradeFill, TradeLifecycle } from '@sts/contracts';
import type { Logger } from '@sts/platform';
import type { ConnectionRegistry } from '../connections/connection-registry';
import { fillFrame, lifecycleFrame, maintenanceFrame } from '../protocol/server-messages';

/**
 * Turns one NATS event into socket frames: serialized once, written to every
 * socket that may see it. Writes never wait: a socket that cannot keep up is
 * closed by its own slow-consumer check, never waited for.
 */
export class EventFanout {
  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly log: Logger,
  ) {}

  /** To the owner's sockets subscribed to this trade or to all of their trades. Returns how many. */
  tradeLifecycle(message: Envelope<TradeLifecycle>): number {
    const { trade_id: tradeId, user_id: userId } = message.payload;
    const frame = lifecycleFrame(message);
    let recipients = 0;
    this.registry.forTradeEvent(tradeId, userId, (connection) => {
      connection.deliverForTrade(tradeId, frame);
      recipients += 1;
    });
    this.log.debug(
      {
        trade_id: tradeId,
        event: message.payload.event,
        correlation_id: message.correlation_id,
        recipients,
      },
      'lifecycle event fanned out',
    );
    return recipients;
  }

  /** A logged fill: to the owner's sockets subscribed to the trade's fills or to all of theirs. */
  tradeFill(message: Envelope<TradeFill>): number {
    const { trade_id: tradeId, user_id: userId, sequence } = message.payload;
    const fill = { sequence, frame: fillFrame(message.payload) };
    let recipients = 0;
    this.registry.forFill(tradeId, userId, (connection) => {
      connection.deliverFill(tradeId, fill);
      recipients += 1;
    });
    this.log.debug(
      {
        trade_id: tradeId,
        sequence,
        event_type: message.payload.event_type,
        correlation_id: message.correlation_id,
        recipients,
      },
      'fill fanned out',
    );
    return recipients;
  }

  /** Maintenance and the kill switch: to every authenticated socket, subscribed or not. */
  maintenanceChanged(message: Envelope<MaintenanceChanged>): number {
    const frame = maintenanceFrame(message);
    let recipients = 0;
    for (const connection of this.registry.authenticated()) {
      connection.deliver(frame);
      recipients += 1;
    }
    this.log.info(
      {
        exchange: message.payload.exchange,
        enabled: message.payload.enabled,
        correlation_id: message.correlation_id,
        recipients,
      },
      'maintenance event fanned out',
    );
    return recipients;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import {
  decodeEnvelope,
  encodeEnvelope,
  envelope,
  parseTradeControlReply,
  TRADE_CONTROL,
  TRADE_CONTROL_REPLY,
  tradeControlSubject,
  type TradeControlKind,
} from '@sts/contracts';
import type { NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from '../../infrastructure/tokens';

/** How long PATCH waits for the owning worker before answering 202 (decisions section 4). */
export const OWNER_ACK_TIMEOUT_MS = 500;

/**
 * Tells the worker that owns a trade to apply what is already stored. Resolves
 * true only when the owner acknowledged; no owner, a timeout or a refusal is
 * false, and the stored change waits for whoever runs the trade next.
 */
@Injectable()
export class TradeControl {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async notifyOwner(
    tradeId: string,
    kind: TradeControlKind,
    amendmentVersion: number,
    correlationId: string,
  ): Promise<boolean> {
    try {
      const reply = await this.nats.request(
        tradeControlSubject(this.config.settings.natsPrefix, tradeId),
        encodeEnvelope(
          envelope(
            TRADE_CONTROL,
            { kind, trade_id: tradeId, amendment_version: amendmentVersion },
            { correlationId },
          ),
        ),
        { timeout: OWNER_ACK_TIMEOUT_MS },
      );
      return decodeEnvelope(reply.data, TRADE_CONTROL_REPLY, parseTradeControlReply).payload
        .accepted;
    } catch {
      return false;
    }
  }
}

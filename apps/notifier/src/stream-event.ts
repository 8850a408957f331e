import {
  decodeEnvelope,
  MAINTENANCE_CHANGED,
  maintenanceChangedSubject,
  parseMaintenanceChanged,
  parseTradeFill,
  parseTradeLifecycle,
  TRADE_FILL,
  TRADE_LIFECYCLE,
  tradeFillSubject,
  tradeLifecycleSubject,
  type Envelope,
  type MaintenanceChanged,
  type TradeFill,
  type TradeLifecycle,
} from '@sts/contracts';

/** An event of the events stream, decoded and validated: what the fan-out and the webhooks read. */
export type StreamEvent =
  | { kind: 'lifecycle'; message: Envelope<TradeLifecycle> }
  | { kind: 'fill'; message: Envelope<TradeFill> }
  | { kind: 'maintenance'; message: Envelope<MaintenanceChanged> };

/**
 * Reads an events-stream message by its subject: a lifecycle event, a fill
 * or a maintenance change, validated (envelope, payload, the subject's trade
 * id matching the payload's); null for a subject neither reader serves.
 * Throws on a message that fails validation: it is dropped whole.
 */
export class StreamEventDecoder {
  private readonly maintenanceSubject: string;
  private readonly tradeSubjectPrefix: string;
  private readonly fillSubjectPrefix: string;

  constructor(private readonly natsPrefix: string) {
    this.maintenanceSubject = maintenanceChangedSubject(natsPrefix);
    this.tradeSubjectPrefix = tradeLifecycleSubject(natsPrefix, '');
    this.fillSubjectPrefix = tradeFillSubject(natsPrefix, '');
  }

  decode(subject: string, data: Uint8Array): StreamEvent | null {
    if (subject === this.maintenanceSubject) {
      return {
        kind: 'maintenance',
        message: decodeEnvelope(data, MAINTENANCE_CHANGED, parseMaintenanceChanged),
      };
    }
    if (subject.startsWith(this.tradeSubjectPrefix)) {
      const message = decodeEnvelope(data, TRADE_LIFECYCLE, parseTradeLifecycle);
      if (subject !== tradeLifecycleSubject(this.natsPrefix, message.payload.trade_id)) {
        throw new Error(`trade_id ${message.payload.trade_id} does not match the subject`);
      }
      return { kind: 'lifecycle', message };
    }
    if (subject.startsWith(this.fillSubjectPrefix)) {
      const message = decodeEnvelope(data, TRADE_FILL, parseTradeFill);
      if (subject !== tradeFillSubject(this.natsPrefix, message.payload.trade_id)) {
        throw new Error(`trade_id ${message.payload.trade_id} does not match the subject`);
      }
      return { kind: 'fill', message };
    }
    return null;
  }
}

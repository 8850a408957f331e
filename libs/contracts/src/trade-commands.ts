import { MessageValidationError } from './envelope';
import { integerField, objectOf, oneOf, stringField } from './guards';

/**
 * `trade.start`: a created trade is ready for a worker. Travels on the
 * TRADE_COMMANDS work-queue stream, published from the gateway's outbox with
 * Nats-Msg-Id `start-<trade_id>`, so it reaches exactly one worker once.
 */
export const START_TRADE = 'trade.start';
export const startTradeSubject = (prefix: string): string => `${prefix}.trades.cmd.start`;
export const startTradeMessageId = (tradeId: string): string => `start-${tradeId}`;

export interface StartTrade {
  trade_id: string;
  user_id: string;
}

export function parseStartTrade(value: unknown): StartTrade {
  const record = objectOf(START_TRADE, value);
  return {
    trade_id: stringField(START_TRADE, record, 'trade_id'),
    user_id: stringField(START_TRADE, record, 'user_id'),
  };
}

/**
 * `trade.offer`: request/reply (core NATS) from the worker a start command
 * reached to a worker already running trades on the trade's maker account,
 * so one account session carries them all (one stream, one set of reads,
 * and their orders in the venue's batches). The payload is the command's
 * (`StartTrade`); the reply is the offer's result there. No reply, or
 * `full`, and the worker the command reached offers the trade to itself.
 * A worker id is any text, so the subject carries it base64url-encoded.
 */
export const TRADE_OFFER = 'trade.offer';
export const tradeOfferSubject = (prefix: string, workerId: string): string =>
  `${prefix}.trades.offer.${Buffer.from(workerId, 'utf8').toString('base64url')}`;

export const TRADE_OFFER_REPLY = 'trade.offer.reply';
export const TRADE_OFFER_RESULTS = ['acquired', 'running', 'full', 'unavailable'] as const;

export interface TradeOfferReply {
  result: (typeof TRADE_OFFER_RESULTS)[number];
}

export function parseTradeOfferReply(value: unknown): TradeOfferReply {
  const record = objectOf(TRADE_OFFER_REPLY, value);
  return { result: oneOf(TRADE_OFFER_REPLY, record, 'result', TRADE_OFFER_RESULTS) };
}

/**
 * `trade.control`: request/reply (core NATS) to the worker that owns a trade.
 * The change itself is already in Postgres when this is sent; the message only
 * makes the owner apply it now. No responder means no live owner: whoever
 * takes the trade next reads the change from the row.
 */
export const TRADE_CONTROL = 'trade.control';
export const tradeControlSubject = (prefix: string, tradeId: string): string =>
  `${prefix}.trades.ctl.${tradeId}`;

export const TRADE_CONTROL_KINDS = ['amend', 'cancel'] as const;
export type TradeControlKind = (typeof TRADE_CONTROL_KINDS)[number];

export interface TradeControl {
  kind: TradeControlKind;
  trade_id: string;
  /** For `amend`: the trades.amendment_version the owner must reach. */
  amendment_version: number;
}

export function parseTradeControl(value: unknown): TradeControl {
  const record = objectOf(TRADE_CONTROL, value);
  return {
    kind: oneOf(TRADE_CONTROL, record, 'kind', TRADE_CONTROL_KINDS),
    trade_id: stringField(TRADE_CONTROL, record, 'trade_id'),
    amendment_version: integerField(TRADE_CONTROL, record, 'amendment_version'),
  };
}

export const TRADE_CONTROL_REPLY = 'trade.control.reply';

export interface TradeControlReply {
  accepted: boolean;
  worker_id: string;
}

export function parseTradeControlReply(value: unknown): TradeControlReply {
  const record = objectOf(TRADE_CONTROL_REPLY, value);
  if (typeof record['accepted'] !== 'boolean') {
    throw new MessageValidationError(TRADE_CONTROL_REPLY, 'accepted must be a boolean');
  }
  return {
    accepted: record['accepted'],
    worker_id: stringField(TRADE_CONTROL_REPLY, record, 'worker_id'),
  };
}

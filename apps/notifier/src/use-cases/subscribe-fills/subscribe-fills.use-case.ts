import { lostDependencyOf, type Logger } from '@sts/platform';
import type { ClientConnection } from '../../connections/client-connection';
import type { ConnectionRegistry } from '../../connections/connection-registry';
import type { FillStream } from '../../connections/fill-stream';
import type { RequestId } from '../../protocol/client-messages';
import { errorReply, fillFrame, fillsSubscribedReply } from '../../protocol/server-messages';
import type { LoggedFill, TradeFillsReader } from '../../trades/trade-fills.reader';
import type { TradeOwnershipReader } from '../../trades/trade-ownership.reader';

export interface SubscribeFillsRequest {
  tradeId?: string;
  fromSequence?: number;
  id?: RequestId;
}

/**
 * `{"op":"subscribe","subscription":"fills","params":{"trade_id","from_sequence"}}`:
 * the fill entries of one trade of the caller's (maker_fill, hedge_filled,
 * hedge_outcome) as they are logged, or (no trade_id) of every trade of the
 * caller's. With from_sequence, the entries already logged from that sequence
 * are replayed from Postgres first.
 *
 * The stream starts holding live fills before the ownership check and the
 * replay read, so an entry committed meanwhile is either in the read or
 * arrives live (or both: the stream sends each sequence once). Nothing falls
 * between the replay and the live fills.
 */
export class SubscribeFills {
  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly trades: TradeOwnershipReader,
    private readonly fills: TradeFillsReader,
    private readonly maxTradeSubscriptions: number,
    private readonly log: Logger,
  ) {}

  async execute(connection: ClientConnection, request: SubscribeFillsRequest): Promise<void> {
    const userId = connection.userId;
    if (userId === undefined) {
      return;
    }
    if (request.tradeId === undefined) {
      this.registry.subscribeAllFills(connection, userId);
      connection.reply(fillsSubscribedReply(undefined, undefined, request.id));
      return;
    }
    await this.subscribeOne(connection, userId, request.tradeId, request);
  }

  private async subscribeOne(
    connection: ClientConnection,
    userId: string,
    tradeId: string,
    request: SubscribeFillsRequest,
  ): Promise<void> {
    const context = { id: request.id, op: 'subscribe' as const, tradeId };
    const streams = connection.fillStreams;
    if (!streams.has(tradeId) && streams.size >= this.maxTradeSubscriptions) {
      connection.reply(
        errorReply(
          'invalid_request',
          `at most ${this.maxTradeSubscriptions} fills subscriptions per connection; subscribe without trade_id for all trades`,
          context,
        ),
      );
      return;
    }
    const stream = this.registry.openFillStream(connection, tradeId);
    let replay: LoggedFill[];
    try {
      replay = await this.read(tradeId, userId, request.fromSequence);
    } catch (error) {
      this.registry.dropFillStream(connection, tradeId, stream);
      this.lookupFailed(connection, tradeId, error, context);
      return;
    }
    if (!connection.isOpen || connection.fillStreams.get(tradeId) !== stream) {
      return; // closed, unsubscribed or subscribed again meanwhile
    }
    await this.start(connection, stream, replay, request);
  }

  /** The replay (empty without from_sequence); trade_not_found when the trade is not the caller's. */
  private async read(
    tradeId: string,
    userId: string,
    fromSequence: number | undefined,
  ): Promise<LoggedFill[]> {
    const status = await this.trades.statusOfOwnTrade(tradeId, userId);
    if (status === null) {
      throw new TradeNotFound();
    }
    return fromSequence === undefined ? [] : this.fills.fillsFrom(tradeId, fromSequence);
  }

  /** `subscribed`, the replay (as fast as the client reads), then what was held, then live. */
  private async start(
    connection: ClientConnection,
    stream: FillStream,
    replay: LoggedFill[],
    request: SubscribeFillsRequest,
  ): Promise<void> {
    connection.reply(fillsSubscribedReply(stream.tradeId, request.fromSequence, request.id));
    for (const fill of replay) {
      const frame = stream.fromReplay({ sequence: fill.sequence, frame: fillFrame(fill) });
      if (frame !== null) {
        connection.deliver(frame);
        await connection.drained();
      }
      if (!connection.isOpen || connection.fillStreams.get(stream.tradeId) !== stream) {
        return;
      }
    }
    for (const frame of stream.goLive()) {
      connection.deliver(frame);
    }
  }

  private lookupFailed(
    connection: ClientConnection,
    tradeId: string,
    error: unknown,
    context: { id?: RequestId; op: 'subscribe'; tradeId: string },
  ): void {
    if (error instanceof TradeNotFound) {
      connection.reply(errorReply('trade_not_found', 'trade not found', context));
      return;
    }
    this.log.error(
      { err: error, trade_id: tradeId, connection_id: connection.id },
      'fills subscription could not read the trade',
    );
    connection.reply(
      errorReply('service_unavailable', 'could not check the trade; retry', {
        ...context,
        reason: lostDependencyOf(error) ?? 'postgres',
      }),
    );
  }
}

/** A missing or foreign trade: answered like the trades subscription answers it. */
class TradeNotFound extends Error {}

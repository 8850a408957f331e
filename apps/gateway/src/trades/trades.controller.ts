import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import type { VenueId } from '@sts/domain';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../infrastructure/tokens';
import { AmendTradeRequest } from './dto/amend-trade.request';
import { CreateTradeRequest } from './dto/create-trade.request';
import { TradeEventsQuery } from './dto/events.query';
import { ListTradesQuery } from './dto/list-trades.query';
import {
  presentTrade,
  presentTradeEvents,
  type ModeOf,
  type PresentedTrade,
  type TradeEventsView,
  type TradeView,
} from './trade.presenter';
import {
  answer,
  amendTradeAnswer,
  type AmendTradeBody,
  cancelAllAnswer,
  type CancelAllBody,
  cancelTradeAnswer,
  type CancelTradeBody,
  createTradeAnswer,
  type CreateTradeBody,
} from './trade-answers';
import { TRADE_LIST_LIMIT, TradeQueries } from './trade.queries';
import { TradeCostsReader } from './costs/trade-costs.reader';
import type { TradeCostsView } from './costs/trade-costs.presenter';
import { AmendTradeUseCase } from './use-cases/amend-trade/amend-trade.use-case';
import { CancelAllTradesUseCase } from './use-cases/cancel-trade/cancel-all-trades.use-case';
import { CancelTradeUseCase } from './use-cases/cancel-trade/cancel-trade.use-case';
import { CreateTradeUseCase } from './use-cases/create-trade/create-trade.use-case';
import { headerIdempotencyKey } from './use-cases/create-trade/idempotency-key';

@ApiTags('trades')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/trades')
export class TradesController {
  constructor(
    private readonly queries: TradeQueries,
    private readonly createTrade: CreateTradeUseCase,
    private readonly amendTrade: AmendTradeUseCase,
    private readonly cancelTrade: CancelTradeUseCase,
    private readonly cancelAllTrades: CancelAllTradesUseCase,
    private readonly costs: TradeCostsReader,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** A leg's mode: its venue's in the registry (trades name only registry venues). */
  private readonly modeOf: ModeOf = (exchange) => this.config.venues[exchange as VenueId].mode;

  @RequireScopes('trades:write')
  @Post()
  @ApiOperation({ summary: 'Submit a spread trade; execution is asynchronous' })
  @ApiHeader({
    name: 'X-Idempotency-Key',
    required: false,
    description: 'takes precedence over Idempotency-Key and idempotency_key; one key is required',
    schema: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,128}$' },
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'the IETF header (a structured-field string, `"key"`, or a bare key); X-Idempotency-Key wins when both are sent',
    schema: { type: 'string', pattern: '^"?[a-zA-Z0-9_-]{1,128}"?$' },
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTradeRequest,
    @Headers('x-idempotency-key') idempotencyKey: string | undefined,
    @Headers('idempotency-key') ietfIdempotencyKey: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreateTradeBody> {
    const outcome = await this.createTrade.execute(
      principal,
      body,
      headerIdempotencyKey(idempotencyKey, ietfIdempotencyKey),
      request.id,
      request.changeMark,
    );
    return answer(reply, createTradeAnswer(outcome));
  }

  @RequireScopes('trades:write')
  @Post('cancel-all')
  @ApiOperation({
    summary: 'Cancel every live trade of the caller, as DELETE would, one answer per trade',
    description:
      'Allowed during maintenance and under the kill switch. Positions already filled stay open.',
  })
  async cancelAll(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CancelAllBody> {
    const outcomes = await this.cancelAllTrades.execute(principal.userId, request.id);
    return answer(reply, cancelAllAnswer(outcomes));
  }

  @RequireScopes('trades:read')
  @Get()
  @ApiOperation({
    summary: "The caller's 50 most recent trades, all statuses; or a page of them",
    description:
      'With `status`, `limit` or `before`: that page, newest first (decisions section 8). ' +
      'Page on with `before` set to the last trade_id of the page.',
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListTradesQuery,
  ): Promise<TradeView[]> {
    const paged = query.status !== undefined || query.limit !== undefined || query.before;
    const trades = paged
      ? await this.queries.page(principal.userId, {
          limit: query.limit ?? TRADE_LIST_LIMIT,
          ...(query.status ? { statuses: query.status.split(',') } : {}),
          ...(query.before ? { before: query.before } : {}),
        })
      : await this.queries.recent(principal.userId);
    return this.present(trades);
  }

  @RequireScopes('trades:read')
  @Get(':tradeId')
  @ApiOperation({ summary: 'One trade (404 trade not found for unknown and foreign trades alike)' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('tradeId') tradeId: string,
  ): Promise<TradeView> {
    const [trade] = await this.present([await this.queries.one(principal.userId, tradeId)]);
    return trade;
  }

  /** Trades as the API shows them, each with its costs from its execution log. */
  private async present(trades: PresentedTrade[]): Promise<TradeView[]> {
    const costs = await this.costs.costsOf(trades);
    return trades.map((trade) =>
      presentTrade(trade, this.modeOf, costs.get(trade.id) as TradeCostsView),
    );
  }

  @RequireScopes('trades:read')
  @Get(':tradeId/events')
  @ApiOperation({ summary: 'The execution log, ordered by sequence' })
  async events(
    @CurrentPrincipal() principal: Principal,
    @Param('tradeId') tradeId: string,
    @Query() query: TradeEventsQuery,
  ): Promise<TradeEventsView> {
    const page = await this.queries.events(
      principal.userId,
      tradeId,
      query.after_sequence,
      query.limit,
    );
    return presentTradeEvents(tradeId, page);
  }

  @RequireScopes('trades:write')
  @Patch(':tradeId')
  @ApiOperation({ summary: 'Amend size, spread or slippage; applied on the next quote cycle' })
  async amend(
    @CurrentPrincipal() principal: Principal,
    @Param('tradeId') tradeId: string,
    @Body() body: AmendTradeRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AmendTradeBody> {
    const outcome = await this.amendTrade.execute(principal.userId, tradeId, body, request.id);
    return answer(reply, amendTradeAnswer(outcome));
  }

  @RequireScopes('trades:write')
  @Delete(':tradeId')
  @ApiOperation({ summary: 'Cancel; never closes filled positions' })
  async cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('tradeId') tradeId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CancelTradeBody> {
    const outcome = await this.cancelTrade.execute(principal.userId, tradeId, request.id);
    return answer(reply, cancelTradeAnswer(outcome));
  }
}

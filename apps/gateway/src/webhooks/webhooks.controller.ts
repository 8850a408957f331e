import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@sts/auth';
import { CreateWebhookRequest } from './dto/create-webhook.request';
import { DELIVERIES_PAGE_DEFAULT, WebhookDeliveriesQuery } from './dto/webhook-deliveries.query';
import { CreateWebhookUseCase } from './use-cases/create-webhook/create-webhook.use-case';
import { DeleteWebhookUseCase } from './use-cases/delete-webhook/delete-webhook.use-case';
import {
  TestWebhookUseCase,
  type TestDeliveryView,
} from './use-cases/test-webhook/test-webhook.use-case';
import {
  presentCreatedWebhook,
  presentDeliveries,
  presentWebhook,
  type CreatedWebhookView,
  type WebhookDeliveriesView,
  type WebhookView,
} from './webhook.presenter';
import { WebhookQueries } from './webhook.queries';

@ApiTags('webhooks')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller('api/v1/webhooks')
export class WebhooksController {
  constructor(
    private readonly queries: WebhookQueries,
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly testWebhook: TestWebhookUseCase,
  ) {}

  @RequireScopes('webhooks:write')
  @Post()
  @ApiOperation({ summary: 'Register a webhook endpoint; its signing secret is answered once' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateWebhookRequest,
  ): Promise<CreatedWebhookView> {
    const { endpoint, secret } = await this.createWebhook.execute(principal.userId, body);
    return presentCreatedWebhook(endpoint, secret);
  }

  @RequireScopes('webhooks:read')
  @Get()
  @ApiOperation({ summary: "The caller's webhook endpoints, oldest first (never a secret)" })
  async list(@CurrentPrincipal() principal: Principal): Promise<{ webhooks: WebhookView[] }> {
    return { webhooks: (await this.queries.list(principal.userId)).map(presentWebhook) };
  }

  @RequireScopes('webhooks:read')
  @Get(':webhookId')
  @ApiOperation({ summary: 'One webhook endpoint and how its deliveries fare' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId') webhookId: string,
  ): Promise<WebhookView> {
    return presentWebhook(await this.queries.one(principal.userId, webhookId));
  }

  @RequireScopes('webhooks:write')
  @Delete(':webhookId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook endpoint; what it is still owed is canceled' })
  async remove(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId') webhookId: string,
  ): Promise<void> {
    await this.deleteWebhook.execute(principal.userId, webhookId);
  }

  @RequireScopes('webhooks:write')
  @Post(':webhookId/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send the endpoint a webhook.test delivery' })
  test(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId') webhookId: string,
  ): Promise<TestDeliveryView> {
    return this.testWebhook.execute(principal.userId, webhookId);
  }

  @RequireScopes('webhooks:read')
  @Get(':webhookId/deliveries')
  @ApiOperation({ summary: "The endpoint's deliveries, newest first, with their attempts" })
  async deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId') webhookId: string,
    @Query() query: WebhookDeliveriesQuery,
  ): Promise<WebhookDeliveriesView> {
    return presentDeliveries(
      await this.queries.deliveriesOf(
        principal.userId,
        webhookId,
        query.limit ?? DELIVERIES_PAGE_DEFAULT,
        query.before,
      ),
    );
  }
}
